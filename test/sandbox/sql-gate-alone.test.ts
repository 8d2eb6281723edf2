/**
 * Promise (issue 34): the sandbox's SQL gate refuses by itself. A dump with more than one
 * statement, and an output clause (INTO OUTFILE, COMPRESSION, an inner FORMAT) at any depth,
 * are refused by the gate's own reading of the tree, even where `formatQuery` (the engine's
 * one-statement check) or the parser would have refused first: defence in depth is only
 * defence when it is tested. The gate runs here on a session that accepts every query and
 * answers `EXPLAIN AST` with dumps taken from chdb (those marked "by hand" are what a parser
 * that accepted the clause deeper would give), so no engine check stands in front of it.
 * No chdb here: this file also runs under Stryker (the `mutation` project of vitest.config.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ChdbSession } from '../../src/satellites/sandbox/tinybird/chdb.js';
import { SqlGate } from '../../src/satellites/sandbox/tinybird/sql-gate.js';

/** Indented dump lines, one node per line: the TSV text `EXPLAIN AST` gives. */
const dump = (...lines: string[]) => `${lines.join('\n')}\n`;

const SELECT_1 = ['SelectWithUnionQuery (children 1)', ' ExpressionList (children 1)', '  SelectQuery (children 1)', '   ExpressionList (children 1)', '    Literal UInt64_1'];

/** A select whose body is `inner` (a dump of a SelectWithUnionQuery), as a subquery in FROM, `depth` subqueries deep. */
function fromSubquery(inner: string[], depth: number): string[] {
  if (depth === 0) return inner;
  const nested = fromSubquery(inner, depth - 1).map((line) => `       ${line}`);
  return selectStarFrom(['      Subquery (children 1)', ...nested]);
}

/** `SELECT * FROM <source>`'s tree, `source` the lines of the table expression's one child (indented six). */
function selectStarFrom(source: string[]): string[] {
  return [
    'SelectWithUnionQuery (children 1)',
    ' ExpressionList (children 1)',
    '  SelectQuery (children 2)',
    '   ExpressionList (children 1)',
    '    Asterisk',
    '   TablesInSelectQuery (children 1)',
    '    TablesInSelectQueryElement (children 1)',
    '     TableExpression (children 1)',
    ...source,
  ];
}

/** `SELECT 1 FORMAT JSON`'s tree (chdb): the FORMAT is the union's second child. */
const SELECT_1_FORMAT = ['SelectWithUnionQuery (children 2)', ...SELECT_1.slice(1), ' Identifier JSON'];
/** `SELECT 1 INTO OUTFILE 'x.csv' COMPRESSION 'gzip'` (chdb). */
const SELECT_1_OUTFILE_GZ = ['SelectWithUnionQuery (children 3)', ...SELECT_1.slice(1), " Literal \\'x.csv\\'", " Literal \\'gzip\\'"];

/**
 * A session that runs nothing: `formatQuery` accepts every text (as if the engine's check
 * were gone), and `EXPLAIN AST <sql>` answers the dump given for `sql`.
 */
function session(dumps: Record<string, string>) {
  const asked: string[] = [];
  const fake = {
    queryAsync: async (query: string, options?: { format?: string }) => {
      asked.push(`${query} ${JSON.stringify(options)}`);
      // Lines of text only in TSV; any other format answers in another shape, as the engine would.
      if (options?.format !== 'TSV') return { text: () => '{"meta":[],"data":[]}', bytes: () => new Uint8Array(), elapsed: 0 };
      const text = query === 'SELECT name FROM system.table_functions' ? 'numbers\nfile\nurl\ns3\nvalues\n' : dumps[query.replace(/^EXPLAIN AST /, '')];
      if (text === undefined) throw new Error(`no dump for ${query}`);
      return { text: () => text, bytes: () => new Uint8Array(), elapsed: 0 };
    },
    queryBindAsync: async (query: string, params: Record<string, string>, options?: { format?: string }) => {
      asked.push(`${query} ${JSON.stringify(params)} ${JSON.stringify(options)}`);
      return { text: () => '' };
    },
  };
  return { session: fake as unknown as ChdbSession, asked };
}

const ONLY_SELECT = { status: 400, error: '[Error] Only SELECT queries are allowed on the Query API' };
const OUTPUT_CLAUSE = { status: 403, error: expect.stringMatching(/^\[Error\] INTO OUTFILE, COMPRESSION and FORMAT inside the query are not allowed/) };

async function gateFor(sql: string, text: string) {
  const s = session({ [sql]: text });
  return { gate: await SqlGate.open(s.session), asked: s.asked };
}

