import type { ChdbSession as Session } from './chdb.js';
import type { PipeDef } from './pipes.js';
import type { DatasourceSchema } from './schema.js';
import { splitArgs } from './template.js';

const TYPED = /\{\{\s*(String|Boolean|Date|DateTime|DateTime64|Float32|Float64|U?Int(?:8|16|32|64)?|Integer|Array)\s*\(([\s\S]*?)\)\s*\}\}/g;

export interface PipeParam {
  name: string;
  type: string;
  default: string | null;
  required: boolean;
  description: string;
}

const unquote = (arg: string | undefined) => (arg === undefined ? undefined : (/^(['"])(.*)\1$/s.exec(arg)?.[2] ?? arg));

/** The dynamic parameters a node's template SQL reads: `{{Type(name, default, …)}}`, then bare `defined(name)`. */
export function nodeParams(sql: string): PipeParam[] {
  const found = new Map<string, PipeParam>();
  for (const match of sql.matchAll(TYPED)) {
    const [, type, argText] = match;
    const args = splitArgs(argText!);
    const name = args[0]!;
    if (!/^\w+$/.test(name) || found.has(name)) continue;
    const keyword = (key: string) => args.find((a) => a.startsWith(`${key}=`))?.slice(key.length + 1);
    const positional = args.slice(1).filter((a) => !/^\w+=/.test(a));
    const fallback = type === 'Array' ? unquote(positional[1]) : unquote(positional[0]);
    found.set(name, {
      name,
      type: type === 'Array' ? `Array(${unquote(positional[0]) ?? 'String'})` : type!,
      default: fallback === undefined || fallback === 'None' ? null : fallback,
      required: keyword('required') === 'True',
      description: unquote(keyword('description')) ?? '',
    });
  }
  return [...found.values()];
}

/** A pipe as the Pipes API describes it: the last node is the endpoint, and its params are every node's. */
export function describePipe(pipe: PipeDef) {
  const nodes = pipe.nodes.map((node) => ({ id: `${pipe.name}_${node.name}`, name: node.name, sql: node.sql, description: null, params: nodeParams(node.sql) }));
  const endpoint = nodes[nodes.length - 1]!;
  const all = new Map<string, PipeParam>();
  for (const node of nodes) for (const param of node.params) if (!all.has(param.name)) all.set(param.name, param);
  endpoint.params = [...all.values()];
  return { id: `p_${pipe.name}`, name: pipe.name, description: pipe.description ?? '', type: 'endpoint', endpoint: endpoint.id, nodes };
}

/** A Data Source as `/v0/datasources/<name>` describes it, with its row count read from the table. */
export async function describeDatasource(session: Session, schema: DatasourceSchema) {
  const text = (await session.queryAsync(`SELECT count() AS c FROM \`${schema.name}\``, { format: 'JSONEachRow' })).text();
  const row = JSON.parse(text.trim() || '{"c":0}') as { c: number | string };
  return {
    id: `t_${schema.name}`,
    name: schema.name,
    description: '',
    type: 'ndjson',
    engine: { engine: schema.engine, ...(schema.sortingKey ? { engine_sorting_key: schema.sortingKey } : {}) },
    columns: schema.columns.map((c) => ({
      name: c.name,
      type: c.type,
      nullable: /^Nullable\(/.test(c.type),
      default_value: c.defaultExpr ?? null,
      jsonpath: c.jsonpath,
    })),
    statistics: { bytes: null, row_count: Number(row.c) },
  };
}
