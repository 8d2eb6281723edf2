/**
 * The spelling of generated TypeScript source as Sim's biome formats it (single quotes, no
 * semicolons, two-space indent, 100 columns), for the files `flowblocks sim-blocks` writes
 * into a Sim checkout. Each helper returns text `biome check` leaves as it is.
 */

/** Sim's `formatter.lineWidth`. */
export const SIM_LINE_WIDTH = 100;

/**
 * A string literal: single-quoted, or double-quoted when the text holds a single quote and no
 * double one (biome's choice). The escaping is JSON's, so no text can end the literal early.
 */
export function jsString(text: string): string {
  const json = JSON.stringify(text);
  if (text.includes("'") && !text.includes('"')) return json;
  // JSON's body with `\"` unescaped and `'` escaped: the same string in single quotes.
  return `'${json.slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
}

/** `key: value,` at `indent`, broken after the colon when it does not fit (as biome breaks a long string). */
export function property(indent: string, key: string, value: string): string {
  const line = `${indent}${key}: ${value},`;
  return line.length <= SIM_LINE_WIDTH ? line : `${indent}${key}:\n${indent}  ${value},`;
}

/** An array of literals: on one line when it fits after `prefix`, else one element a line. */
export function literalArray(indent: string, key: string, values: readonly string[]): string {
  const line = `${indent}${key}: [${values.join(', ')}],`;
  if (line.length <= SIM_LINE_WIDTH) return line;
  return [`${indent}${key}: [`, ...values.map((value) => `${indent}  ${value},`), `${indent}],`].join('\n');
}

/** `ServiceName` as an identifier part: `flowblocks_tinybird` → `FlowblocksTinybird`. */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
