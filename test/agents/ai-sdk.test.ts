import { generateText, jsonSchema, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { toAiSdkTools } from '../../src/hosts/agents/index.js';
import { mockService } from '../helpers/mock-service.js';

const LOOPS = 'https://app.loops.so';
const KEY = 'loops-secret-key-123';
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that asks for one tool call, then answers with text. */
function modelCalling(toolName: string, input: unknown) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () =>
      step++ === 0
        ? { content: [{ type: 'tool-call', toolCallId: 'c1', toolName, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }
        : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
  });
}

describe('toAiSdkTools', () => {
  it('runs a model\'s call through the harness with the configured key, never the model\'s', async () => {
    const svc = mockService(LOOPS);
    svc.on('GET', '/api/v1/contacts/find', { status: 200, body: [{ id: 'c1', email: 'ada@example.com', firstName: 'Ada', source: 'API', subscribed: true, userGroup: '', userId: null, mailingLists: {}, optInStatus: null }] });
    const tools = await toAiSdkTools({ services: ['loops'], readOnly: true, settings: { loops: { apiKey: KEY } }, execute: { dispatcher: svc.agent } });
    expect(Object.keys(tools)).toContain('loops_find_contact');
    expect(Object.keys(tools)).not.toContain('loops_send_event');

    const result = await generateText({
      model: modelCalling('loops_find_contact', { email: 'ada@example.com', apiKey: 'model-made-up-key' }),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'find ada',
    });
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(svc.requests[0]!.query).toEqual({ email: 'ada@example.com' });
    const toolResult = result.steps[0]!.toolResults[0]!;
    expect(toolResult.output).toMatchObject({ ok: true, output: { contacts: [{ email: 'ada@example.com' }] } });
    expect(JSON.stringify(result.steps)).not.toContain(KEY);
    expect(result.text).toBe('done');
  });

  it('hands the model a readable error for bad arguments, with nothing sent', async () => {
    const svc = mockService(LOOPS);
    const tools = await toAiSdkTools({ jsonSchema, services: ['loops'], settings: { loops: { apiKey: KEY } }, execute: { dispatcher: svc.agent } });
    const result = await generateText({ model: modelCalling('loops_find_contact', { email: 'not-an-address' }), tools, stopWhen: stepCountIs(3), prompt: 'x' });
    expect(svc.requests).toHaveLength(0);
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({ ok: false, error: { code: 'invalid_params', message: expect.stringContaining('email') } });
  });

  it('with strict: true, offers the strict schemas and decodes the strict call', async () => {
    const svc = mockService('https://api.tinybird.co');
    svc.on('GET', '/v0/jobs/j1', { status: 200, body: { id: 'j1', job_id: 'j1', kind: 'delete_data', status: 'done', created_at: '2026-11-22 10:00:00', updated_at: '2026-11-22 10:00:01' } });
    const seen: unknown[] = [];
    const tools = await toAiSdkTools({
      jsonSchema: (schema) => (seen.push(schema), jsonSchema(schema as Parameters<typeof jsonSchema>[0])),
      strict: true,
      services: ['tinybird'],
      readOnly: true,
      settings: { tinybird: { base_url: 'https://api.tinybird.co', token: 'p.tb-secret' } },
      execute: { dispatcher: svc.agent },
    });
    expect(tools.tinybird_get_job!.strict).toBe(true);
    expect(seen[2]).toMatchObject({ additionalProperties: false, required: ['job_id', 'wait_for_completion', 'timeout_seconds'] });
    const out = await tools.tinybird_get_job!.execute({ job_id: 'j1', wait_for_completion: null, timeout_seconds: null }, {});
    expect(svc.requests.map((r) => r.path)).toEqual(['/v0/jobs/j1']);
    expect(out.ok).toBe(true);
  });
});
