import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect, it } from 'vitest';
import { createMcpServer } from '../../src/hosts/agents/index.js';
import { cli } from './run-cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

it('flowblocks --version (and -v) prints the package version', async () => {
  expect(version).not.toBe('0.0.0');
  expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  expect(await cli(['-v'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  expect((await cli(['--help'])).stdout).toContain('flowblocks --version');
});

it('the MCP server announces the package version', async () => {
  const server = await createMcpServer({ services: ['tinybird'] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'version-test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    expect(client.getServerVersion()).toEqual({ name: 'flowblocks', version });
  } finally {
    await client.close();
  }
});
