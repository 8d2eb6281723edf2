/**
 * The key naming a client of the HTTP MCP server: SHA-256 of its credentials, never the
 * credentials, the same for the same credentials, and hashed once per client while it is among
 * the last `kept` clients (the hash was part of the server's own CPU per call).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { clientKeys } from '../../src/hosts/agents/mcp-http/client-key.js';
import { credentialHeaders } from '../../src/hosts/agents/mcp-http/credential-headers.js';

const hashes = vi.hoisted(() => ({ made: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  return {
    ...crypto,
    createHash: (...args: Parameters<typeof crypto.createHash>) => {
      hashes.made += 1;
      return crypto.createHash(...args);
    },
  };
});

const known = credentialHeaders(['tinybird']);
const tenant = (token: string) => ({ authorization: 'Bearer server-token', 'x-tinybird-token': token });

describe('clientKeys', () => {
  it('is the SHA-256 of the bearer token and each credential header, and holds neither', () => {
    const key = clientKeys(known)(tenant('p.tenant-a'));
    const expected = createHash('sha256').update(`Bearer server-token${known.map((entry) => `\n${entry.key === 'x-tinybird-token' ? 'p.tenant-a' : ''}`).join('')}`).digest('base64url');
    expect(key).toBe(expected);
    expect(key).not.toContain('tenant-a');
  });

  it('hashes a client once while it is among the last clients, and again once it has left the table', () => {
    const keyOf = clientKeys(known, 2);
    hashes.made = 0;
    const a = keyOf(tenant('p.a'));
    expect(keyOf(tenant('p.a'))).toBe(a);
    const b = keyOf(tenant('p.b'));
    expect(b).not.toBe(a);
    expect(keyOf(tenant('p.b'))).toBe(b);
    expect(hashes.made).toBe(2);
    // A third client pushes the oldest (a) out: a is hashed again, to the same key.
    keyOf(tenant('p.c'));
    expect(keyOf(tenant('p.a'))).toBe(a);
    expect(hashes.made).toBe(4);
  });
});
