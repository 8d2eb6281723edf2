import type { ChdbSession as Session } from './chdb.js';
import { AstShapeError, parseExplainAst, walk, type AstNode } from './explain-ast.js';

/** Why a query is refused, with the status the Query API answers. */
export interface Refusal {
  status: 400 | 403;
  error: string;
}

/**
 * Table functions that read nothing outside the query: generated rows and inline data.
 * Every other table function the engine knows (file, url, s3, remote, executable,
 * filesystem, …) reaches files, networks or processes. `file` is a scalar function too,
 * and so is `format` (string formatting; its table function the read-only connection
 * refuses anyway, as it does zeros()). Lower case.
 */
const ALLOWED_TABLE_FUNCTIONS = new Set(['numbers', 'numbers_mt', 'generaterandom', 'generate_series', 'generateseries', 'primes', 'values', 'null', 'view', 'format']);

/** Scalar functions that read a file by path and are not table functions too (`file` is). Lower case. */
const FILE_READING_FUNCTIONS = new Set(['catboostevaluate']);

/** Statements the Query API runs: reads only. */
const READ_ROOTS = new Set(['SelectWithUnionQuery', 'Explain', 'DescribeQuery', 'ExistsTableQuery', 'ShowTables']);

const ONLY_SELECT: Refusal = { status: 400, error: '[Error] Only SELECT queries are allowed on the Query API' };

const OUTPUT_CLAUSE: Refusal = {
  status: 403,
  error: '[Error] INTO OUTFILE, COMPRESSION and FORMAT inside the query are not allowed: the sandbox answers over HTTP only',
};

/**
 * A read statement's only child is what it reads (SHOW TABLES: at most a database name).
 * Any other child is an output clause (INTO OUTFILE, COMPRESSION, an inner FORMAT), which
 * chdb would carry out by writing a file, read-only or not.
 */
function hasOnlyItsBody(node: AstNode): boolean {
  if (node.kind === 'ShowTables') return node.children.length <= 1 && node.children.every((child) => child.kind === 'Identifier');
  return node.children.length === 1;
}

/** The first node anywhere in the tree the sandbox does not run. */
function nodeRefusal(root: AstNode, tableFunctions: ReadonlySet<string>): Refusal | undefined {
  for (const node of walk(root)) {
    // A subquery's SETTINGS would lift readonly for that subquery, so no SETTINGS at all.
    if (node.kind === 'Set') return { status: 403, error: '[Error] SETTINGS clauses are not allowed on the sandbox Query API' };
    if (node.kind === 'Function') {
      const name = node.name.toLowerCase();
      if (tableFunctions.has(name) && !ALLOWED_TABLE_FUNCTIONS.has(name)) {
        return { status: 403, error: `[Error] The '${node.name}' table function is not allowed` };
      }
      if (FILE_READING_FUNCTIONS.has(name)) return { status: 403, error: `[Error] The '${node.name}' function is not allowed` };
    }
    if (node.kind === 'SelectWithUnionQuery' && !hasOnlyItsBody(node)) return OUTPUT_CLAUSE;
  }
  return undefined;
}

/** The gate's one-statement check: the query as a bound string, so nothing of it runs. */
const FORMAT_QUERY = 'SELECT formatQuery({q:String})';
/** What ClickHouse appends to an error inside that check: the gate's own statement, which is no business of the user's. */
const GATE_SCOPE = ': In scope SELECT formatQuery(';

/**
 * The check's error as the user's query would have it alone: ClickHouse names the statement
 * it failed in (`…: In scope SELECT formatQuery('SELEC 1'). (SYNTAX_ERROR)`), and that
 * statement is the gate's. The scope is cut from its start (the last one: the user's query
 * sits inside it) to the `). (` closing it; the code, the position and the reason stay.
 */
function withoutGateScope(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const start = error.message.lastIndexOf(GATE_SCOPE);
  const close = error.message.lastIndexOf('). (');
  if (start < 0 || close < start) return error;
  const head = error.message.slice(0, start).replace(/[.\s]+$/, '');
  const plain = new Error(`${head}.${error.message.slice(close + 2)}`);
  const code = (error as { clickhouseCode?: unknown }).clickhouseCode;
  if (code !== undefined) Object.assign(plain, { clickhouseCode: code });
  return plain;
}

/**
 * Decides from ClickHouse's own parse of a query whether the sandbox runs it. The query must
 * be one statement (checked by `formatQuery` on it as a bound string, so nothing of it runs),
 * then `EXPLAIN AST` gives the tree that is checked node by node. Engine errors (syntax,
 * readonly) are thrown for the caller to map, as a failed query's are.
 */
export class SqlGate {
  private constructor(
    private readonly session: Session,
    private readonly tableFunctions: ReadonlySet<string>,
  ) {}

  /** `session` should be read-only: EXPLAIN AST runs on it. */
  static async open(session: Session): Promise<SqlGate> {
    const names = (await session.queryAsync('SELECT name FROM system.table_functions', { format: 'TSV' })).text();
    // Stryker disable next-line MethodExpression: an empty name in the set matches only a Function node without a name, which no dump has
    return new SqlGate(session, new Set(names.split('\n').filter(Boolean).map((name) => name.toLowerCase())));
  }

  /** A Query API statement: a read with no table function beyond generated rows, no SETTINGS, no output file. */
  async check(sql: string): Promise<Refusal | undefined> {
    return this.refusal(await this.parse(sql));
  }

  /**
   * `SELECT count() … WHERE (<condition>)`: as `check`, and the condition must stay one
   * WHERE expression, so the same text is safe inside `ALTER TABLE … DELETE WHERE (…)`.
   */
  async checkCondition(countSql: string): Promise<Refusal | undefined> {
    const root = await this.parse(countSql);
    const refused = this.refusal(root);
    if (refused) return refused;
    const selects = root!.children[0]!.children;
    const whereOnly = root!.kind === 'SelectWithUnionQuery' && selects.length === 1 && selects[0]!.kind === 'SelectQuery' && selects[0]!.children.length === 3;
    return whereOnly ? undefined : { status: 400, error: 'The delete_condition must be one boolean expression' };
  }

  private refusal(root: AstNode | undefined): Refusal | undefined {
    if (!root || !READ_ROOTS.has(root.kind)) return ONLY_SELECT;
    if (!hasOnlyItsBody(root)) return OUTPUT_CLAUSE;
    return nodeRefusal(root, this.tableFunctions);
  }

  private async parse(sql: string): Promise<AstNode | undefined> {
    // Throws on a syntax error and on several statements, which chdb would otherwise run one by one.
    await this.session.queryBindAsync(FORMAT_QUERY, { q: sql }, { format: 'TSV' }).catch((error: unknown) => {
      throw withoutGateScope(error);
    });
    const dump = (await this.session.queryAsync(`EXPLAIN AST ${sql}`, { format: 'TSV' })).text();
    try {
      const roots = parseExplainAst(dump);
      return roots.length === 1 ? roots[0] : undefined;
    } catch (error) {
      if (error instanceof AstShapeError) return undefined;
      throw error;
    }
  }
}
