/**
 * Maps keyed by outside data: workflow, execution and log ids, param, argument and header
 * names. A plain object inherits `__proto__`, `constructor`, `toString`…, so `record[id]`
 * on one reads Object.prototype's members, and assigning to `record['__proto__']` replaces
 * the prototype. A dictionary has no prototype: every key is only a key. Unlike a `Map`, it
 * stays plain JSON, which is what persisted state needs.
 */
export type Dictionary<T> = Record<string, T>;

/** A dictionary with the own enumerable entries of `record` (parsed JSON, a structured clone). */
export function dictionaryOf<T>(record: Readonly<Record<string, T>> | undefined = undefined): Dictionary<T> {
  // Object.assign defines own keys on a target without a prototype: `__proto__` included.
  return Object.assign(Object.create(null) as Dictionary<T>, record);
}

/** `record[key]` when the record holds it itself; never an inherited member such as `constructor`. */
export function ownValue(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}
