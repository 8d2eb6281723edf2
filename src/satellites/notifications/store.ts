import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFlushed } from '../../durable-write.js';
import { appendJournalLine, clearJournal, readJournal } from './journal.js';

/**
 * Somewhere to keep a JSON document across restarts. `save` is synchronous on purpose: a
 * caller that changes state and saves with no await in between cannot interleave with another.
 *
 * A store may also keep a journal of small events that amend the document between
 * saves, so that one change is recorded without rewriting everything; `save` empties it.
 */
export interface StateStore<T> {
  load(): T | undefined;
  save(value: T): void;
  /** Records one event durably before it returns. */
  append?(event: unknown): void;
  /** The events recorded since the last save; `torn` when a kill cut the last one short. */
  journal?(): { events: unknown[]; torn: boolean };
  /**
   * For a store whose writes finish later (Redis): resolves once every save so far is
   * durable, rejects when it can no longer be. Stores that write in `save` have none.
   */
  flush?(): Promise<void>;
}

/** Keeps the document (and its journal) in memory only (the sandbox host, tests). */
export function memoryStore<T>(): StateStore<T> & { current: T | undefined; events: unknown[] } {
  const store = {
    current: undefined as T | undefined,
    events: [] as unknown[],
    load: () => (store.current === undefined ? undefined : (structuredClone(store.current) as T)),
    save: (value: T) => {
      store.current = structuredClone(value);
      store.events = [];
    },
    append: (event: unknown) => {
      store.events.push(structuredClone(event));
    },
    journal: () => ({ events: structuredClone(store.events), torn: false }),
  };
  return store;
}

/** `state.json` → `state.journal`, beside it. */
export function journalPathFor(path: string): string {
  return `${path.replace(/\.json$/, '')}.journal`;
}

/**
 * A JSON file written atomically: the new text goes to a temp file that is flushed and then
 * renamed over the old one, so a crash leaves either the old document or the new, never half.
 * Its journal (`journalPathFor(path)`, mode 0600) is removed after each save; a crash between
 * the rename and that leaves events the new document already holds, which replay unchanged.
 */
export function jsonFileStore<T>(path: string): StateStore<T> {
  const journalPath = journalPathFor(path);
  return {
    load() {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      return JSON.parse(text) as T;
    },
    save(value) {
      mkdirSync(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.tmp`;
      writeFlushed(temp, 'w', `${JSON.stringify(value)}\n`);
      renameSync(temp, path);
      clearJournal(journalPath);
    },
    append(event) {
      mkdirSync(dirname(path), { recursive: true });
      appendJournalLine(journalPath, event);
    },
    journal: () => readJournal(journalPath),
  };
}

/** The state file of a data directory. */
export function stateFilePath(dataDir: string): string {
  return join(dataDir, 'state.json');
}
