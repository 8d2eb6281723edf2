/** Parses CSV (RFC 4180 quoting) into rows of fields. */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/**
 * CSV rows as events keyed by column name. A first row that names the columns is taken
 * as the header, as Tinybird detects one; otherwise fields map to columns in order.
 */
export function csvEvents(text: string, columns: readonly string[], delimiter = ','): Record<string, unknown>[] {
  const rows = parseCsv(text, delimiter);
  const first = rows[0];
  const hasHeader = first !== undefined && first.every((name) => columns.includes(name.trim()));
  const header = hasHeader ? first.map((name) => name.trim()) : [...columns];
  return rows.slice(hasHeader ? 1 : 0).map((fields) => {
    const event: Record<string, unknown> = {};
    header.forEach((name, i) => {
      const value = fields[i];
      // An empty CSV field is a missing value, which a Nullable column takes as NULL.
      event[name] = value === undefined || value === '' ? null : value;
    });
    return event;
  });
}
