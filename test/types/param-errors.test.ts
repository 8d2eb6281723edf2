/**
 * #31 item 8: a wrong, missing or mistyped param of `executeTool` / `runTool` is reported on
 * that param, with what is wrong, by the TypeScript we build with and by TypeScript 7 (the
 * current major, in test/types/ts7 so its `tsc` does not replace ours). The fixture's marked
 * lines say where each diagnostic must start and what it must say; any other diagnostic fails.
 * The two compilers run side by side.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = 'test/types/param-errors/fixture.ts';
const compilers = {
  'the TypeScript we build with': 'node_modules/typescript/bin/tsc',
  'TypeScript 7': 'test/types/ts7/node_modules/typescript/bin/tsc',
};

interface Diagnostic {
  line: number;
  column: number;
  text: string;
}

/** The fixture's marked lines: where a diagnostic starts (line, column of the name) and what it says. */
function expectations(): Diagnostic[] {
  return readFileSync(`${root}/${fixture}`, 'utf8')
    .split('\n')
    .flatMap((source, i) => {
      const mark = /\/\/ error at (.+?): (.+)$/.exec(source);
      if (!mark) return [];
      const column = source.lastIndexOf(mark[1]!, mark.index) + 1;
      return [{ line: i + 1, column, text: mark[2]! }];
    });
}

function compile(tsc: string): Promise<{ version: string; diagnostics: Diagnostic[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', 'test/types/param-errors/tsconfig.json', '--pretty', 'false'], { cwd: root });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const diagnostics: Diagnostic[] = [];
      for (const line of out.split('\n')) {
        const head = /^(.+?)\((\d+),(\d+)\): error (TS\d+: .*)$/.exec(line);
        if (head) diagnostics.push({ line: head[1] === fixture ? Number(head[2]) : -1, column: Number(head[3]), text: `${head[1]}: ${head[4]}` });
        else if (line.startsWith(' ') && diagnostics.length) diagnostics.at(-1)!.text += `\n${line.trim()}`;
      }
      const version = JSON.parse(readFileSync(`${root}/${tsc.replace(/bin\/tsc$/, 'package.json')}`, 'utf8')).version as string;
      resolve({ version, diagnostics });
    });
  });
}

describe.concurrent.each(Object.entries(compilers))('param errors with %s', (_name, tsc) => {
  it('start at the param and say what is wrong with it', { timeout: 240_000 }, async () => {
    const { version, diagnostics } = await compile(tsc);
    const wanted = expectations();
    expect(wanted.length).toBe(13);
    for (const want of wanted) {
      const got = diagnostics.filter((d) => d.line === want.line);
      expect(got, `TypeScript ${version}, ${fixture}:${want.line}`).toEqual([
        { line: want.line, column: want.column, text: expect.stringContaining(want.text) },
      ]);
      expect(got[0]!.text).not.toMatch(/never|Overload|No overload/);
    }
    // Nothing else: the right calls compile.
    expect(diagnostics.filter((d) => !wanted.some((w) => w.line === d.line))).toEqual([]);
  });
});
