/**
 * An agent answers a question about data it has never seen: it lists the Data Sources, reads
 * the columns of the one that fits, writes SQL from those names and runs it, all against the
 * sandbox. The model is scripted, but each step reads only what earlier tool results told it:
 * no Data Source or column name below reaches it except through the tools.
 */
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAiSdkTools } from '../../src/hosts/agents/index.js';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A Data Source the scripted model knows nothing about: its name and columns are found through the tools. */
const ACTIVITY = `
SCHEMA >
    \`happened_at\` DateTime \`json:$.happened_at\`,
    \`action_name\` LowCardinality(String) \`json:$.action_name\`,
    \`account_ref\` String \`json:$.account_ref\`

ENGINE "MergeTree"
ENGINE_SORTING_KEY "happened_at"
`;

let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ tinybird: { datasources: { product_activity: ACTIVITY } }, servicePorts: false });
  const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
  const rows = [
    { happened_at: at(1), action_name: 'signup', account_ref: 'a1' },
    { happened_at: at(2), action_name: 'signup', account_ref: 'a2' },
    { happened_at: at(3), action_name: 'login', account_ref: 'a1' },
    { happened_at: at(6), action_name: 'signup', account_ref: 'a3' },
    { happened_at: at(20), action_name: 'signup', account_ref: 'a4' },
  ];
  const ingested = await executeTool('tinybird_events', {
    base_url: sb.urls.tinybird,
    token: sb.credentials.tinybird.adminToken,
    datasource: 'product_activity',
    data: rows.map((r) => JSON.stringify(r)).join('\n'),
    wait: true,
  });
  expect(ingested).toMatchObject({ success: true, output: { successful_rows: 5 } });
});
afterAll(async () => {
  await sb?.close();
});

type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];
type ToolOutput = { ok: boolean; output?: Record<string, unknown> };

/** The output of the last tool result in the prompt. */
function lastToolResult(prompt: Prompt): ToolOutput {
  for (const message of [...prompt].reverse()) {
    if (message.role !== 'tool') continue;
    const part = message.content.findLast((p) => p.type === 'tool-result');
    if (part && part.type === 'tool-result' && part.output.type === 'json') return part.output.value as ToolOutput;
  }
  throw new Error('no tool result yet');
}

/** Plans each step from the previous tool result, as a model would. */
function discoveringModel() {
  let step = 0;
  const call = (toolName: string, input: unknown) => ({
    content: [{ type: 'tool-call' as const, toolCallId: `c${step}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls' as const, raw: undefined },
    usage,
    warnings: [],
  });
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      step++;
      if (step === 1) return call('tinybird_list_datasources', {});
      const result = lastToolResult(prompt);
      if (step === 2) {
        // The Data Source with a time column and an action/event-like column.
        const list = result.output!.datasources as { name: string; columns: { name: string; type: string }[] }[];
        const candidate = list.find((d) => d.columns.some((c) => /DateTime/.test(c.type)) && d.columns.some((c) => /action|event/.test(c.name)) && d.name !== 'events');
        return call('tinybird_get_datasource', { datasource: candidate!.name });
      }
      if (step === 3) {
        const ds = result.output as { name: string; columns: { name: string; type: string }[] };
        const time = ds.columns.find((c) => /DateTime/.test(c.type))!.name;
        const action = ds.columns.find((c) => /action|event/.test(c.name))!.name;
        const query = `SELECT count() AS signups FROM ${ds.name} WHERE ${action} = 'signup' AND ${time} >= now() - INTERVAL 7 DAY FORMAT JSON`;
        return call('tinybird_query', { query });
      }
      const rows = result.output!.data as { signups: number }[];
      return { content: [{ type: 'text', text: `${rows[0]!.signups} signups last week` }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}

describe('an agent loop over the sandbox', () => {
  it('answers "how many signups last week" by listing Data Sources, reading columns and running a query', async () => {
    const tools = await toAiSdkTools({
      services: ['tinybird'],
      readOnly: true,
      settings: { tinybird: { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.readToken } },
    });
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['tinybird_list_datasources', 'tinybird_get_datasource', 'tinybird_query']));
    const result = await generateText({ model: discoveringModel(), tools, stopWhen: stepCountIs(6), prompt: 'How many signups last week?' });
    expect(result.steps.flatMap((s) => s.toolCalls.map((c) => c.toolName))).toEqual(['tinybird_list_datasources', 'tinybird_get_datasource', 'tinybird_query']);
    expect(result.steps[2]!.toolCalls[0]!.input).toEqual({
      query: "SELECT count() AS signups FROM product_activity WHERE action_name = 'signup' AND happened_at >= now() - INTERVAL 7 DAY FORMAT JSON",
    });
    expect(result.text).toBe('3 signups last week');
    expect(JSON.stringify(result.steps)).not.toContain(sb.credentials.tinybird.readToken);
  });
});
