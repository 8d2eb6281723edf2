/**
 * `n8n-nodes-flowblocks` is built with n8n's own tooling (issue 43 item 2): `npm run build` in
 * the package is `n8n-node build`, which is tsc over the package's tsconfig.json. Here the same
 * compile runs through TypeScript's API, without n8n's CLI (installed only for the n8n tests):
 * the committed sources type-check, and tsc writes the very files the package.json's `n8n`
 * lists name. The runtime the nodes require (lib/flowblocks.ts declares it) is the esbuild
 * bundle of src/index.mts, and it provides every function that file declares.
 * `npm run test:n8n` loads the packed result into a real n8n.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleN8nRuntime, PACKAGE_DIR } from '../../scripts/build-n8n-package.js';

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  n8n: { nodes: string[]; credentials: string[] };
};

/** The package's tsconfig.json as tsc reads it, and the program over its files. */
function packageProgram(): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(PACKAGE_DIR, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  expect(parsed.errors).toEqual([]);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

const program = packageProgram();

describe('n8n package build', () => {
  it("builds and lints with n8n's CLI, as n8n's template does", () => {
    expect(manifest.scripts).toMatchObject({ build: 'n8n-node build', lint: 'n8n-node lint' });
    expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['@n8n/node-cli', 'typescript']));
  });

  it('its nodes, credentials and lib/ type-check with its tsconfig.json, as `n8n-node build` compiles them', () => {
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? relative(PACKAGE_DIR, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });

  it("tsc writes each file the package.json's n8n lists name, the nodes requiring lib/flowblocks beside them", () => {
    const written = new Map<string, string>();
    const emitted = program.emit(undefined, (file, text) => written.set(relative(PACKAGE_DIR, file), text));
    expect(emitted.emitSkipped).toBe(false);
    for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) expect([...written.keys()]).toContain(file);
    // The codex files, copied by tsc from the include's nodes/**/*.json.
    for (const node of manifest.n8n.nodes) expect([...written.keys()]).toContain(node.replace(/\.js$/, '.json'));
    for (const node of manifest.n8n.nodes) {
      const compiled = written.get(node)!;
      expect(compiled).toContain('require("n8n-workflow")');
      expect(compiled).toContain('require("../../lib/flowblocks")');
    }
    expect([...written.keys()]).toContain('dist/lib/flowblocks.js');
  });
});

describe('n8n package runtime', () => {
  const dir = mkdtempSync(join(tmpdir(), 'n8n-runtime-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the bundle that replaces tsc\'s lib/flowblocks.js provides every function lib/flowblocks.ts declares', async () => {
    const { bundle } = await bundleN8nRuntime(join(dir, 'lib/flowblocks.js'));
    const checker = program.getTypeChecker();
    const lib = program.getSourceFile(join(PACKAGE_DIR, 'lib/flowblocks.ts'))!;
    const declared = checker.getExportsOfModule(checker.getSymbolAtLocation(lib)!).map((s) => s.name);
    expect(declared.sort()).toEqual(['executeOf', 'methodsOf']);
    // n8n-workflow is the host's: here the repository's copy.
    const runtime = createRequire(join(PACKAGE_DIR, 'package.json'))(bundle) as Record<string, (type: string) => unknown>;
    for (const name of declared) expect(typeof runtime[name], name).toBe('function');
    expect(typeof runtime.executeOf!('tinybird')).toBe('function');
    expect(Object.keys((runtime.methodsOf!('tinybird') as { listSearch: object }).listSearch)).toEqual(expect.arrayContaining(['searchPipe', 'searchDatasource']));
  }, 60_000);
});
