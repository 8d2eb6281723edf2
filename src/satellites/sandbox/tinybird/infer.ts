import type { ColumnSchema, DatasourceSchema } from './schema.js';

const DATETIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The ClickHouse type Tinybird would pick for one JSON value. */
function typeOfValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return 'Bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'Int64' : 'Float64';
  if (typeof value === 'string') {
    if (DATETIME.test(value)) return /\.\d+/.test(value) ? 'DateTime64(3)' : 'DateTime';
    if (DATE.test(value)) return 'Date';
    return 'String';
  }
  if (Array.isArray(value)) {
    const inner = value.map(typeOfValue).find((t) => t !== undefined);
    return inner && !inner.startsWith('Array') ? `Array(${inner})` : 'Array(String)';
  }
  return 'String';
}

/** Two observed types of one column: the wider one, or String when they disagree. */
function widen(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b || a === b) return a;
  const pair = new Set([a, b]);
  if (pair.has('Int64') && pair.has('Float64')) return 'Float64';
  if (pair.has('DateTime') && pair.has('DateTime64(3)')) return 'DateTime64(3)';
  return 'String';
}

/**
 * Infers a schema from the first events sent to a Data Source that does not exist yet,
 * as Tinybird does for a token allowed to create: one column per top-level key, types
 * from the values, Nullable where a value was null or missing.
 */
export function inferSchema(name: string, events: readonly Record<string, unknown>[]): DatasourceSchema {
  const sample = events.slice(0, 1000);
  const keys: string[] = [];
  for (const event of sample) for (const key of Object.keys(event)) if (!keys.includes(key)) keys.push(key);
  const columns: ColumnSchema[] = keys
    .filter((key) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
    .map((key) => {
      let type: string | undefined;
      let nullable = false;
      for (const event of sample) {
        const value = event[key];
        if (value === null || value === undefined) nullable = true;
        else type = widen(type, typeOfValue(value));
      }
      const base = type ?? 'String';
      return { name: key, type: nullable && !base.startsWith('Array') ? `Nullable(${base})` : base, jsonpath: `$.${key}` };
    });
  const sortingKey = columns.find((c) => /^(Date|DateTime)/.test(c.type))?.name;
  return { name, columns, engine: 'MergeTree', ...(sortingKey ? { sortingKey } : {}) };
}
