import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/notifications/lock.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function dir() {
  const d = mkdtempSync(join(tmpdir(), 'flowblocks-lock-'));
  dirs.push(d);
  return d;
}

describe('data directory lock', () => {
  it('refuses a directory another live process holds', () => {
    const d = dir();
    writeFileSync(join(d, 'monitor.lock'), String(process.ppid));
    expect(() => lockDataDir(d)).toThrow(`another monitor (pid ${process.ppid}) is using ${d}`);
  });

  it('takes over a lock whose process is gone, and releases it', () => {
    const d = dir();
    writeFileSync(join(d, 'monitor.lock'), '2147483646');
    const release = lockDataDir(d);
    expect(existsSync(join(d, 'monitor.lock'))).toBe(true);
    release();
    expect(existsSync(join(d, 'monitor.lock'))).toBe(false);
  });
});
