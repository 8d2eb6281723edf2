/**
 * Case counts per family for docs/reliability.md. Each test file records its own family;
 * the counts are written only when RELIABILITY_REPORT=1, so an ordinary run changes no file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const COUNTS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'counts');

export interface FamilyCounts {
  family: string;
  /** What one case is, for the report. */
  unit: string;
  tried: number;
  failed: number;
  /** Short facts worth quoting (e.g. rows counted), no timings. */
  notes: string[];
}

/**
 * The hostile-input family is recorded by several files, one per kind of attack; each saves
 * `hostile-input-<part>.json` and the report adds them up into one row.
 */
export const HOSTILE_INPUT = { family: 'Hostile input', unit: 'attack (request, header, id, file or kill)', prefix: 'hostile-input-' };

/** A tally for one part of the hostile-input family; `save()` writes `hostile-input-<part>.json`. */
export function hostileTally(part: string) {
  const t = tally(HOSTILE_INPUT.family, HOSTILE_INPUT.unit);
  return { ...t, save: () => t.save(`${HOSTILE_INPUT.prefix}${part}`) };
}

export function tally(family: string, unit: string) {
  const counts: FamilyCounts = { family, unit, tried: 0, failed: 0, notes: [] };
  return {
    counts,
    /** Counts one case; returns `ok` so the caller can still assert on it. */
    record(ok: boolean): boolean {
      counts.tried++;
      if (!ok) counts.failed++;
      return ok;
    },
    /** Counts `tried` cases at once, `failed` of them failing (a property run as a whole). */
    recordMany(tried: number, failed: number) {
      counts.tried += tried;
      counts.failed += failed;
    },
    note(text: string) {
      counts.notes.push(text);
    },
    save(file: string) {
      if (process.env.RELIABILITY_REPORT !== '1') return;
      mkdirSync(COUNTS_DIR, { recursive: true });
      writeFileSync(join(COUNTS_DIR, `${file}.json`), JSON.stringify(counts, null, 2) + '\n');
    },
  };
}
