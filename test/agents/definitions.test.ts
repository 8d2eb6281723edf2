import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentDefinition, anthropicTools, openAiChatTools, openAiResponsesTools, strictView } from '../../src/hosts/agents/index.js';
import { paramNames } from '../../src/harness/define/fields.js';
import { getTool, listTools } from '../../src/index.js';
import { strictViolations } from './strict-rules.js';

const tools = listTools();

describe('agent definitions of every tool', () => {
  it.each(tools.map((tool) => [tool.id, tool] as const))('%s: plain and strict definitions', (_id, tool) => {
    expect(agentDefinition(tool)).toMatchSnapshot('plain');
    expect(agentDefinition(tool, { strict: true })).toMatchSnapshot('strict');
  });

  it.each(tools.map((tool) => [tool.id, tool] as const))('%s: the strict schema follows the strict-mode rules', (_id, tool) => {
    expect(strictViolations(strictView(tool).schema)).toEqual([]);
  });

  it.each(tools.map((tool) => [tool.id, tool] as const))('%s: no user-only param reaches a model', (_id, tool) => {
    const hidden = paramNames(tool.params, (meta) => meta.visibility === 'user-only');
    expect(hidden.length).toBeGreaterThan(0);
    for (const definition of [agentDefinition(tool), agentDefinition(tool, { strict: true })]) {
      for (const name of hidden) expect(Object.keys(definition.parameters.properties as object)).not.toContain(name);
    }
  });
});

describe('the strict-mode checker', () => {
  // The checker must be able to fail, or the test above proves nothing.
  it('flags each rule a strict mode enforces', () => {
    expect(strictViolations({ type: 'object', properties: { a: { type: 'string' } }, required: [] })).toEqual([
      '$: additionalProperties must be false',
      '$.a: not in required',
    ]);
    expect(strictViolations({ type: 'object', properties: { a: { type: 'string', minLength: 1, format: 'email' } }, required: ['a'], additionalProperties: false })).toEqual([
      '$.a: keyword minLength is refused in strict mode',
      '$.a: keyword format is refused in strict mode',
    ]);
    expect(strictViolations({ anyOf: [{ type: 'object' }] })).toContain('$: the root must be an object schema');
    expect(strictViolations({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['m'], additionalProperties: false })).toEqual([
      '$.m: an object needs properties',
      '$.m: additionalProperties must be false',
    ]);
    expect(strictViolations({ type: 'object', properties: { x: {}, y: { type: ['string', 'null'] } }, required: ['x', 'y'], additionalProperties: false })).toEqual([
      '$.x: says nothing about its type',
      '$.y: type must be one type name',
    ]);
  });

  it('flags the llm schemas, which are not strict', () => {
    const { $schema: _dialect, ...llm } = agentDefinition(getTool('tinybird_query')!).parameters;
    expect(strictViolations(llm)).toEqual(expect.arrayContaining(['$: additionalProperties must be false', '$.pipeline: not in required']));
  });
});

describe('strict decoding', () => {
  const parse = (id: string, strictArgs: unknown, user: Record<string, unknown>) => {
    const tool = getTool(id)!;
    return (tool.params as z.ZodType).safeParse({ ...(strictView(tool).decode(strictArgs) as object), ...user });
  };

  it('turns nulls back into absent params, so defaults apply', () => {
    const decoded = strictView(getTool('tinybird_get_job')!).decode({ job_id: 'j1', wait_for_completion: null, timeout_seconds: null });
    expect(decoded).toEqual({ job_id: 'j1' });
    const parsed = parse('tinybird_get_job', { job_id: 'j1', wait_for_completion: null, timeout_seconds: null }, { token: 't', base_url: 'http://127.0.0.1:1' });
    expect(parsed.success && parsed.data).toMatchObject({ job_id: 'j1', wait_for_completion: false, timeout_seconds: 300 });
  });

  it('turns {key, value} pairs back into maps, nested ones too', () => {
    const decoded = strictView(getTool('loops_send_transactional_email')!).decode({
      email: 'a@example.com',
      transactionalId: 'tx_1',
      dataVariables: [
        { key: 'name', value: 'Ada' },
        { key: 'items', value: [[{ key: 'sku', value: 'A1' }, { key: 'qty', value: 2 }]] },
      ],
      addToAudience: null,
      attachments: null,
    });
    expect(decoded).toEqual({ email: 'a@example.com', transactionalId: 'tx_1', dataVariables: { name: 'Ada', items: [{ sku: 'A1', qty: 2 }] } });
  });

  it('keeps null where the param itself takes null (reset a contact property)', () => {
    const decoded = strictView(getTool('loops_update_contact')!).decode({
      email: 'a@example.com', userId: null, firstName: null, lastName: null, source: null, subscribed: null, userGroup: null, mailingLists: null,
      customProperties: [{ key: 'planName', value: null }],
    });
    expect(decoded).toEqual({ email: 'a@example.com', customProperties: { planName: null } });
  });

  it('parses JSON text back into a free-form object, and leaves bad text for the tool to refuse', () => {
    const tool = getTool('workflow_execute')!;
    const call = { workflowId: 'wf', async: null, waitForCompletion: null, timeoutSeconds: null, pollIntervalSeconds: null };
    expect(strictView(tool).decode({ ...call, inputs: '{"email":"a@example.com"}' })).toEqual({ workflowId: 'wf', inputs: { email: 'a@example.com' } });
    const bad = parse('workflow_execute', { ...call, inputs: '{nope' }, { apiKey: 'k', base_url: 'http://127.0.0.1:1' });
    expect(bad.success).toBe(false);
  });

  it('keeps the constraints strict mode refuses in the description', () => {
    const props = strictView(getTool('workflow_list_logs')!).schema.properties as Record<string, { description: string }>;
    expect(props.limit!.description).toBe('Entries per page (1 to 1000; null means the default, 100)');
    expect(props.maxEntries!.description).toBe('With followCursor: stop after this many entries (at least 1)');
  });
});

describe('API shapes', () => {
  it('wraps the definitions as OpenAI and Anthropic expect them', () => {
    const chat = openAiChatTools({ services: ['tinybird'], readOnly: true, strict: true });
    expect(chat.map((t) => t.function.name)).toEqual([
      'tinybird_query', 'tinybird_query_pipe', 'tinybird_get_job',
      'tinybird_list_datasources', 'tinybird_get_datasource', 'tinybird_list_pipes', 'tinybird_get_pipe', 'tinybird_list_jobs',
    ]);
    expect(chat[0]).toMatchObject({ type: 'function', function: { strict: true, parameters: { additionalProperties: false } } });
    expect(openAiResponsesTools({ services: ['loops'] })[0]).toMatchObject({ type: 'function', name: 'loops_create_contact', strict: false });
    const anthropic = anthropicTools({ services: ['workflow'], readOnly: true });
    expect(anthropic[0]).toEqual({ name: 'workflow_get_job', description: expect.stringContaining('Read-only.'), input_schema: expect.objectContaining({ type: 'object' }) });
    expect(anthropicTools({ services: ['workflow'], strict: true })[0]).toMatchObject({ strict: true });
  });

  it('says what a tool does to the world and what its credential needs', () => {
    expect(agentDefinition(getTool('tinybird_truncate_datasource')!).description).toContain('Destructive: changes or removes existing data. Safe to repeat with the same arguments. Token scopes: DATASOURCES:CREATE');
    expect(agentDefinition(getTool('loops_send_event')!).description).toContain('Writes data. Not idempotent: a repeat acts again. Needs the service API key');
  });
});
