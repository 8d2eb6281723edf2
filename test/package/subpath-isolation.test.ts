import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const STATIC_IMPORT = /^\s*(?:import|export)\s(?!type\b)(?:[^'"]*?\sfrom\s)?['"](\.[^'"]+)['"]/gm;

/** Every project file a module loads at import time (static, value imports only; `import type` is erased). */
function importGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const match of source.matchAll(STATIC_IMPORT)) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), match[1]!)).replace(/\.js$/, '.ts');
      visit(target);
    }
  };
  visit(entry);
  return seen;
}

describe('subpath exports load only their own service', () => {
  it.each([
    ['tools/tinybird/index.ts', ['tools/loops/', 'tools/workflow/']],
    ['tools/loops/index.ts', ['tools/tinybird/', 'tools/workflow/']],
    ['tools/workflow/index.ts', ['tools/tinybird/', 'tools/loops/']],
    // Webhooks share the workflow service's payload schemas, nothing else of it.
    ['src/webhooks/index.ts', ['tools/tinybird/', 'tools/loops/', 'tools/workflow/index.ts']],
  ])('%s', (entry, others) => {
    const files = [...importGraph(entry)];
    expect(files.length).toBeGreaterThan(1);
    const forbidden = [...others, 'src/satellites/sandbox/', 'src/satellites/notifications/', 'src/registry.ts', 'src/satellites/cli/', 'blocks/'];
    expect(files.filter((file) => forbidden.some((prefix) => file.startsWith(prefix)))).toEqual([]);
  });

  it('keeps chdb and the sandbox out of the root entry', () => {
    const files = [...importGraph('src/index.ts')];
    expect(files).toContain('tools/tinybird/index.ts');
    expect(files.filter((file) => file.startsWith('src/satellites/sandbox/'))).toEqual([]);
    for (const file of files) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/from ['"]chdb['"]/);
  });
});

describe('engine adapters', () => {
  it('the root entry loads neither flowblocks/sim nor flowblocks/n8n', () => {
    const files = [...importGraph('src/index.ts')];
    expect(files.filter((file) => file.startsWith('src/hosts/sim/') || file.startsWith('src/hosts/n8n/') || file.startsWith('src/hosts/shared/'))).toEqual([]);
  });

  it.each(['src/hosts/sim/index.ts', 'src/hosts/n8n/index.ts'])('%s loads no engine package at run time (types only)', (entry) => {
    for (const file of importGraph(entry)) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      expect(source, file).not.toMatch(/^\s*import\s(?!type\b)[^;]*from\s+['"](n8n-workflow|n8n-core|react)['"]/m);
      expect(source, file).not.toMatch(/^\s*import\s(?!type\b)[^;]*from\s+['"]\.\.\/\.\.\/test\//m);
    }
  });
});

describe('flowblocks/redis', () => {
  it('the root entry loads nothing of the Redis pacer, and no project file imports ioredis at load time', () => {
    const files = [...importGraph('src/index.ts')];
    expect(files.filter((file) => file.startsWith('src/redis/'))).toEqual([]);
    for (const file of files) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/^\s*import\s(?!type\b)[^;]*from\s+['"]ioredis['"]/m);
  });

  it('src/redis/index.ts loads ioredis only when a pacer is created, and no service, registry or CLI', () => {
    const files = [...importGraph('src/redis/index.ts')];
    expect(files).toContain('src/redis/pacer.ts');
    for (const file of files) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/^\s*import\s(?!type\b)[^;]*from\s+['"]ioredis['"]/m);
    const forbidden = ['tools/', 'src/registry.ts', 'src/satellites/cli/', 'src/satellites/sandbox/', 'src/satellites/notifications/'];
    expect(files.filter((file) => forbidden.some((prefix) => file.startsWith(prefix)))).toEqual([]);
    expect(readFileSync(join(ROOT, 'src/redis/connect.ts'), 'utf8')).toMatch(/await import\('ioredis'\)/);
  });
});

describe('the Redis store of the monitor', () => {
  const VALUE_IMPORT_OF_REDIS = /^\s*import\s(?!type\b)[^;]*from\s+['"](ioredis|bullmq)['"]/m;

  it.each(['src/index.ts', 'src/satellites/notifications/index.ts', 'src/satellites/cli/index.ts'])('%s loads nothing of Redis without --store', (entry) => {
    const files = [...importGraph(entry)];
    expect(files.filter((file) => file.startsWith('src/satellites/notifications/redis/'))).toEqual([]);
    for (const file of files) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(VALUE_IMPORT_OF_REDIS);
  });

  it('loads ioredis and bullmq only through import(), in one place', () => {
    const files = [...importGraph('src/satellites/notifications/redis/backend.ts')];
    expect(files).toContain('src/satellites/notifications/redis/load.ts');
    for (const file of files) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(VALUE_IMPORT_OF_REDIS);
    const load = readFileSync(join(ROOT, 'src/satellites/notifications/redis/load.ts'), 'utf8');
    expect(load).toMatch(/import\('ioredis'\)/);
    expect(load).toMatch(/import\('bullmq'\)/);
    expect(load).toMatch(/npm install bullmq ioredis/);
    // The command reaches the Redis store by import() only when --store is given.
    expect(readFileSync(join(ROOT, 'src/satellites/cli/monitor-command.ts'), 'utf8')).toMatch(/await import\('\.\.\/notifications\/redis\/backend\.js'\)/);
  });
});

describe('flowblocks/testing', () => {
  it.each(['src/index.ts', 'tools/tinybird/index.ts', 'tools/loops/index.ts', 'tools/workflow/index.ts', 'src/hosts/agents/index.ts', 'src/hosts/sim/index.ts', 'src/hosts/n8n/index.ts'])(
    '%s loads none of it',
    (entry) => {
      expect([...importGraph(entry)].filter((file) => file.startsWith('src/testing/'))).toEqual([]);
    },
  );

  it('no tool or harness file imports it, even as a type', () => {
    const files = [...importGraph('src/index.ts')].filter((file) => file.startsWith('tools/') || file.startsWith('src/harness/'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/from ['"][^'"]*\/testing\//);
  });
});
