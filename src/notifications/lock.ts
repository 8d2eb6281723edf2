import { randomUUID, createHash } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFlushed } from './durable-write.js';
import { currentProcess, mayBeRunning, type ProcessIdentity } from './process-identity.js';

/** The lock file's content: who holds it, and a nonce that makes every lock's text unique. */
interface LockHolder extends ProcessIdentity {
  nonce: string;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
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
function linkExclusive(from: string, to: string): boolean {
  try {
    linkSync(from, to);
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
function clearStale(path: string, staleText: string): boolean {
  const grave = `${path}.stale-${createHash('sha256').update(staleText).digest('hex').slice(0, 16)}`;
  if (!linkExclusive(path, grave)) return false;
  if (readText(grave) === staleText) rmSync(path, { force: true });
  rmSync(grave, { force: true });
  return true;
}

/** Blocks the thread briefly (the lock is taken once, at start, before anything else runs). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** How long to wait for another process's takeover of a stale lock to finish. */
const TAKEOVER_WAIT_MS = 2_000;

/**
 * Makes a data directory one process's own: two monitors on one state file would each send
 * the other's deliveries. The lock file (`monitor.lock`, mode 0600) is created whole and
 * atomically (a hard link to a written temp file, which fails if the lock exists); a lock
 * whose process is gone, or whose pid now belongs to a process started later, is taken over
 * through `clearStale`, never by read-check-delete. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'monitor.lock');
  const mine: LockHolder = { ...currentProcess(), nonce: randomUUID() };
  const myText = `${JSON.stringify(mine)}\n`;
  const temp = `${path}.${mine.nonce}.tmp`;
  writeFlushed(temp, 'wx', myText);
  try {
    for (const deadline = Date.now() + TAKEOVER_WAIT_MS; Date.now() < deadline; ) {
      if (linkExclusive(temp, path)) {
        return () => {
          if (readText(path) === myText) rmSync(path, { force: true });
        };
      }
      const text = readText(path);
      if (text === undefined) continue; // released meanwhile
      const holder = parseHolder(text);
      if (mayBeRunning(holder)) {
        const where = holder.host && holder.host !== mine.host ? ` on ${holder.host}` : '';
        throw new Error(`another monitor (pid ${holder.pid}${where}) is using ${dataDir}`);
      }
      // Another process is taking this stale lock over: give it a moment, then look again.
      if (!clearStale(path, text)) pause(5);
    }
  } finally {
    rmSync(temp, { force: true });
  }
  throw new Error(`could not lock ${dataDir}: a takeover of its stale lock did not finish; if no monitor is running, remove ${path} and any ${path}.stale-* file`);
}
