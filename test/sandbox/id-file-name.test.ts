import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { fileIn, idFileName } from '../../src/satellites/sandbox/files.js';

it('encodes an id into one file name part that keeps plain ids and is never the same for two ids', () => {
  expect(idFileName('ws_sandbox-1')).toBe('ws_sandbox-1');
  expect(idFileName('/../../escaped')).toBe('%2F..%2F..%2Fescaped'.replaceAll('.', '%2E'));
  const ids = ['..', '.', 'a/b', 'a\\b', 'a%2Fb', '\0', 'é', '__proto__', 'A', 'a'];
  const names = ids.map(idFileName);
  expect(new Set(names).size).toBe(ids.length);
  for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_%-]+$/);
});

it('resolves a name only to a file directly inside the directory', () => {
  const dir = join(tmpdir(), 'flowblocks-ids');
  expect(dirname(fileIn(dir, 'notifications-ws.json'))).toBe(resolve(dir));
  for (const name of ['../x.json', 'a/b.json', '/etc/passwd', '..', '.', '']) expect(() => fileIn(dir, name), name).toThrow(/not a file name inside/);
});
