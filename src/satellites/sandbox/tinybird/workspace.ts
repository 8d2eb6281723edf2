import { clickhouseMessage, type ChdbSession as Session } from './chdb.js';
import { coerce } from './coerce.js';
import { inferSchema } from './infer.js';
import { createTableSql, valueAt, type DatasourceSchema } from './schema.js';

export interface IngestResult {
  successful_rows: number;
  quarantined_rows: number;
}

interface QuarantinedRow {
  event: Record<string, unknown>;
  columns: string[];
  errors: string[];
}

export const QUARANTINE_SUFFIX = '_quarantine';

/**
 * A delete condition as SQL: in parentheses, closed on a line of its own so a trailing
 * `--` comment cannot swallow what follows. The SQL gate checks the count query, and the
 * delete uses the same text, so what was checked is what runs.
 */
const conditionSql = (condition: string) => `(${condition}\n)`;

/** The query that counts the rows a delete condition matches; the gate checks this text. */
export const countSql = (name: string, condition: string) => `SELECT count() AS c FROM \`${name}\` WHERE ${conditionSql(condition)}`;

function nowDateTime(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

/** Data Sources of the sandbox workspace, as ClickHouse tables in one chdb session. */
export class Workspace {
  readonly datasources = new Map<string, DatasourceSchema>();
  private readonly quarantines = new Set<string>();

  constructor(readonly session: Session) {}

  /** Creates the table of a declared or inferred Data Source (idempotent). */
  async declare(schema: DatasourceSchema): Promise<void> {
    await this.session.queryAsync(createTableSql(schema));
    this.datasources.set(schema.name, schema);
  }

  /** Picks up Data Sources and quarantine tables already in the data directory. */
  async restore(schemas: readonly DatasourceSchema[]): Promise<void> {
    for (const schema of schemas) await this.declare(schema);
    const tables = (await this.session.queryAsync('SHOW TABLES', { format: 'JSONEachRow' })).text();
    for (const line of tables.split('\n').filter(Boolean)) {
      const name = (JSON.parse(line) as { name: string }).name;
      if (name.endsWith(QUARANTINE_SUFFIX)) this.quarantines.add(name);
    }
  }

  get(name: string): DatasourceSchema | undefined {
    return this.datasources.get(name);
  }

  /** True for a Data Source or a quarantine table that exists. */
  hasTable(name: string): boolean {
    return this.datasources.has(name) || this.quarantines.has(name);
  }

  /** Creates a Data Source whose schema is inferred from these events. */
  async createFromEvents(name: string, events: readonly Record<string, unknown>[]): Promise<DatasourceSchema> {
    const schema = inferSchema(name, events);
    await this.declare(schema);
    return schema;
  }

  /**
   * Writes the events that fit the schema and sends the rest, with the reason, to
   * `<name>_quarantine`, as the Events API does: a bad row is a count, not an error.
   */
  async ingest(name: string, events: readonly unknown[], importId: string): Promise<IngestResult> {
    const schema = this.datasources.get(name);
    if (!schema) throw new Error(`Data Source ${name} does not exist`);
    const good: Record<string, unknown>[] = [];
    const goodEvents: Record<string, unknown>[] = [];
    const bad: QuarantinedRow[] = [];
    for (const item of events) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        bad.push({ event: {}, columns: [], errors: [`the line is not a JSON object: ${String(JSON.stringify(item) ?? item).slice(0, 80)}`] });
        continue;
      }
      const event = item as Record<string, unknown>;
      const row: Record<string, unknown> = {};
      const columns: string[] = [];
      const errors: string[] = [];
      for (const column of schema.columns) {
        const value = valueAt(event, column.jsonpath);
        if (value === undefined && column.defaultExpr) continue;
        const result = coerce(value, column.type);
        if (result.ok) row[column.name] = result.value;
        else {
          columns.push(column.name);
          errors.push(`column '${column.name}': ${result.error}`);
        }
      }
      if (errors.length) bad.push({ event, columns, errors });
      else {
        good.push(row);
        goodEvents.push(event);
      }
    }
    if (good.length) {
      try {
        await this.session.insert({
          table: name,
          values: good.map((row) => JSON.stringify(row)).join('\n') + '\n',
          format: 'JSONEachRow',
        });
      } catch (error) {
        // What ClickHouse refuses on insert is quarantined too, with its own message.
        const message = clickhouseMessage(error);
        bad.push(...goodEvents.map((event) => ({ event, columns: [], errors: [message] })));
        good.length = 0;
      }
    }
    if (bad.length) await this.quarantine(schema, bad, importId);
    return { successful_rows: good.length, quarantined_rows: bad.length };
  }

  private async quarantine(schema: DatasourceSchema, rows: QuarantinedRow[], importId: string): Promise<void> {
    const table = `${schema.name}${QUARANTINE_SUFFIX}`;
    if (!this.quarantines.has(table)) {
      const originals = schema.columns.map((c) => `\`${c.name}\` Nullable(String)`).join(', ');
      await this.session.queryAsync(
        `CREATE TABLE IF NOT EXISTS \`${table}\` (c__error_column Array(String), c__error Array(String), c__import_id Nullable(String), insertion_date DateTime, ${originals}) ENGINE = MergeTree ORDER BY insertion_date`,
      );
      this.quarantines.add(table);
    }
    const insertionDate = nowDateTime();
    const lines = rows.map(({ event, columns, errors }) => {
      const row: Record<string, unknown> = {
        c__error_column: columns,
        c__error: errors,
        c__import_id: importId,
        insertion_date: insertionDate,
      };
      for (const column of schema.columns) {
        const value = valueAt(event, column.jsonpath);
        row[column.name] = value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value);
      }
      return JSON.stringify(row);
    });
    await this.session.insert({ table, values: lines.join('\n') + '\n', format: 'JSONEachRow' });
  }

  async truncate(name: string): Promise<void> {
    await this.session.queryAsync(`TRUNCATE TABLE \`${name}\``);
  }

  async count(name: string, condition = '1'): Promise<number> {
    const result = await this.session.queryAsync(countSql(name, condition), { format: 'JSONEachRow' });
    return Number((JSON.parse(result.text()) as { c: number | string }).c);
  }

  async deleteWhere(name: string, condition: string): Promise<void> {
    await this.session.queryAsync(`ALTER TABLE \`${name}\` DELETE WHERE ${conditionSql(condition)} SETTINGS mutations_sync = 1`);
  }
}
