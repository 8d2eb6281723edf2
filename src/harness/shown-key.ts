/**
 * How an error names a caller's keys (a model's, a web page's, a service's): a few are named,
 * each at a readable length, and the rest counted. A 200 KB key, or 10,000 of them, must not
 * make an error of megabytes: the key is quoted once, cut, wherever an error echoes it.
 */

/** Keys (or issues naming one) named one by one in an error; the rest are counted. */
export const MAX_KEYS_NAMED = 20;
/** The longest key quoted whole in an error. */
export const MAX_KEY_SHOWN = 64;

/** A key as an error quotes it: whole when short, else its start and its length (never half a surrogate pair). */
export function shownKey(key: string): string {
  if (key.length <= MAX_KEY_SHOWN) return key;
  const cut = /[\uD800-\uDBFF]/.test(key[MAX_KEY_SHOWN - 1]!) ? MAX_KEY_SHOWN - 1 : MAX_KEY_SHOWN;
  return `${key.slice(0, cut)}… (${key.length} characters)`;
}

/** A dotted issue path (`headers.X-Foo`, `data.0.name`) with each key as an error quotes it. */
export function shownPath(path: readonly PropertyKey[]): string {
  return path.map((key) => shownKey(String(key))).join('.');
}

/** At most `MAX_KEYS_NAMED` issues, and one that counts the rest. */
export function namedFew<T extends { path: string; message: string }>(issues: T[]): (T | { path: string; message: string })[] {
  if (issues.length <= MAX_KEYS_NAMED) return issues;
  return [...issues.slice(0, MAX_KEYS_NAMED), { path: '', message: `and ${issues.length - MAX_KEYS_NAMED} more issues` }];
}
