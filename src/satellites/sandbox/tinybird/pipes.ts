import { renderTemplate, type TemplateParams } from './template.js';

/** A pipe: named nodes of SQL; the last one is the published endpoint. */
export interface PipeDef {
  name: string;
  description?: string;
  nodes: { name: string; sql: string }[];
}

/**
 * Parses Tinybird's `.pipe` format, as far as a sandbox needs it:
 *
 *     DESCRIPTION >
 *         Top events
 *     NODE top
 *     SQL >
 *         %
 *         SELECT event, count() AS n FROM events GROUP BY event LIMIT {{Int32(limit, 10)}}
 */
export function parsePipe(name: string, text: string): PipeDef {
  const nodes: { name: string; sql: string }[] = [];
  let description: string | undefined;
  let section: 'sql' | 'description' | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (section === 'sql' && nodes.length) nodes[nodes.length - 1]!.sql = lines.join('\n').trim();
    if (section === 'description') description = lines.join(' ').trim();
    lines = [];
    section = undefined;
  };
  for (const raw of text.split('\n')) {
    const node = /^NODE\s+(\w+)\s*$/.exec(raw);
    if (node) {
      flush();
      nodes.push({ name: node[1]!, sql: '' });
    } else if (/^SQL\s*>\s*$/.test(raw)) {
      flush();
      section = 'sql';
    } else if (/^DESCRIPTION\s*>\s*$/.test(raw)) {
      flush();
      section = 'description';
    } else if (/^[A-Z_]+\b/.test(raw)) flush();
    else if (section) lines.push(raw.replace(/^ {4}/, ''));
  }
  flush();
  if (!nodes.some((n) => n.sql)) throw new Error(`pipe ${name} has no SQL node`);
  return { name, nodes: nodes.filter((n) => n.sql), ...(description ? { description } : {}) };
}

/** Replaces `FROM name` / `JOIN name` references with a subquery. */
export function inlineTable(sql: string, table: string, subquery: string): string {
  const escaped = table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return sql.replace(new RegExp(`\\b(FROM|JOIN)\\s+${escaped}(?![\\w.])`, 'gi'), (_, keyword: string) => `${keyword} (${subquery}) AS ${table === '_' ? '_' : table}`);
}

/** The SQL of a pipe's endpoint with its parameters applied; earlier nodes become subqueries. */
export function renderPipe(pipe: PipeDef, params: TemplateParams): string {
  const rendered: { name: string; sql: string }[] = [];
  for (const node of pipe.nodes) {
    let sql = renderTemplate(node.sql, params);
    for (const earlier of rendered) sql = inlineTable(sql, earlier.name, earlier.sql);
    rendered.push({ name: node.name, sql });
  }
  return rendered[rendered.length - 1]!.sql;
}
