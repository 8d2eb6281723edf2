/**
 * docs/architecture.md's layer rule, checked on the import graph: each layer imports only the
 * layers below it. Imports are read with TypeScript's own pre-processor (static, re-exports and
 * dynamic `import()`), so a new file in any folder is judged without this test changing.
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Where a file sits in the layer table. */
function layerOf(file: string): string {
  if (file.startsWith('tools/')) return 'services';
  const parts = file.split('/');
  if (parts[1] === 'harness') return 'harness';
  if (parts[1] === 'hosts') return 'hosts';
  if (parts[1] === 'satellites') return 'satellites';
  const top = parts[1]!.replace(/\.tsx?$/, '');
  const named: Record<string, string> = {
    'durable-write': 'leaf', version: 'leaf', schema: 'derived views', blocks: 'derived views', docs: 'derived views',
    kit: 'kit', registry: 'registry', testing: 'testing kit', index: 'consumer API', webhooks: 'beside', redis: 'beside',
  };
  const layer = named[top];
  if (!layer) throw new Error(`${file}: in no layer of docs/architecture.md; add its folder to the table and here`);
  return layer;
}

/** What each layer may import besides itself; anything else is a layer rule broken. */
const MAY_IMPORT: Record<string, string[]> = {
  leaf: [],
  harness: ['leaf'],
  'derived views': ['leaf', 'harness'],
  kit: ['leaf', 'harness', 'derived views'],
  services: ['kit'],
  registry: ['leaf', 'harness', 'derived views', 'services'],
  beside: ['leaf', 'harness', 'kit', 'services'],
  'testing kit': ['leaf', 'harness', 'derived views', 'registry'],
  'consumer API': ['leaf', 'harness', 'derived views', 'kit', 'registry'],
  hosts: ['leaf', 'harness', 'derived views', 'kit', 'registry', 'consumer API'],
  satellites: ['leaf', 'harness', 'derived views', 'kit', 'services', 'registry', 'beside', 'testing kit', 'consumer API', 'hosts'],
};

const files = execFileSync('git', ['ls-files', 'src', 'tools'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.tsx?$/.test(file));

/** Every relative import of a file, as a repository path without its extension. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((entry) => entry.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => posix.normalize(posix.join(posix.dirname(file), name)).replace(/\.(js|ts|json)$/, ''));
}

const known = new Map(files.map((file) => [file.replace(/\.tsx?$/, ''), file]));

describe('the layer rule (docs/architecture.md)', () => {
  it('puts every source file in a layer', () => {
    expect(files.length).toBeGreaterThan(200);
    for (const file of files) expect(() => layerOf(file)).not.toThrow();
  });

  it('has each layer import only the layers below it', () => {
    const broken: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const resolved = known.get(target) ?? known.get(`${target}/index`);
        if (!resolved) continue; // a JSON file or a generated asset: no layer of its own
        const to = layerOf(resolved);
        if (to !== from && !MAY_IMPORT[from]!.includes(to)) broken.push(`${file} (${from}) imports ${resolved} (${to})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps each service folder to itself: a tool loads no other service', () => {
    const crossing: string[] = [];
    for (const file of files.filter((f) => f.startsWith('tools/'))) {
      const own = file.split('/')[1];
      for (const target of importsOf(file)) {
        if (target.startsWith('tools/') && target.split('/')[1] !== own) crossing.push(`${file} imports ${target}`);
      }
    }
    expect(crossing).toEqual([]);
  });

  it('finds a broken rule when one is there', () => {
    // The check itself: a harness file importing a satellite is caught.
    expect(MAY_IMPORT['harness']).not.toContain(layerOf('src/satellites/sandbox/index.ts'));
    expect(MAY_IMPORT['services']).not.toContain(layerOf('src/harness/types.ts'));
  });
});
