/** Keys are scrubbed of secrets this long or longer: the harness's own floor (`Redactor`); a shorter one would wreck the result's own keys (`ok`, `error`). */
const MIN_KEY_SECRET = 4;

/** A copy of `value` with every occurrence of a secret replaced, in keys too: a last guard before anything reaches a model. */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  if (!secrets.length) return value;
  // Longest first: a secret that holds a shorter one is masked whole, not around the shorter one.
  const ordered = secrets.filter((secret) => secret !== '').sort((a, b) => b.length - a.length);
  const inKeys = ordered.filter((secret) => secret.length >= MIN_KEY_SECRET);
  const scrub = (text: string, list: readonly string[]) => list.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return scrub(node, ordered);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, child]) => [scrub(key, inKeys), walk(child)]));
    return node;
  };
  return walk(value) as T;
}
