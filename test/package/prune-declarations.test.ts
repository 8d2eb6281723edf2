import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reachableDeclarations } from '../../scripts/prune-declarations.js';

/** A dist/ of declaration files, from path to text. */
function dist(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'prune-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the declarations an entry point reaches (scripts/prune-declarations.ts)', () => {
  it('follows imports, re-exports, import() types and folder indexes, and nothing else', () => {
    const root = dist({
      'index.d.ts': "import type { A } from './a.js';\nexport * from './b.js';\nexport declare const c: import('./c.js').C;\nexport type { D } from './d/index.js';\n",
      'a.d.ts': "export type A = import('./deep/e.js').E;\n",
      'b.d.ts': 'export declare const b: number;\n',
      'c.d.ts': 'export type C = string;\n',
      'd/index.d.ts': "export type { D } from '../d.js';\nexport type Z = 1;\n",
      'd.d.ts': 'export type D = 2;\n',
      'deep/e.d.ts': "import type { Dist } from 'zod';\nexport type E = Dist;\n",
      'internal.d.ts': "import type { B } from './b.js';\nexport type I = B;\n",
    });
    const reached = [...reachableDeclarations([join(root, 'index.d.ts')])].map((file) => file.slice(normalize(root).length + 1)).sort();
    expect(reached).toEqual(['a.d.ts', 'b.d.ts', 'c.d.ts', 'd.d.ts', 'd/index.d.ts', 'deep/e.d.ts', 'index.d.ts']);
  });

  it('fails the build when a reached declaration imports one that is not there', () => {
    const root = dist({ 'index.d.ts': "export type { A } from './missing.js';\n" });
    expect(() => reachableDeclarations([join(root, 'index.d.ts')])).toThrow(/index\.d\.ts imports \.\/missing\.js, which has no declaration/);
  });
});
