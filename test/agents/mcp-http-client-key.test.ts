/**
 * The key naming a client of the HTTP MCP server: SHA-256 of its credentials, never the
 * credentials, the same for the same credentials and different for another tenant's.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientKeys } from '../../src/hosts/agents/mcp-http/client-key.js';
import { credentialHeaders } from '../../src/hosts/agents/mcp-http/credential-headers.js';

const known = credentialHeaders(['tinybird']);
const tenant = (token: string) => ({ authorization: 'Bearer server-token', 'x-tinybird-token': token });

describe('clientKeys', () => {
  it('is the SHA-256 of the bearer token and each credential header, and holds neither', () => {
    const key = clientKeys(known)(tenant('p.tenant-a'));
    const expected = createHash('sha256').update(`Bearer server-token${known.map((entry) => `\n${entry.key === 'x-tinybird-token' ? 'p.tenant-a' : ''}`).join('')}`).digest('base64url');
    expect(key).toBe(expected);
    expect(key).not.toContain('tenant-a');
  });

  it('names the same client alike on every request, and two tenants apart', () => {
    const keyOf = clientKeys(known);
    const a = keyOf(tenant('p.a'));
    expect(keyOf(tenant('p.a'))).toBe(a);
    expect(keyOf(tenant('p.b'))).not.toBe(a);
    // A header moved from one credential to another is another client.
    expect(keyOf({ authorization: 'Bearer server-tokenp.a' })).not.toBe(a);
  });
});
