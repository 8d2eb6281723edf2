#!/usr/bin/env node
import { text } from 'node:stream/consumers';
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdin: () => text(process.stdin),
});
