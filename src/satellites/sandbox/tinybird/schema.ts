/** One column of a Data Source: its ClickHouse type and where its value sits in each event. */
export interface ColumnSchema {
  name: string;
  type: string;
  /** JSONPath into the event, `$.a.b`; defaults to `$.<name>`. */
  jsonpath: string;
  /** ClickHouse DEFAULT expression, used when the event has no value. */
  defaultExpr?: string;
}

export interface DatasourceSchema {
  name: string;
  columns: ColumnSchema[];
  engine: string;
  sortingKey?: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses Tinybird's `.datasource` file format, as far as a sandbox needs it:
 *
 *     SCHEMA >
 *         `timestamp` DateTime `json:$.timestamp`,
 *         `event` LowCardinality(String) `json:$.event` DEFAULT 'unknown'
 *     ENGINE "MergeTree"
 *     ENGINE_SORTING_KEY "timestamp"
 */
export function parseDatasource(name: string, text: string): DatasourceSchema {
  if (!NAME.test(name)) throw new Error(`bad Data Source name ${name}`);
  const columns: ColumnSchema[] = [];
  let engine = 'MergeTree';
  let sortingKey: string | undefined;
  let inSchema = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^SCHEMA\s*>$/.test(line)) {
      inSchema = true;
      continue;
    }
    const setting = /^(ENGINE\w*|DESCRIPTION|TOKEN)\s+"?(.*?)"?$/.exec(line);
    if (setting) {
      inSchema = false;
      if (setting[1] === 'ENGINE') engine = setting[2]!;
      if (setting[1] === 'ENGINE_SORTING_KEY') sortingKey = setting[2];
      continue;
    }
    if (!inSchema) continue;
    columns.push(parseColumn(line.replace(/,$/, ''), name));
  }
  if (columns.length === 0) throw new Error(`Data Source ${name} declares no columns`);
  return { name, columns, engine, sortingKey };
}

function parseColumn(def: string, datasource: string): ColumnSchema {
  let rest = def;
  let jsonpath: string | undefined;
  rest = rest.replace(/`json:([^`]+)`/, (_, path: string) => {
    jsonpath = path.trim();
    return '';
  });
  const match = /^`?([A-Za-z_][A-Za-z0-9_]*)`?\s+(.+)$/.exec(rest.trim());
  if (!match) throw new Error(`Data Source ${datasource}: cannot read the column ${def}`);
  const [, name, typeAndDefault] = match;
  const [type, defaultExpr] = typeAndDefault!.split(/\s+DEFAULT\s+/i);
  return {
    name: name!,
    type: type!.trim(),
    jsonpath: jsonpath ?? `$.${name}`,
    ...(defaultExpr ? { defaultExpr: defaultExpr.trim() } : {}),
  };
}

/** The value at a `$.a.b` JSONPath, or undefined. */
export function valueAt(event: Record<string, unknown>, jsonpath: string): unknown {
  let current: unknown = event;
  for (const key of jsonpath.replace(/^\$\.?/, '').split('.').filter(Boolean)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `CREATE TABLE` for a Data Source. */
export function createTableSql(schema: DatasourceSchema): string {
  const columns = schema.columns
    .map((c) => `\`${c.name}\` ${c.type}${c.defaultExpr ? ` DEFAULT ${c.defaultExpr}` : ''}`)
    .join(', ');
  const engine = /^\w+$/.test(schema.engine) ? schema.engine : 'MergeTree';
  const orderBy = schema.sortingKey ? `(${schema.sortingKey})` : 'tuple()';
  return `CREATE TABLE IF NOT EXISTS \`${schema.name}\` (${columns}) ENGINE = ${engine} ORDER BY ${orderBy}`;
}
