import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleDeclarations, declarationEntries } from '../../scripts/bundle-declarations.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowblocks-dts-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** tsc's output of a small package: two entries export `Shared`; `Unused` and `internal.d.ts` are reached by neither. */
function writeTscOutput(): string {
  const tsc = join(dir, 'tsc');
  mkdirSync(join(tsc, 'sub'), { recursive: true });
  writeFileSync(join(tsc, 'shared.d.ts'), '/** What both entries return. */\nexport interface Shared { id: string }\n/** Nobody imports this. */\nexport interface Unused { never: true }\n');
  writeFileSync(join(tsc, 'internal.d.ts'), 'export declare const secretSauce: number;\n');
  writeFileSync(join(tsc, 'index.d.ts'), "import type { Shared } from './shared.js';\nimport type { Dispatcher } from 'undici';\nexport type { Shared };\n/** Reads one. */\nexport declare function one(d: Dispatcher): Shared;\n");
  writeFileSync(join(tsc, 'sub', 'index.d.ts'), "import type { Shared } from '../shared.js';\nexport type { Shared };\nexport declare function many(): Shared[];\n");
  return tsc;
}

const read = (out: string, file: string) => readFileSync(join(out, file), 'utf8');

describe('scripts/bundle-declarations.ts', () => {
  it('writes one file per entry and a shared chunk with only what the entries reach, doc comments and package imports kept', async () => {
    const tsc = writeTscOutput();
    const out = join(dir, 'dist');
    const written = await bundleDeclarations({ 'src/index': join(tsc, 'index.d.ts'), 'src/sub/index': join(tsc, 'sub', 'index.d.ts') }, out);

    const chunks = readdirSync(join(out, 'chunks'));
    expect(chunks).toEqual([expect.stringMatching(/^shared-[\w-]+\.d\.ts$/)]);
    expect(written.sort()).toEqual(['src/index.d.ts', 'src/sub/index.d.ts', `chunks/${chunks[0]}`].sort());

    const everything = written.map((file) => read(out, file)).join('\n');
    expect(everything).toContain('/** What both entries return. */');
    expect(everything).toContain('/** Reads one. */');
    expect(everything).not.toMatch(/Unused|secretSauce/);
    expect(read(out, 'src/index.d.ts')).toMatch(/from 'undici'/);
    expect(read(out, 'src/sub/index.d.ts')).toContain(`from '../../chunks/${chunks[0]!.replace(/\.d\.ts$/, '.js')}'`);
  });

  it('fails when a declaration imports a file tsc did not write', async () => {
    const tsc = writeTscOutput();
    writeFileSync(join(tsc, 'index.d.ts'), "export type { Gone } from './missing.js';\n");
    await expect(bundleDeclarations({ index: join(tsc, 'index.d.ts') }, join(dir, 'dist'))).rejects.toThrow(/missing/);
  });

  it("maps package.json's types targets to tsc's files, and refuses one outside ./dist/", () => {
    const exports = {
      '.': { types: './dist/src/index.d.ts', default: './dist/src/index.js' },
      './tools/loops': { types: './dist/tools/loops/index.d.ts', default: './dist/tools/loops/index.js' },
      './package.json': './package.json',
    };
    expect(declarationEntries(exports, '/tsc')).toEqual({ 'src/index': '/tsc/src/index.d.ts', 'tools/loops/index': '/tsc/tools/loops/index.d.ts' });
    expect(() => declarationEntries({ '.': { types: './types/index.d.ts' } }, '/tsc')).toThrow(/outside \.\/dist/);
  });
});
