/**
 * Checks one JSON value against a ClickHouse column type the way the Events API does
 * before it writes: a value that does not fit sends its row to quarantine. Returns the
 * value to insert (normalized for JSONEachRow) or the reason it does not fit.
 */
export type Coerced = { ok: true; value: unknown } | { ok: false; error: string };

const INT_RANGES: Record<string, [bigint, bigint]> = {
  Int8: [-128n, 127n],
  Int16: [-32768n, 32767n],
  Int32: [-2147483648n, 2147483647n],
  Int64: [-(2n ** 63n), 2n ** 63n - 1n],
  UInt8: [0n, 255n],
  UInt16: [0n, 65535n],
  UInt32: [0n, 4294967295n],
  UInt64: [0n, 2n ** 64n - 1n],
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const fail = (error: string): Coerced => ({ ok: false, error });
const ok = (value: unknown): Coerced => ({ ok: true, value });

/** The inside of `Name(...)`, when the type is that wrapper. */
function unwrap(type: string, name: string): string | undefined {
  return type.startsWith(`${name}(`) && type.endsWith(')') ? type.slice(name.length + 1, -1).trim() : undefined;
}

function describe(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 60) ?? String(value);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `YYYY-MM-DD HH:MM:SS[.fff]` in UTC, as ClickHouse prints a DateTime. */
function formatDateTime(date: Date, precision: number): string {
  const base = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return precision > 0 ? `${base}.${pad(date.getUTCMilliseconds(), 3).padEnd(precision, '0').slice(0, precision)}` : base;
}

function coerceDateTime(value: unknown, precision: number, type: string): Coerced {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // Unix seconds, as ClickHouse reads a number into a DateTime.
    return ok(formatDateTime(new Date(value * 1000), precision));
  }
  if (typeof value !== 'string') return fail(`${describe(value)} is not a ${type}`);
  const match = DATETIME.exec(value.trim());
  if (!match) {
    if (DATE.test(value.trim())) return ok(`${value.trim()} 00:00:00`);
    return fail(`'${value.slice(0, 40)}' is not a ${type}`);
  }
  const date = new Date(`${match[1]}T${match[2]}${match[3] ?? ''}${match[4] ?? 'Z'}`);
  if (Number.isNaN(date.getTime())) return fail(`'${value}' is not a ${type}`);
  return ok(formatDateTime(date, precision));
}

function coerceInt(value: unknown, type: string): Coerced {
  const [min, max] = INT_RANGES[type]!;
  let n: bigint;
  if (typeof value === 'number' && Number.isInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) n = BigInt(value.trim());
  else if (typeof value === 'boolean') n = value ? 1n : 0n;
  else return fail(`${describe(value)} is not an ${type}`);
  if (n < min || n > max) return fail(`${n} is out of range for ${type}`);
  // 64-bit values beyond 2^53 stay strings so JSONEachRow keeps every digit.
  return ok(n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString());
}

export function coerce(value: unknown, type: string): Coerced {
  const t = type.trim();
  const nullable = unwrap(t, 'Nullable');
  if (nullable !== undefined) return value === null || value === undefined ? ok(null) : coerce(value, nullable);
  const low = unwrap(t, 'LowCardinality');
  if (low !== undefined) return coerce(value, low);
  if (value === null || value === undefined) return fail(`missing value for non-nullable ${t}`);
  const array = unwrap(t, 'Array');
  if (array !== undefined) {
    if (!Array.isArray(value)) return fail(`${describe(value)} is not an ${t}`);
    const out: unknown[] = [];
    for (const item of value) {
      const c = coerce(item, array);
      if (!c.ok) return c;
      out.push(c.value);
    }
    return ok(out);
  }
  if (t in INT_RANGES) return coerceInt(value, t);
  if (t === 'Float32' || t === 'Float64') {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof n === 'number' && !Number.isNaN(n) ? ok(n) : fail(`${describe(value)} is not a ${t}`);
  }
  if (t === 'String' || t.startsWith('FixedString(')) {
    if (typeof value === 'string') return ok(value);
    if (typeof value === 'number' || typeof value === 'boolean') return ok(String(value));
    return ok(JSON.stringify(value));
  }
  if (t === 'Bool' || t === 'Boolean') {
    if (typeof value === 'boolean') return ok(value);
    if (value === 0 || value === 1) return ok(value === 1);
    if (value === 'true' || value === 'false') return ok(value === 'true');
    return fail(`${describe(value)} is not a Bool`);
  }
  if (t === 'Date' || t === 'Date32') {
    if (typeof value === 'string' && DATE.test(value.trim())) return ok(value.trim());
    const dt = coerceDateTime(value, 0, t);
    return dt.ok ? ok(String(dt.value).slice(0, 10)) : dt;
  }
  if (t === 'DateTime' || t.startsWith('DateTime(')) return coerceDateTime(value, 0, t);
  const dt64 = /^DateTime64\((\d+)/.exec(t);
  if (dt64) return coerceDateTime(value, Number(dt64[1]), t);
  if (t === 'UUID') return typeof value === 'string' && UUID.test(value) ? ok(value) : fail(`${describe(value)} is not a UUID`);
  // Maps, tuples, decimals and the rest go through as they are: ClickHouse checks them on insert.
  return ok(value);
}
