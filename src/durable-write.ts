import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';

/**
 * Writes `text` to `path` (mode 0600 if created) and flushes it to disk before returning:
 * `w` for a temp file about to be renamed into place, `a` to append, `wx` to create only.
 */
export function writeFlushed(path: string, flags: 'w' | 'a' | 'wx', text: string): void {
  const fd = openSync(path, flags, 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
