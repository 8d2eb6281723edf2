/**
 * The part of chdb's Session the sandbox uses. Declared here, not imported from chdb, so
 * the package's types do not depend on an optional peer that may not be installed.
 */
export interface ChdbSession {
  queryAsync(query: string, options?: { format?: string }): Promise<{ text(): string; bytes(): Uint8Array; elapsed: number }>;
  insert(params: { table: string; values: string; format: 'JSONEachRow' }): Promise<unknown>;
  close(): void;
}

/** chdb's error: `clickhouseCode` is ClickHouse's numeric error code. */
export interface ChdbError extends Error {
  clickhouseCode?: number;
}

/** The ClickHouse message without chdb's prefix and the trailing `(CODE_NAME)`. */
export function clickhouseMessage(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  return message.replace(/^Query failed: /, '').replace(/^Code: \d+\. /, '').trim();
}

/** ClickHouse's error code, from the error object or its message. */
export function clickhouseCode(error: unknown): number | undefined {
  const code = (error as ChdbError).clickhouseCode;
  if (typeof code === 'number') return code;
  const match = /Code: (\d+)\./.exec((error as Error).message ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * Loads chdb only when a sandbox starts: it is an optional peer (about 550 MB), so
 * nothing imports it when the package is imported.
 */
export async function openSession(dataDir: string | undefined): Promise<ChdbSession> {
  // A variable specifier keeps bundlers and the type checker from resolving the optional peer.
  const specifier = 'chdb';
  let chdb: { Session: new (path?: string) => ChdbSession };
  try {
    chdb = (await import(specifier)) as typeof chdb;
  } catch {
    throw new Error(
      'The flowblocks sandbox emulates Tinybird on chdb (embedded ClickHouse), which is not installed. Run `npm install chdb` and start it again.',
    );
  }
  // chdb allows one data directory per process: a second sandbox must wait for the first to close.
  return dataDir ? new chdb.Session(dataDir) : new chdb.Session();
}
