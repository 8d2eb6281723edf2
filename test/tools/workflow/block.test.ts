import { describe, expect, it } from 'vitest';
import { getBlock, toolJsonSchema } from '../../../src/index.js';
import { service } from '../../../tools/workflow/index.js';

const workflowTools = service.tools;

const block = getBlock('workflow')!;
const { manifest } = block;
const field = (id: string) => manifest.fields.find((f) => f.id === id)!;

describe('workflow block', () => {
  it('offers the six operations, one per tool', () => {
    expect(field('operation').options).toEqual([
      { id: 'execute', label: 'Execute workflow' },
      { id: 'get_job', label: 'Get job' },
      { id: 'list_logs', label: 'List logs' },
      { id: 'get_log', label: 'Get log' },
      { id: 'get_execution', label: 'Get execution' },
      { id: 'api_call', label: 'Custom API call' },
    ]);
    expect(manifest.tools.access).toEqual(workflowTools.map((t) => t.id));
  });

  it('derives its fields from the tools: shared credentials, per-operation params, editor hints', () => {
    expect(field('apiKey')).toMatchObject({ password: true, visibility: 'user-only', requiredFor: manifest.tools.access.map((id) => id.replace('workflow_', '')) });
    expect(field('base_url')).toMatchObject({ visibility: 'user-only' });
    expect(field('base_url').password).toBeUndefined();
    expect(field('inputs')).toMatchObject({ type: 'code', language: 'json', default: {}, condition: { value: ['execute'] } });
    expect(field('waitForCompletion')).toMatchObject({ type: 'switch', default: false, condition: { value: ['execute', 'get_job'] } });
    expect(field('order')).toMatchObject({ type: 'dropdown', default: 'desc', options: [{ id: 'desc' }, { id: 'asc' }] });
    expect(field('executionId')).toMatchObject({ condition: { value: ['list_logs', 'get_execution'] }, requiredFor: ['get_execution'] });
    expect(manifest.outputs.list_logs).toMatchObject({ data: { type: 'array' }, nextCursor: { type: 'string' } });
    expect(manifest.outputs.get_job!.output).toMatchObject({ optional: true });
  });

  it('resolves editor values, parsing JSON fields given as text', () => {
    const { tool, params } = block.resolve({
      operation: 'execute',
      base_url: 'https://workflows.example.com',
      apiKey: 'k',
      workflowId: 'wf_1',
      inputs: '{"n": 1}',
      async: true,
      workspaceId: 'ignored for this operation',
    });
    expect(tool.id).toBe('workflow_execute');
    expect(params).toEqual({ base_url: 'https://workflows.example.com', apiKey: 'k', workflowId: 'wf_1', inputs: { n: 1 }, async: true });
  });

  it('never shows a model the API key or base URL', () => {
    for (const tool of workflowTools) {
      const llm = toolJsonSchema(tool.id, { audience: 'llm' }) as { properties: Record<string, unknown> };
      expect(Object.keys(llm.properties), tool.id).not.toContain('apiKey');
      expect(Object.keys(llm.properties), tool.id).not.toContain('base_url');
    }
  });
});
