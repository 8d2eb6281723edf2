import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Somewhere to keep a JSON document across restarts. `save` is synchronous on purpose: a
 * caller that changes state and saves with no await in between cannot interleave with another.
 */
export interface StateStore<T> {
  load(): T | undefined;
  save(value: T): void;
}

/** Keeps the document in memory only (the sandbox host, tests). */
export function memoryStore<T>(): StateStore<T> & { current: T | undefined } {
  const store = {
    current: undefined as T | undefined,
    load: () => (store.current === undefined ? undefined : (structuredClone(store.current) as T)),
    save: (value: T) => {
      store.current = structuredClone(value);
    },
  };
  return store;
}

/**
 * A JSON file written atomically: the new text goes to a temp file that is flushed and then
 * renamed over the old one, so a crash leaves either the old document or the new, never half.
 */
export function jsonFileStore<T>(path: string): StateStore<T> {
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
      const fd = openSync(temp, 'w', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(value)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, path);
    },
  };
}

/** The state file of a data directory. */
export function stateFilePath(dataDir: string): string {
  return join(dataDir, 'state.json');
}
