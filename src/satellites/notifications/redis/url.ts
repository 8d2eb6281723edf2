/** A Redis URL as it may be logged: scheme, host, port and database, never the user or password. */
export function describeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
  } catch {
    return 'redis (unparsable URL)';
  }
}

/** Only redis: and rediss: (TLS) URLs name a Redis store. */
export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value);
}
