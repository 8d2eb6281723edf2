import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const compilers = {
  'the TypeScript we build with': join(ROOT, 'node_modules/typescript/bin/tsc'),
  'TypeScript 7': join(ROOT, 'test/types/ts7/node_modules/typescript/bin/tsc'),
};

/**
 * An app's TypeScript as the issue wrote it (issue 42): on undici 8 (npm nests our undici 7 under
 * flowblocks), its own MockAgent as `dispatcher`; `flowblocks/n8n`, `flowblocks/agents` and
 * `flowblocks/redis` imported with none of their optional peers installed; `skipLibCheck: false`.
 */
const CONSUMER = `import { executeTool, getBlock } from 'flowblocks';
import { createMcpServer, toAiSdkTools } from 'flowblocks/agents';
import { toN8nNode } from 'flowblocks/n8n';
import { RedisPacer } from 'flowblocks/redis';
import { MockAgent } from 'undici';

const agent = new MockAgent();
agent.disableNetConnect();
export const call = executeTool('tinybird_query', { base_url: 'https://api.tinybird.co', token: 't', query: 'SELECT 1' }, { dispatcher: agent });
export const tools = toAiSdkTools({ services: ['tinybird'], execute: { dispatcher: agent } });
export const node = toN8nNode(getBlock('tinybird'));
export { createMcpServer, RedisPacer };
`;

let work: string;
let app: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'flowblocks-app-types-'));
  let tarball = process.env.FLOWBLOCKS_TARBALL ? resolve(process.env.FLOWBLOCKS_TARBALL) : undefined;
  if (!tarball) {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, maxBuffer: 64 << 20 });
    tarball = join(work, (JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[])[0]!.filename);
  }
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'typed-app', private: true, type: 'module' }));
  writeFileSync(join(app, 'app.ts'), CONSUMER);
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'] }, files: ['app.ts'] }),
  );
  // Optional peers left out on purpose (npm 7+ installs only the required ones).
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=optional', tarball, 'undici@8', '@types/node@20'], { cwd: app, maxBuffer: 64 << 20 });
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('an app that compiles against the packed types with skipLibCheck: false (issue 42)', () => {
  it.each(Object.entries(compilers))('%s: no error, on undici 8 and with no optional peer installed', async (_name, tsc) => {
    let output = '';
    try {
      await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: app, maxBuffer: 16 << 20 });
    } catch (error) {
      output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}` || String(error);
    }
    expect(output).toBe('');
  });

  it('the app has undici 8 and none of the optional peers', async () => {
    const { stdout } = await run('npm', ['ls', '--all', '--json'], { cwd: app, maxBuffer: 16 << 20 }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const tree = JSON.parse(stdout) as { dependencies: Record<string, { version: string; dependencies?: Record<string, { version: string }> }> };
    expect(tree.dependencies.undici!.version).toMatch(/^8\./);
    expect(tree.dependencies.flowblocks!.dependencies?.undici?.version).toMatch(/^7\./);
    for (const peer of ['n8n-workflow', 'ai', '@modelcontextprotocol/sdk', 'ioredis', 'bullmq']) expect(tree.dependencies[peer]).toBeUndefined();
  });
});
