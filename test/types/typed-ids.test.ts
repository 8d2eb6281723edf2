/**
 * Type test (checked by `tsc -p tsconfig.check.json`, which `npm test` runs): literal tool ids
 * and block types are typed end to end. The `@ts-expect-error` lines fail the type check if
 * they compile.
 */
import { expect, expectTypeOf, it } from 'vitest';
import { executeTool, getBlock, getTool, runTool, type ToolId } from '../../src/index.js';

it('types executeTool, getTool and getBlock by literal id', async () => {
  const _call = () =>
    executeTool('tinybird_query', { base_url: 'http://127.0.0.1:9', token: 't', query: 'SELECT 1' }, { retry: false, timeoutMs: 100 });
  type Result = Awaited<ReturnType<typeof _call>>;
  expectTypeOf<Extract<Result, { success: true }>['output']['data']>().not.toBeUnknown();
  expectTypeOf<Extract<Result, { success: true }>['output']>().toHaveProperty('rows');

  const tool = getTool('loops_find_contact');
  expectTypeOf(tool.id).toEqualTypeOf<'loops_find_contact'>();
  const block = getBlock('tinybird');
  expectTypeOf(block).not.toBeUndefined();
  expectTypeOf(block.resolve({ operation: 'query' }).tool.id).toEqualTypeOf<Extract<ToolId, `tinybird_${string}`>>();
  expectTypeOf(getBlock('some-other' as string)).toBeNullable();

  const never = () => {
    // @ts-expect-error a param the tool does not have
    void executeTool('tinybird_query', { base_url: 'http://x', token: 't', query: 'SELECT 1', nope: 1 });
    // @ts-expect-error a param of the wrong type
    void executeTool('tinybird_query', { base_url: 'http://x', token: 't', query: 42 });
    // @ts-expect-error a required param missing
    void executeTool('workflow_list_logs', { base_url: 'http://x', apiKey: 'k' });
    // @ts-expect-error a tool object types its params too (#31)
    void executeTool(getTool('tinybird_query'), { base_url: 'http://x', token: 't', qeury: 'SELECT 1' });
    // @ts-expect-error and so does runTool
    void runTool(getTool('tinybird_query'), { base_url: 'http://x', token: 't' });
  };
  expect(typeof never).toBe('function');
  // An id only known at run time still takes any params, and its output is unknown.
  const dynamic: string = 'tinybird_query';
  expectTypeOf(executeTool(dynamic, {})).resolves.toHaveProperty('success');
  expect(block.type).toBe('tinybird');
});
