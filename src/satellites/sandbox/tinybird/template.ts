import { coerce } from './coerce.js';

/** A pipe or `%` query failed to render: the service answers 400 with this message. */
export class TemplateError extends Error {}

export type TemplateParams = Record<string, string | string[]>;

const TYPED = /^(String|Boolean|Date|DateTime|DateTime64|Float32|Float64|U?Int(?:8|16|32|64)?|Integer|Array)\s*\((.*)\)$/s;

/** Splits template arguments on top-level commas, keeping quoted strings whole. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | undefined;
  let depth = 0;
  for (const ch of text) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
    } else if (ch === '(' || ch === '[') {
      depth++;
      current += ch;
    } else if (ch === ')' || ch === ']') {
      depth--;
      current += ch;
    } else if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

function literal(arg: string | undefined): string | undefined {
  if (arg === undefined) return undefined;
  const quoted = /^(['"])(.*)\1$/s.exec(arg);
  return quoted ? quoted[2] : arg;
}

export function quoteString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** One value, checked against the template type, as SQL. */
function sqlValue(raw: string, type: string): string {
  const chType = type === 'Int' || type === 'Integer' ? 'Int64' : type === 'Boolean' ? 'Bool' : type === 'DateTime64' ? 'DateTime64(3)' : type;
  if (chType === 'String') return quoteString(raw);
  const result = coerce(raw, chType);
  if (!result.ok) throw new TemplateError(`Error validating '${raw}' to type ${type}`);
  return typeof result.value === 'number' || typeof result.value === 'boolean' ? String(result.value) : quoteString(String(result.value));
}

function expression(expr: string, params: TemplateParams): string {
  const typed = TYPED.exec(expr.trim());
  if (!typed) {
    const name = expr.trim();
    const value = params[name];
    if (value === undefined) throw new TemplateError(`The parameter '${name}' is required`);
    return quoteString(Array.isArray(value) ? value.join(',') : value);
  }
  const [, type, argText] = typed;
  const args = splitArgs(argText!);
  const name = args[0]!;
  const keyword = (key: string) => args.find((a) => a.startsWith(`${key}=`))?.slice(key.length + 1);
  const positional = args.slice(1).filter((a) => !/^\w+=/.test(a));
  if (type === 'Array') {
    const itemType = literal(positional[0]) ?? 'String';
    const given = params[name];
    const fallback = literal(positional[1]);
    const items = given === undefined ? fallback?.split(',') : Array.isArray(given) ? given : given.split(',');
    if (!items) throw new TemplateError(`The parameter '${name}' is required`);
    return `[${items.map((item) => sqlValue(item.trim(), itemType)).join(', ')}]`;
  }
  const given = params[name];
  const value = given === undefined ? literal(positional[0]) : Array.isArray(given) ? given[0] : given;
  if (value === undefined || value === 'None') {
    if (keyword('required') === 'True' || positional[0] === undefined) throw new TemplateError(`The parameter '${name}' is required`);
    return 'NULL';
  }
  return sqlValue(value, type!);
}

/** `{% if defined(x) %}…{% else %}…{% end %}` blocks (not nested). */
function conditionals(sql: string, params: TemplateParams): string {
  return sql.replace(
    /\{%\s*if\s+(not\s+)?defined\((\w+)\)\s*%\}([\s\S]*?)(?:\{%\s*else\s*%\}([\s\S]*?))?\{%\s*end\s*%\}/g,
    (_, not: string | undefined, name: string, then: string, otherwise: string | undefined) =>
      (params[name] !== undefined) !== Boolean(not) ? then : (otherwise ?? ''),
  );
}

/**
 * Renders Tinybird's template SQL: a leading `%` line, `{{ Type(name, default) }}`
 * placeholders checked against their type, and `defined()` conditionals.
 */
export function renderTemplate(sql: string, params: TemplateParams): string {
  const body = sql.replace(/^\s*%\s*\n?/, '');
  return conditionals(body, params).replace(/\{\{([\s\S]*?)\}\}/g, (_, expr: string) => expression(expr, params));
}
