/** Request headers as Node (`req.headers`) or fetch (`request.headers`) hand them over. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | undefined>;

function isFetchHeaders(headers: HeaderSource): headers is { get(name: string): string | null } {
  return typeof (headers as { get?: unknown }).get === 'function';
}

/** One header's value, case-insensitively; repeated headers are joined with commas. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(',');
  }
  return undefined;
}
