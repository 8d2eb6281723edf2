import type { AgentToolError, AgentToolResult } from './executor.js';

/**
 * The most a model gets from one call, in UTF-8 bytes of the result's JSON (over MCP: the text
 * and the structured content together). A row of 40 MB or a service's error of 30 M characters
 * is cut to it, with a note that says so; `maxResultBytes` in the agent options changes it.
 */
export const DEFAULT_MAX_RESULT_BYTES = 100_000;

/** What the cut leaves room for besides the output: its note, the truncation and the result's own keys. */
const RESERVE_BYTES = 1_024;
/** Marks a string that was cut. */
const ELLIPSIS = '…';

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

interface Fitted {
  value: unknown;
  bytes: number;
  cut: boolean;
}

const DROPPED: Fitted = { value: undefined, bytes: 0, cut: true };

/** A string's JSON at most `budget` bytes: its start, and `…` when cut (never half a surrogate pair). */
function fitString(text: string, budget: number): Fitted {
  // A character is at least one byte of JSON: a longer string cannot fit, and is sliced before it is measured.
  let kept = text.length > budget ? text.slice(0, budget) : text;
  let bytes = jsonBytes(kept);
  if (kept === text && bytes <= budget) return { value: text, bytes, cut: false };
  const room = budget - Buffer.byteLength(ELLIPSIS);
  while (kept.length > 0 && bytes > room) {
    kept = kept.slice(0, Math.max(0, Math.min(kept.length - 1, Math.floor((kept.length * room) / bytes))));
    if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
    bytes = jsonBytes(kept);
  }
  if (bytes > room) return DROPPED;
  const value = kept + ELLIPSIS;
  return { value, bytes: jsonBytes(value), cut: true };
}

/**
 * `value` with its JSON at most `budget` bytes: strings cut, then array items and object keys
 * left out from the first that does not fit. Only as much of it is measured as is kept, so
 * an 80 MB value costs no more than the bytes that fit.
 */
export function fitJson(value: unknown, budget: number): Fitted {
  if (typeof value === 'string') return fitString(value, budget);
  if (value === null || typeof value !== 'object') {
    const bytes = jsonBytes(value);
    return bytes <= budget ? { value, bytes, cut: false } : DROPPED;
  }
  if (budget < 2) return DROPPED;
  let bytes = 2;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const comma = out.length ? 1 : 0;
      const fitted = fitJson(item === undefined ? null : item, budget - bytes - comma);
      if (fitted.value !== undefined) {
        out.push(fitted.value);
        bytes += comma + fitted.bytes;
      }
      if (fitted.cut) return { value: out, bytes, cut: true };
    }
    return { value: out, bytes, cut: false };
  }
  // The small fields first (a cursor, a count, a status), so a cut of the rows keeps them; the output keeps the key order.
  const entries = Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function');
  const small: [string, unknown][] = [];
  const large: [string, unknown][] = [];
  for (const entry of entries) (isSmall(entry[1]) ? small : large).push(entry);
  const kept = new Map<string, unknown>();
  let cut = false;
  for (const [key, item] of [...small, ...large]) {
    const head = (kept.size ? 1 : 0) + jsonBytes(key) + 1;
    if (bytes + head > budget) {
      cut = true;
      break;
    }
    const fitted = fitJson(item, budget - bytes - head);
    if (fitted.value !== undefined) {
      kept.set(key, fitted.value);
      bytes += head + fitted.bytes;
    }
    if (fitted.cut) {
      cut = true;
      break;
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key] of entries) {
    // Defined as an own key: a `__proto__` key stays a key.
    if (kept.has(key)) Object.defineProperty(out, key, { value: kept.get(key), writable: true, enumerable: true, configurable: true });
  }
  return { value: out, bytes, cut };
}

/**
 * A value never worth cutting (a number, a cursor, `{ nextCursor }`): its JSON fits in a few
 * hundred bytes. Measured as far as that and no further, and without `fitJson` (whose own
 * calls of it would make the walk exponential in the depth).
 */
function isSmall(value: unknown): boolean {
  let left = SMALL_BYTES;
  const walk = (node: unknown): boolean => {
    if (node === null || typeof node !== 'object') {
      if (typeof node === 'string' && node.length > left) return false;
      left -= jsonBytes(node);
      return left >= 0;
    }
    left -= 2;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if ((left -= 1) < 0 || !walk(node[i])) return false;
      return left >= 0;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (key.length > left) return false;
      left -= jsonBytes(key) + 2;
      if (left < 0 || !walk((node as Record<string, unknown>)[key])) return false;
    }
    return left >= 0;
  };
  return walk(value);
}
const SMALL_BYTES = 256;

const HOW_TO_ASK_FOR_LESS = 'ask for less: fewer columns or rows (a narrower SELECT, a LIMIT), a smaller page, or a filter';

/**
 * A result whose JSON is at most `maxBytes`: a larger output is cut (`truncated` in bytes, and
 * a note on how to ask for less); a larger error keeps the start of its message and issues,
 * and says it was cut in the message. Run it on the masked result: a cut never halves a
 * secret the mask would have matched.
 */
export function boundResult(result: AgentToolResult, maxBytes: number): AgentToolResult {
  return result.ok ? boundOutput(result, maxBytes) : { ok: false, error: boundError(result.error, maxBytes) };
}

function boundOutput(result: Extract<AgentToolResult, { ok: true }>, maxBytes: number): AgentToolResult {
  const notes = fitJson(result.notes ?? [], RESERVE_BYTES);
  const fitted = fitJson(result.output, Math.max(0, maxBytes - notes.bytes - 2 * RESERVE_BYTES));
  if (!fitted.cut) return notes.cut ? { ...result, notes: notes.value as string[] } : result;
  const total = jsonBytes(result.output);
  return {
    ok: true,
    output: fitted.value ?? null,
    truncated: { field: 'output', returned: fitted.bytes, total, unit: 'bytes' },
    notes: [...(notes.value as string[]), `the output was cut to ${fitted.bytes} of its ${total} bytes (an agent gets at most ${maxBytes} per call); ${HOW_TO_ASK_FOR_LESS}`],
  };
}

function boundError(error: AgentToolError, maxBytes: number): AgentToolError {
  if (!fitJson(error, maxBytes).cut) return error;
  const budget = Math.max(0, maxBytes - RESERVE_BYTES);
  // The message is also the MCP text: half the room, the issues the other half.
  const message = fitString(error.message, Math.floor(budget / 2)).value as string | undefined;
  const issues = error.issues ? (fitJson(error.issues, Math.floor(budget / 2)).value as AgentToolError['issues']) : undefined;
  const { issues: _dropped, ...rest } = error;
  void _dropped;
  return {
    ...rest,
    message: `${message ?? ''} [cut: the error was ${error.message.length} characters; an agent gets at most ${maxBytes} bytes per call]`,
    ...(issues ? { issues } : {}),
  };
}
