import { describe, expect, it } from 'vitest';
import { getBlock, getTool, listBlocks, listTools, mergeLlmParams, toolJsonSchema } from '../src/index.js';
import { paramNames } from '../src/harness/define/fields.js';

const TINYBIRD_TOOLS = [
  'tinybird_events',
  'tinybird_query',
  'tinybird_query_pipe',
  'tinybird_append_datasource',
  'tinybird_append_data',
  'tinybird_truncate_datasource',
  'tinybird_delete_datasource_rows',
  'tinybird_get_job',
  'tinybird_list_datasources',
  'tinybird_get_datasource',
  'tinybird_list_pipes',
  'tinybird_get_pipe',
  'tinybird_list_jobs',
  'tinybird_cancel_job',
  'tinybird_create_token',
  'tinybird_api_call',
];

describe('registry', () => {
  it('lists every tool of every block, with unique snake_case ids', () => {
    const ids = listTools().map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining(TINYBIRD_TOOLS));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+_[a-z_]+$/);
    for (const block of listBlocks()) for (const tool of block.tools) expect(getTool(tool.id)).toBe(tool);
  });

  it('finds blocks and tools by id, and nothing for unknown ones', () => {
    expect(getBlock('tinybird')?.tools.map((t) => t.id)).toEqual(TINYBIRD_TOOLS);
    expect(getBlock('nope')).toBeUndefined();
    expect(getTool('nope' as string)).toBeUndefined();
  });

  it('gives every tool a description, annotations, and a base URL or service key', () => {
    for (const tool of listTools()) {
      expect(tool.description.length, tool.id).toBeGreaterThan(30);
      expect(typeof tool.annotations.readOnly).toBe('boolean');
      expect(tool.service, tool.id).toMatch(/^[a-z]+$/);
      if (tool.annotations.readOnly) expect(tool.annotations.destructive, tool.id).toBe(false);
    }
  });
});

describe('toolJsonSchema', () => {
  it('leaves user-only params out of the llm view and keeps them in the full view', () => {
    const full = toolJsonSchema('tinybird_query', { audience: 'full' }) as { properties: object; required: string[] };
    const llm = toolJsonSchema('tinybird_query', { audience: 'llm' }) as { properties: object; required: string[] };
    expect(Object.keys(full.properties)).toEqual(['base_url', 'token', 'query', 'pipeline']);
    expect(full.required).toEqual(['base_url', 'token', 'query']);
    expect(Object.keys(llm.properties)).toEqual(['query', 'pipeline']);
    expect(llm.required).toEqual(['query']);
    expect(toolJsonSchema('tinybird_query')).toBe(full);
  });

  it('never shows a credential to a model, for any tool', () => {
    for (const tool of listTools()) {
      const llm = JSON.stringify(toolJsonSchema(tool.id, { audience: 'llm' }));
      for (const name of paramNames(tool.params, (m) => m.visibility === 'user-only')) {
        expect(llm, tool.id).not.toContain(`"${name}"`);
      }
    }
  });

  it('drops a model value for a user-only param and fills the user value', () => {
    const tool = getTool('tinybird_query')!;
    expect(
      mergeLlmParams(tool, { query: 'SELECT 1', token: 'model-made-this-up', base_url: 'https://evil' }, { token: 't', base_url: 'https://api.tinybird.co' }),
    ).toEqual({ query: 'SELECT 1', token: 't', base_url: 'https://api.tinybird.co' });
  });

  it('throws for an unknown tool', () => {
    expect(() => toolJsonSchema('nope')).toThrow('no tool with id nope');
  });

  it.each(listTools().map((t) => t.id))('%s schemas match the snapshot', (id) => {
    expect({
      llm: toolJsonSchema(id, { audience: 'llm' }),
      full: toolJsonSchema(id, { audience: 'full' }),
    }).toMatchSnapshot();
  });
});
