import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiled } from '../../src/harness/run/compiled.js';
import { getTool, listTools } from '../../src/index.js';

/** Every schema a call parses with: each tool's params, wire and output check. */
const callSchemas = listTools().flatMap(({ id }) => {
  const tool = getTool(id)!;
  return [
    [`${id} params`, tool.params],
    [`${id} wire`, tool.wire],
    [`${id} output`, tool.outputCheck ?? tool.output],
  ].filter((entry): entry is [string, z.ZodType] => entry[1] !== undefined);
});

/** Inputs no schema of a tool takes whole: each gives issues to compare. */
const HOSTILE: unknown[] = [undefined, null, 'text', 42, [], {}, { __proto__: { polluted: true }, constructor: 'x' }, JSON.parse('{"__proto__":{"a":1},"data":[1]}')];

describe('compiled schemas (z.compile, #21)', () => {
  it('compiles each schema once and hands back the same compiled schema after', () => {
    const schema = z.object({ a: z.string() });
    const first = compiled(schema);
    expect(first).not.toBe(schema);
    expect(compiled(schema)).toBe(first);
  });

  it('hands back a schema zod cannot compile (a reference cycle) as it is, and it still parses', () => {
    interface Node { child?: Node }
    const node: z.ZodType<Node> = z.lazy(() => z.object({ child: node.optional() }));
    expect(compiled(node)).toBe(node);
    expect(compiled(node).safeParse({ child: { child: {} } }).success).toBe(true);
    expect(compiled(node).safeParse({ child: 1 }).success).toBe(false);
  });

  it.each(callSchemas)('%s: the compiled schema answers hostile input with the same issues as the schema', (_name, schema) => {
    for (const input of HOSTILE) {
      const fast = compiled(schema).safeParse(input);
      const slow = schema.safeParse(input);
      expect(fast.success).toBe(slow.success);
      if (fast.success && slow.success) expect(fast.data).toEqual(slow.data);
      else expect(fast.error?.issues).toEqual(slow.error?.issues);
    }
  });

  it('keeps refinements and transforms: a trimmed query, a refused FORMAT', () => {
    const params = getTool('tinybird_query')!.params;
    expect(compiled(params).parse({ base_url: 'https://api.tinybird.co', token: 'p.t', query: '  SELECT 1  ' })).toEqual({
      base_url: 'https://api.tinybird.co',
      token: 'p.t',
      query: 'SELECT 1',
    });
    const refused = compiled(params).safeParse({ base_url: 'https://api.tinybird.co', token: 'p.t', query: 'SELECT 1 FORMAT XML' });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['query', expect.stringMatching(/^FORMAT must be one of JSON, CSV/)],
    ]);
    expect(compiled(params).safeParse({ base_url: 'ftp://x', token: 'p.t', query: 'SELECT 1' }).error?.issues[0]?.path).toEqual(['base_url']);
  });

  it('where code generation is disallowed, hands every schema back as it is, and calls still check params', async () => {
    const script = fileURLToPath(new URL('./scripts/compile-without-eval.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', script], { timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({
      handedBack: true,
      parsed: { base_url: 'https://api.tinybird.co', token: 'p.t', query: 'SELECT 1' },
      issues: ['base_url', 'token', 'query'],
    });
  }, 30_000);
});
