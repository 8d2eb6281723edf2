/** Counts as a person reads them. */

/** `1 row`, `2 rows`, `1,000 rows` (`grouped: false`: `1000 rows`, for a line a script reads): a count with its noun, singular for one. */
export function plural(n: number, one: string, { grouped = true }: { grouped?: boolean } = {}): string {
  return `${grouped ? n.toLocaleString('en-US') : n} ${one}${n === 1 ? '' : 's'}`;
}

/** `row 7`, `rows 1-500`: a range of input rows as a report names it. */
export function rowRange(first: number, last: number): string {
  return first === last ? `row ${first}` : `rows ${first}-${last}`;
}
