#!/usr/bin/env node
import { text } from 'node:stream/consumers';
import { main } from './main.js';

// A reader that closed its end (`flowblocks list | head -1`) ends us as SIGPIPE ends a Unix
// tool: quietly. Node ignores SIGPIPE, so the write fails with EPIPE, an 'error' event that
// would otherwise crash with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdin: () => text(process.stdin),
});
