import { existsSync, linkSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/satellites/notifications/lock.js';
import { processStartTime } from '../../src/satellites/notifications/process-identity.js';

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

  it('writes the lock whole (mode 0600) with pid, host and start time, and refuses a second taker in the same process', () => {
    const d = dir();
    const release = lockDataDir(d);
    const lock = join(d, 'monitor.lock');
    expect(statSync(lock).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), started: processStartTime(process.pid) });
    expect(() => lockDataDir(d)).toThrow(`another monitor (pid ${process.pid}) is using ${d}`);
    expect(readdirSync(d)).toEqual(['monitor.lock']); // the refused taker left no temp file
    release();
    expect(readdirSync(d)).toEqual([]);
  });

  it.skipIf(processStartTime(process.pid) === undefined)('takes over a lock whose pid now belongs to a process started at another time', () => {
    const d = dir();
    // The parent is alive, but it is not the process that wrote this lock.
    writeFileSync(join(d, 'monitor.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), started: '1', nonce: 'n' }));
    const release = lockDataDir(d);
    expect(JSON.parse(readFileSync(join(d, 'monitor.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    release();
  });

  it('refuses a lock held on another host, naming it', () => {
    const d = dir();
    writeFileSync(join(d, 'monitor.lock'), JSON.stringify({ pid: 2147483646, host: 'other-host.example', nonce: 'n' }));
    expect(() => lockDataDir(d)).toThrow(`another monitor (pid 2147483646 on other-host.example) is using ${d}`);
  });

  it('says which files to remove when a takeover of the stale lock was cut short', () => {
    const d = dir();
    const lock = join(d, 'monitor.lock');
    const text = '2147483646';
    writeFileSync(lock, text);
    // A process died between moving the stale lock aside and removing it.
    linkSync(lock, `${lock}.stale-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);
    expect(() => lockDataDir(d)).toThrow(/a takeover of its stale lock did not finish; if no monitor is running, remove .*monitor\.lock and any .*monitor\.lock\.stale-\* file/);
  });
});
