/**
 * Every AI SDK major in the `ai` peer range (package.json: `^5 || ^6 || ^7`), each with its own
 * mock model: ai 5's MockLanguageModelV2, ai 6's V3, ai 7's V4. The old majors are installed
 * under aliases (`ai-v5`, `ai-v6`); `ai` itself is the current one.
 */
import * as ai7 from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as ai5 from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import * as ai6 from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toAiSdkTools } from '../../src/hosts/agents/index.js';
import { mockServices } from '../../src/testing/index.js';

const KEY = 'loops-key-of-every-major';
const CALL = { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'loops_find_contact', input: JSON.stringify({ email: 'ada@example.com', apiKey: 'model-made-up-key' }) };
const TEXT = { type: 'text' as const, text: 'done' };
const usageV3 = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A model that asks for one tool call, then answers with text, in each major's own result shape. */
const models = {
  5: () => {
    let step = 0;
    return new MockLanguageModelV2({
      doGenerate: async () => ({
        content: [step++ === 0 ? CALL : TEXT],
        finishReason: step === 1 ? 'tool-calls' : 'stop',
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        warnings: [],
      }),
    });
  },
  6: () => {
    let step = 0;
    return new MockLanguageModelV3({
      doGenerate: async () => ({ content: [step++ === 0 ? CALL : TEXT], finishReason: { unified: step === 1 ? 'tool-calls' : 'stop', raw: undefined }, usage: usageV3, warnings: [] }),
    });
  },
  7: () => {
    let step = 0;
    return new MockLanguageModelV4({
      doGenerate: async () => ({ content: [step++ === 0 ? CALL : TEXT], finishReason: { unified: step === 1 ? 'tool-calls' : 'stop', raw: undefined }, usage: usageV3, warnings: [] }),
    });
  },
};

const options = (dispatcher: ReturnType<typeof mockServices>) => ({ services: ['loops'] as const, readOnly: true, settings: { loops: { apiKey: KEY } }, execute: { dispatcher } });

/** Each major's own jsonSchema, tool set type and generateText, with its mock model: no cast, so each major's ToolSet takes our tools. */
const majors = [
  { major: 5, version: majorOf('ai-v5'), run: async (dispatcher: ReturnType<typeof mockServices>) => ai5.generateText({ model: models[5](), tools: await toAiSdkTools({ ...options(dispatcher), jsonSchema: ai5.jsonSchema }), stopWhen: ai5.stepCountIs(3), prompt: 'find ada' }) },
  { major: 6, version: majorOf('ai-v6'), run: async (dispatcher: ReturnType<typeof mockServices>) => ai6.generateText({ model: models[6](), tools: await toAiSdkTools({ ...options(dispatcher), jsonSchema: ai6.jsonSchema }), stopWhen: ai6.stepCountIs(3), prompt: 'find ada' }) },
  { major: 7, version: majorOf('ai'), run: async (dispatcher: ReturnType<typeof mockServices>) => ai7.generateText({ model: models[7](), tools: await toAiSdkTools({ ...options(dispatcher), jsonSchema: ai7.jsonSchema }), stopWhen: ai7.stepCountIs(3), prompt: 'find ada' }) },
];

function majorOf(name: string): number {
  return Number((JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version.split('.')[0]);
}

describe('toAiSdkTools with every supported AI SDK major', () => {
  it('the peer range names exactly the majors tested here', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { peerDependencies: Record<string, string> };
    expect(pkg.peerDependencies.ai).toBe('^5.0.0 || ^6.0.0 || ^7.0.0');
    expect(majors.map(({ major, version }) => [major, version])).toEqual([
      [5, 5],
      [6, 6],
      [7, 7],
    ]);
  });

  it.each(majors)('ai $major: a model\'s call runs through the harness with the configured key, and the model gets the output', async ({ run }) => {
    const mock = mockServices();
    const result = await run(mock);
    const [call] = mock.calls('loops_find_contact');
    expect(mock.calls()).toHaveLength(1);
    expect(call).toMatchObject({ method: 'GET', path: '/api/v1/contacts/find', query: { email: 'ada@example.com' }, outcome: 200 });
    expect(call!.headers.authorization).toBe('Bearer [redacted]');
    expect(JSON.stringify(call)).not.toContain('model-made-up-key');
    const toolResult = result.steps[0]!.toolResults[0]!;
    expect(toolResult).toMatchObject({ toolName: 'loops_find_contact', output: { ok: true, output: { contacts: [expect.objectContaining({ email: expect.any(String) })] } } });
    expect(result.text).toBe('done');
  });
});
