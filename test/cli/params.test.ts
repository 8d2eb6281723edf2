import { expect, it } from 'vitest';
import { collectParams } from '../../src/satellites/cli/params.js';
import { toolJsonSchema } from '../../src/index.js';
import { cli } from './run-cli.js';

it('reads --param by the type the tool declares: text for string params, JSON for the others', async () => {
  const schema = toolJsonSchema('workflow_list_logs') as { properties?: Record<string, unknown> };
  const params = await collectParams({ param: ['workspaceId=42', 'limit=5', 'apiKey=true'] }, async () => '', schema);
  expect(params).toEqual({ workspaceId: '42', limit: 5, apiKey: 'true' });
  const pipe = toolJsonSchema('tinybird_query_pipe') as { properties?: Record<string, unknown> };
  expect(await collectParams({ param: ['parameters={"limit":3}'] }, async () => '', pipe)).toEqual({ parameters: { limit: 3 } });
});

it('run: --param userId=42 reaches the schema as the string "42"', async () => {
  const out = await cli(['run', 'workflow_list_logs', '--param', 'workspaceId=42', '--param', 'apiKey=k', '--param', 'base_url=notaurl']);
  expect(out.stderr).not.toContain('expected string, received number');
  expect(out.stderr).toContain('base_url');
});

it('the sandbox prints commands that run from where it runs: npm run flowblocks in a clone, npx flowblocks installed', async () => {
  const { cliInvocation } = await import('../../src/satellites/cli/sandbox-command.js');
  expect(cliInvocation('file:///repo/src/satellites/cli/sandbox-command.ts')).toBe('npm run --silent flowblocks --');
  expect(cliInvocation('file:///app/node_modules/flowblocks/dist/src/satellites/cli/sandbox-command.js')).toBe('npx flowblocks');
});