describe('promise: the SQL gate refuses by itself', () => {
  it('lets one plain read through (the fake session is not what refuses)', async () => {
    const { gate, asked } = await gateFor('SELECT 1', dump(...SELECT_1));
    expect(await gate.check('SELECT 1')).toBeUndefined();
    // The text went to formatQuery as a bound value, and EXPLAIN AST was asked for it.
    expect(asked).toEqual([
      'SELECT name FROM system.table_functions {"format":"TSV"}',
      'SELECT formatQuery({q:String}) {"q":"SELECT 1"} {"format":"TSV"}',
      'EXPLAIN AST SELECT 1 {"format":"TSV"}',
    ]);
    const deep = 'SELECT * FROM (SELECT * FROM (SELECT 1))';
    expect(await (await gateFor(deep, dump(...fromSubquery(SELECT_1, 2)))).gate.check(deep)).toBeUndefined();
  });

  it.each([
    // chdb's answer to `EXPLAIN AST SELECT 1; SELECT 2`: the first tree, then the second statement's result.
    ['a second statement run after the first (chdb)', 'SELECT 1; SELECT 2', dump(...SELECT_1, '2')],
    ['two trees', 'SELECT 1; SELECT 1', dump(...SELECT_1, ...SELECT_1)],
    ['a read, then a write', 'SELECT 1; DROP TABLE events', dump(...SELECT_1, 'DropQuery  events (children 1)', ' Identifier events')],
    ['nothing at all', '', ''],
  ])('refuses a dump of more than one statement: %s', async (_name, sql, text) => {
    const { gate } = await gateFor(sql, text);
    expect(await gate.check(sql)).toEqual(ONLY_SELECT);
    expect(await gate.checkCondition(sql)).toEqual(ONLY_SELECT);
  });

  it.each([
    ['FORMAT at the top (chdb)', dump(...SELECT_1_FORMAT)],
    ['INTO OUTFILE … COMPRESSION at the top (chdb)', dump(...SELECT_1_OUTFILE_GZ)],
    // chdb: `EXPLAIN SELECT 1 INTO OUTFILE 'x.csv'` puts the file on the Explain node.
    ['INTO OUTFILE on an EXPLAIN (chdb)', dump('Explain EXPLAIN (children 2)', ...SELECT_1.map((l) => ` ${l}`), " Literal \\'x.csv\\'")],
    ['FORMAT in the statement an EXPLAIN explains (by hand)', dump('Explain EXPLAIN (children 1)', ...SELECT_1_FORMAT.map((l) => ` ${l}`))],
    ['FORMAT in a subquery (by hand)', dump(...fromSubquery(SELECT_1_FORMAT, 1))],
    ['INTO OUTFILE three subqueries deep (by hand)', dump(...fromSubquery(SELECT_1_OUTFILE_GZ, 3))],
    ['SHOW TABLES INTO OUTFILE (chdb)', dump('ShowTables (children 1)', " Literal \\'x.csv\\'")],
  ])('refuses an output clause at any depth: %s', async (_name, text) => {
    const { gate } = await gateFor('q', text);
    expect(await gate.check('q')).toEqual(OUTPUT_CLAUSE);
  });

  it('refuses an output clause in a delete condition\'s subquery, and a condition that is not one WHERE expression', async () => {
    const where = (inner: string[]) => [
      'SelectWithUnionQuery (children 1)',
      ' ExpressionList (children 1)',
      '  SelectQuery (children 3)',
      '   ExpressionList (children 1)',
      '    Function count (children 1)',
      '     ExpressionList',
      '   TablesInSelectQuery (children 1)',
      '    TablesInSelectQueryElement (children 1)',
      '     TableExpression (children 1)',
      '      TableIdentifier events',
      '   Function in (children 1)',
      '    ExpressionList (children 2)',
      '     Literal UInt64_1',
      '     Subquery (children 1)',
      ...inner.map((line) => `      ${line}`),
    ];
    expect(await (await gateFor('c', dump(...where(SELECT_1)))).gate.checkCondition('c')).toBeUndefined();
    expect(await (await gateFor('c', dump(...where(SELECT_1_FORMAT)))).gate.checkCondition('c')).toEqual(OUTPUT_CLAUSE);
    // SELECT count() FROM events WHERE … GROUP BY …: a fourth child of the select.
    const grouped = where(SELECT_1).map((line) => line.replace('SelectQuery (children 3)', 'SelectQuery (children 4)'));
    expect(await (await gateFor('c', dump(...grouped, '   ExpressionList (children 1)', '    Identifier event'))).gate.checkCondition('c')).toEqual({
      status: 400,
      error: 'The delete_condition must be one boolean expression',
    });
  });

  it('refuses a dump that does not read as a tree (a child count that does not add up) as not a read', async () => {
    const { gate } = await gateFor('q', dump('SelectWithUnionQuery (children 2)', ...SELECT_1.slice(1)));
    expect(await gate.check('q')).toEqual(ONLY_SELECT);
  });

  it('refuses a table function the engine knows and the sandbox does not allow, at any depth, and SETTINGS anywhere', async () => {
    const reading = (fn: string) => selectStarFrom([
      `      Function ${fn} (children 1)`,
      '       ExpressionList (children 1)',
      "        Literal \\'/etc/passwd\\'",
    ]);
    expect(await (await gateFor('q', dump(...fromSubquery(reading('file'), 2)))).gate.check('q')).toEqual({ status: 403, error: "[Error] The 'file' table function is not allowed" });
    expect(await (await gateFor('q', dump(...reading('URL')))).gate.check('q')).toEqual({ status: 403, error: "[Error] The 'URL' table function is not allowed" });
    expect(await (await gateFor('q', dump(...reading('numbers')))).gate.check('q')).toBeUndefined();
    const settings = [...fromSubquery(SELECT_1, 1).map((l) => l.replace('  SelectQuery (children 2)', '  SelectQuery (children 3)')), '   Set'];
    expect(await (await gateFor('q', dump(...settings))).gate.check('q')).toEqual({ status: 403, error: '[Error] SETTINGS clauses are not allowed on the sandbox Query API' });
  });

  it('lets SHOW TABLES through with at most a database name, and nothing else beside it', async () => {
    const show = async (...lines: string[]) => (await gateFor('q', dump(...lines))).gate.check('q');
    expect(await show('ShowTables')).toBeUndefined();
    expect(await show('ShowTables (children 1)', ' Identifier analytics')).toBeUndefined();
    expect(await show('ShowTables (children 2)', ' Identifier analytics', ' Identifier other')).toEqual(OUTPUT_CLAUSE);
  });

  it('reads a column named like a table function as a column, and refuses a scalar function that reads a file', async () => {
    const select = (expression: string[]) => dump('SelectWithUnionQuery (children 1)', ' ExpressionList (children 1)', '  SelectQuery (children 1)', '   ExpressionList (children 1)', ...expression.map((l) => `    ${l}`));
    expect(await (await gateFor('q', select(['Identifier file']))).gate.check('q')).toBeUndefined();
    expect(await (await gateFor('q', select(['Function catboostEvaluate (children 1)', ' ExpressionList (children 1)', "  Literal \\'/etc/model.bin\\'"]))).gate.check('q')).toEqual({
      status: 403,
      error: "[Error] The 'catboostEvaluate' function is not allowed",
    });
  });

  it('a delete condition that is not one WHERE of one select: two selects, or a tree of another root, are refused', async () => {
    const counting = ['SelectQuery (children 3)', ' ExpressionList (children 1)', '  Function count', ' TablesInSelectQuery (children 1)', '  TablesInSelectQueryElement (children 1)', '   TableExpression (children 1)', '    TableIdentifier events', ' Literal UInt64_1'];
    const one = dump('SelectWithUnionQuery (children 1)', ' ExpressionList (children 1)', ...counting.map((l) => `  ${l}`));
    expect(await (await gateFor('c', one)).gate.checkCondition('c')).toBeUndefined();
    // `1) UNION ALL SELECT count() FROM events WHERE (1`: the condition closed the first select.
    const union = dump('SelectWithUnionQuery (children 1)', ' ExpressionList (children 2)', ...counting.map((l) => `  ${l}`), ...counting.map((l) => `  ${l}`));
    const refused = { status: 400, error: 'The delete_condition must be one boolean expression' };
    expect(await (await gateFor('c', union)).gate.checkCondition('c')).toEqual(refused);
    // By hand: the same select under an EXPLAIN, and an INTERSECT node in place of the SelectQuery.
    const explained = dump('Explain EXPLAIN (children 1)', ' ExpressionList (children 1)', ...counting.map((l) => `  ${l}`));
    expect(await (await gateFor('c', explained)).gate.checkCondition('c')).toEqual(refused);
    const wrapped = dump('SelectWithUnionQuery (children 1)', ' ExpressionList (children 1)', ...counting.map((l) => `  ${l.replace('SelectQuery (children 3)', 'SelectIntersectExceptQuery (children 3)')}`));
    expect(await (await gateFor('c', wrapped)).gate.checkCondition('c')).toEqual(refused);
  });
});
