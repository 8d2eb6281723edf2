/** A copy of `value` with every occurrence of a secret replaced: a last guard before anything reaches a model. */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  if (!secrets.length) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), node);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
    return node;
  };
  return walk(value) as T;
}
