import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendJournalLine, clearJournal, readJournal } from '../../src/satellites/notifications/journal.js';
import { statePath } from './restart-helpers.js';

/** A journal path in a fresh directory (removed after the test). */
const journalPath = () => join(dirname(statePath()), 'state.json.journal');

describe('journal file', () => {
  it('appends one whole JSON line per event and reads them back in order, none torn', () => {
    const path = journalPath();
    const first = { event: 'attempt-started', id: 'd1', attempts: 1 };
    const second = { event: 'attempt-ended', id: 'd1', state: 'delivered', note: 'line\nbreak' };
    appendJournalLine(path, first);
    appendJournalLine(path, second);
    // Each event is exactly one newline-terminated line on disk.
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    expect(readJournal(path)).toEqual({ events: [first, second], torn: false });
  });

  it('reads a missing journal, and an empty one, as no events', () => {
    const path = journalPath();
    expect(readJournal(path)).toEqual({ events: [], torn: false });
    writeFileSync(path, '');
    expect(readJournal(path)).toEqual({ events: [], torn: false });
  });

  it('leaves out a last line without its newline and says it was torn', () => {
    const path = journalPath();
    appendJournalLine(path, { n: 1 });
    appendFileSync(path, '{"n":2}');
    // Even a torn line that happens to be valid JSON: its write did not finish.
    expect(readJournal(path)).toEqual({ events: [{ n: 1 }], torn: true });
  });

  it('names the path and the line (counted from 1) of a whole line that is not JSON', () => {
    const path = journalPath();
    writeFileSync(path, '{"n":1}\n{"n":2}\nnot json\n');
    expect(() => readJournal(path)).toThrow(
      new Error(`${path}: line 3 is not a journal entry (the file was changed by something other than the monitor)`),
    );
  });

  it('passes on a read error other than a missing file', () => {
    const path = journalPath();
    mkdirSync(path);
    expect(() => readJournal(path)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });

  it('clears the journal, and clearing one that is not there is no error', () => {
    const path = journalPath();
    appendJournalLine(path, { n: 1 });
    clearJournal(path);
    expect(existsSync(path)).toBe(false);
    expect(() => clearJournal(path)).not.toThrow();
    expect(readJournal(path)).toEqual({ events: [], torn: false });
  });
});
