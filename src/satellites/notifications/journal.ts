import { readFileSync, rmSync } from 'node:fs';
import { writeFlushed } from '../../durable-write.js';

/**
 * An append-only file of JSON lines, one per event, each flushed to disk before `append`
 * returns: the caller acts on an event only once it is recorded. A kill mid-write leaves a
 * last line without its newline; `readJournal` ignores it (the act it announced never started).
 */
export function appendJournalLine(path: string, event: unknown): void {
  writeFlushed(path, 'a', `${JSON.stringify(event)}\n`);
}

/** The complete lines' events, in order, and whether a torn last line was left out. */
export function readJournal(path: string): { events: unknown[]; torn: boolean } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], torn: false };
    throw error;
  }
  const lines = text.split('\n');
  // Only newline-terminated lines were written whole; the rest is a write cut short.
  const tail = lines.pop() as string;
  const events = lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new Error(`${path}: line ${i + 1} is not a journal entry (the file was changed by something other than the monitor)`);
    }
  });
  return { events, torn: tail !== '' };
}

/** Drops the journal once its events are in the document it amends. */
export function clearJournal(path: string): void {
  rmSync(path, { force: true });
}
