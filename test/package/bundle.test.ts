/**
 * dist/'s JavaScript is bundled (scripts/bundle.ts): what subpath-isolation.test.ts checks on
 * the sources must hold for the bundles too, where code splitting could pull a module into a
 * chunk an entry loads statically. Builds in memory with the same options and follows each
 * entry's static imports through the chunks.
 */
import { readFileSync } from 'node:fs';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundledByMistake, options } from '../../scripts/bundle.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
  bin: Record<string, string>;
};
const OPTIONAL_PEERS = ['chdb', 'ioredis', 'bullmq', 'ai', '@modelcontextprotocol/sdk', 'n8n-workflow'];

let meta: Metafile;
let bin: string;

beforeAll(async () => {
  const result = await build({ ...options, write: false, sourcemap: false, logLevel: 'silent' });
  meta = result.metafile;
  const cli = result.outputFiles.find((file) => file.path.endsWith('/dist/src/satellites/cli/index.js'));
  bin = cli?.text ?? '';
});

/** What loading `entry` (a source path) loads at once: the sources in its chunks and the packages it imports. */
function staticLoad(entry: string): { sources: string[]; packages: string[]; dynamicPackages: string[] } {
  const start = Object.keys(meta.outputs).find((file) => meta.outputs[file]!.entryPoint === entry);
  if (!start) throw new Error(`no output for ${entry}`);
  const sources = new Set<string>();
  const packages = new Set<string>();
  const dynamicPackages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const output = meta.outputs[file]!;
    for (const input of Object.keys(output.inputs)) sources.add(input);
    for (const imported of output.imports) {
      if (imported.external) (imported.kind === 'dynamic-import' ? dynamicPackages : packages).add(imported.path);
      else if (imported.kind === 'import-statement') visit(imported.path);
    }
  };
  visit(start);
  return { sources: [...sources], packages: [...packages], dynamicPackages: [...dynamicPackages] };
}

const optionalPeer = (specifier: string) => OPTIONAL_PEERS.some((peer) => specifier === peer || specifier.startsWith(`${peer}/`));

describe('the bundled dist/', () => {
  it('has a bundle at every path package.json names, and bundles nothing from node_modules', () => {
    const targets = [...Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [] : [t.default])), ...Object.values(pkg.bin)];
    for (const target of targets) expect(meta.outputs, target).toHaveProperty([target.replace(/^\.\//, '')]);
    expect(Object.keys(meta.inputs).filter(bundledByMistake)).toEqual([]);
  });

  it('keeps the bin runnable: its hashbang first', () => {
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it.each([
    ['tools/tinybird/index.ts', ['tools/loops/', 'tools/workflow/']],
    ['tools/loops/index.ts', ['tools/tinybird/', 'tools/workflow/']],
    ['tools/workflow/index.ts', ['tools/tinybird/', 'tools/loops/']],
    ['src/webhooks/index.ts', ['tools/tinybird/', 'tools/loops/', 'tools/workflow/index.ts']],
  ])('%s loads only its own service, and no optional peer', (entry, others) => {
    const { sources, packages } = staticLoad(entry);
    const forbidden = [...others, 'src/satellites/sandbox/', 'src/satellites/notifications/', 'src/registry.ts', 'src/satellites/cli/', 'blocks/', 'src/redis/'];
    expect(sources.filter((file) => forbidden.some((prefix) => file.startsWith(prefix)))).toEqual([]);
    expect(packages.filter(optionalPeer)).toEqual([]);
  });

  it('the root entry loads no sandbox, engine adapter or Redis code, and no optional peer', () => {
    const { sources, packages } = staticLoad('src/index.ts');
    expect(sources).toContain('tools/tinybird/index.ts');
    const forbidden = ['src/satellites/sandbox/', 'src/hosts/sim/', 'src/hosts/n8n/', 'src/hosts/shared/', 'src/redis/', 'src/satellites/notifications/redis/', 'src/satellites/cli/'];
    expect(sources.filter((file) => forbidden.some((prefix) => file.startsWith(prefix)))).toEqual([]);
    expect(packages.filter(optionalPeer)).toEqual([]);
  });

  it('flowblocks/redis loads ioredis only through import()', () => {
    const { packages, dynamicPackages } = staticLoad('src/redis/index.ts');
    expect(packages.filter(optionalPeer)).toEqual([]);
    expect(dynamicPackages).toContain('ioredis');
  });

  it('the CLI loads its commands, the sandbox, the Redis store and the MCP SDK on demand', () => {
    const { sources, packages } = staticLoad('src/satellites/cli/index.ts');
    const forbidden = ['src/satellites/sandbox/', 'src/satellites/notifications/redis/', 'src/redis/', 'src/hosts/agents/mcp-server.ts', 'src/satellites/preview/'];
    expect(sources.filter((file) => forbidden.some((prefix) => file.startsWith(prefix)))).toEqual([]);
    expect(packages.filter(optionalPeer)).toEqual([]);
  });

  it.each(['src/satellites/sandbox/index.ts', 'src/satellites/notifications/index.ts', 'src/hosts/sim/index.ts', 'src/hosts/n8n/index.ts', 'src/hosts/agents/index.ts'])('%s loads no optional peer at import', (entry) => {
    expect(staticLoad(entry).packages.filter(optionalPeer)).toEqual([]);
  });
});
