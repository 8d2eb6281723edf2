import { openReadOnlySession, type ChdbSession as Session } from './chdb.js';

/** Output settings the Query API takes as request parameters (0 or 1). */
export const OUTPUT_SETTINGS = [
  'output_format_json_quote_64bit_integers',
  'output_format_json_quote_denormals',
  'output_format_parquet_string_as_string',
] as const;

export type OutputSettings = Partial<Record<(typeof OUTPUT_SETTINGS)[number], '0' | '1'>>;

/**
 * Read-only connections for queries from outside, one per combination of output settings
 * (at most 8), opened when first needed: a `readonly = 1` connection cannot change a setting,
 * not even for one query, so each combination is set before readonly is.
 */
export class ReadOnlySessions {
  private readonly sessions = new Map<string, Promise<Session>>();

  constructor(private readonly dataDir: string) {}

  get(settings: OutputSettings = {}): Promise<Session> {
    const chosen = Object.fromEntries(OUTPUT_SETTINGS.flatMap((name) => (settings[name] ? [[name, settings[name]]] : [])));
    const key = JSON.stringify(chosen);
    let session = this.sessions.get(key);
    if (!session) {
      session = openReadOnlySession(this.dataDir, chosen);
      // A failed open is not cached, so the next request tries again.
      session.catch(() => this.sessions.delete(key));
      this.sessions.set(key, session);
    }
    return session;
  }

  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    for (const result of await Promise.allSettled(open)) if (result.status === 'fulfilled') result.value.close();
  }
}
