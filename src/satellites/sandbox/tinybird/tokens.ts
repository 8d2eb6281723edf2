/** A Tinybird token of the sandbox workspace and the scopes it carries. */
export interface TokenDef {
  name: string;
  token: string;
  /** Scopes in either spelling: `DATASOURCES:APPEND:events`, `DATASOURCE:APPEND`, `PIPES:READ:top`, `ADMIN`. */
  scopes: string[];
}

/** The docs spell scopes singular, the token API plural: both are accepted. */
function normalize(scope: string): string[] {
  return scope
    .toUpperCase()
    .replace(/^DATASOURCE:/, 'DATASOURCES:')
    .replace(/^PIPE:/, 'PIPES:')
    .split(':');
}

/**
 * True when the token may do `scope` (e.g. `DATASOURCES:APPEND`) on `resource`: ADMIN
 * may do anything; a scope without a resource suffix covers every resource.
 */
export function allows(token: TokenDef, scope: string, resource?: string): boolean {
  const [family, action] = normalize(scope);
  return token.scopes.some((held) => {
    if (held.toUpperCase() === 'ADMIN') return true;
    const [heldFamily, heldAction] = normalize(held);
    const heldResource = held.split(':')[2];
    if (heldFamily !== family || heldAction !== action) return false;
    return heldResource === undefined || heldResource === '*' || resource === undefined || heldResource === resource;
  });
}

/** The token a request presents: `?token=` first, as the service checks it, then the Bearer header. */
export function presentedToken(query: URLSearchParams, authorization: string | undefined): string | undefined {
  const fromQuery = query.get('token');
  if (fromQuery) return fromQuery;
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  return match?.[1]?.trim();
}
