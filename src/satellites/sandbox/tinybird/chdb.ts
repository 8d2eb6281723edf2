/**
 * The part of chdb's Session the sandbox uses. Declared here, not imported from chdb, so
 * the package's types do not depend on an optional peer that may not be installed.
 */
export interface ChdbSession {
  /** The data directory; other sessions opened at it share its tables. */
  readonly path: string;
  queryAsync(query: string, options?: { format?: string }): Promise<{ text(): string; bytes(): Uint8Array; elapsed: number }>;
  /** `{name:Type}` placeholders bound by the engine: the values never become SQL text. */
  queryBindAsync(query: string, params: Record<string, string>, options?: { format?: string }): Promise<{ text(): string }>;
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

type SessionClass = new (path?: string) => ChdbSession;

/**
 * Loads chdb only when a sandbox starts: it is an optional peer (about 550 MB), so
 * nothing imports it when the package is imported.
 */
async function loadChdb(): Promise<SessionClass> {
  // A variable specifier keeps bundlers and the type checker from resolving the optional peer.
  const specifier = 'chdb';
  try {
    return ((await import(specifier)) as { Session: SessionClass }).Session;
  } catch {
    throw new Error(
      'The flowblocks sandbox emulates Tinybird on chdb (embedded ClickHouse), which is not installed. Run `npm install chdb` and start it again.',
    );
  }
}

export async function openSession(dataDir: string | undefined): Promise<ChdbSession> {
  const Session = await loadChdb();
  // chdb allows one data directory per process: a second sandbox must wait for the first to close.
  return dataDir ? new Session(dataDir) : new Session();
}

/**
 * A second connection to the same data directory for queries from outside: `settings` are
 * set first, then `readonly = 1`, after which the engine refuses writes, settings changes
 * and the table functions that need temporary tables (file, url, remote, executable, …).
 */
export async function openReadOnlySession(dataDir: string, settings: Readonly<Record<string, '0' | '1'>>): Promise<ChdbSession> {
  const Session = await loadChdb();
  const session = new Session(dataDir);
  try {
    for (const [name, value] of Object.entries(settings)) await session.queryAsync(`SET ${name} = ${value}`);
    await session.queryAsync('SET readonly = 1');
  } catch (error) {
    session.close();
    throw error;
  }
  return session;
}
