import { randomUUID, createHash } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFlushed } from '../../durable-write.js';
import { currentProcess, mayBeRunning, type ProcessIdentity } from './process-identity.js';

/** The lock file's content: who holds it, and a nonce that makes every lock's text unique. */
interface LockHolder extends ProcessIdentity {
  nonce: string;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * The lock's file operations and clock, one call each. Production runs `systemLockOps`; a test
 * passes its own to run another process's step (or a crash) between two of them, the races a
 * child process would reach only by chance.
 */
export interface LockOps {
  /** A hard link: atomic, refused (EEXIST) when `to` exists. */
  link(from: string, to: string): void;
  read(path: string): string;
  remove(path: string, options: { force: boolean }): void;
  now(): number;
  /** Blocks the thread (the lock is taken once, at start, before anything else runs). */
  pause(ms: number): void;
}

export const systemLockOps: LockOps = {
  link: linkSync,
  read: (path) => readFileSync(path, 'utf8'),
  remove: rmSync,
  now: Date.now,
  pause: (ms) => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms),
};

function readText(ops: LockOps, path: string): string | undefined {
  try {
    return ops.read(path);
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Earlier versions wrote only the pid. */
function parseHolder(text: string): Partial<LockHolder> {
  if (/^\d+$/.test(text.trim())) return { pid: Number(text) };
  try {
    return JSON.parse(text) as Partial<LockHolder>;
  } catch {
    return {};
  }
}

/** Links `from` to the new name `to`: atomic, and refused (EEXIST) when `to` exists. */
function linkExclusive(ops: LockOps, from: string, to: string): boolean {
  try {
    ops.link(from, to);
    return true;
  } catch (error) {
    if (code(error) === 'EEXIST' || code(error) === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Moves a stale lock out of the way, if this caller is the one to do it. The lock is linked
 * to a name derived from its text, which only one racer can create; that racer then checks
 * that what it linked is the stale lock it judged (a newer lock has another nonce) and only
 * then removes it. Racers that lose go round again and find the winner's live lock.
 */
function clearStale(ops: LockOps, path: string, staleText: string): boolean {
  const grave = `${path}.stale-${createHash('sha256').update(staleText).digest('hex').slice(0, 16)}`;
  if (!linkExclusive(ops, path, grave)) return false;
  if (readText(ops, grave) === staleText) ops.remove(path, { force: true });
  ops.remove(grave, { force: true });
  return true;
}

/** How long to wait for another process's takeover of a stale lock to finish. */
const TAKEOVER_WAIT_MS = 2_000;

/**
 * Makes a data directory one process's own: two monitors on one state file would each send
 * the other's deliveries. The lock file (`monitor.lock`, mode 0600) is created whole and
 * atomically (a hard link to a written temp file, which fails if the lock exists); a lock
 * whose process is gone, or whose pid now belongs to a process started later, is taken over
 * through `clearStale`, never by read-check-delete. Returns the release function. `ops` is a
 * test's seam (see `LockOps`).
 */
export function lockDataDir(dataDir: string, ops: LockOps = systemLockOps): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'monitor.lock');
  const mine: LockHolder = { ...currentProcess(), nonce: randomUUID() };
  const myText = `${JSON.stringify(mine)}\n`;
  const temp = `${path}.${mine.nonce}.tmp`;
  writeFlushed(temp, 'wx', myText);
  try {
    for (const deadline = ops.now() + TAKEOVER_WAIT_MS; ops.now() < deadline; ) {
      if (linkExclusive(ops, temp, path)) {
        return () => {
          if (readText(ops, path) === myText) ops.remove(path, { force: true });
        };
      }
      const text = readText(ops, path);
      if (text === undefined) continue; // released meanwhile
      const holder = parseHolder(text);
      if (mayBeRunning(holder)) {
        const where = holder.host && holder.host !== mine.host ? ` on ${holder.host}` : '';
        throw new Error(`another monitor (pid ${holder.pid}${where}) is using ${dataDir}`);
      }
      // Another process is taking this stale lock over: give it a moment, then look again.
      if (!clearStale(ops, path, text)) ops.pause(5);
    }
  } finally {
    ops.remove(temp, { force: true });
  }
  throw new Error(`could not lock ${dataDir}: a takeover of its stale lock did not finish; if no monitor is running, remove ${path} and any ${path}.stale-* file`);
}
