import { describe, expect, it } from 'vitest';
import { executeTool, getTool } from '../../src/index.js';
import { decodeBody } from '../../src/harness/send/decode-body.js';
import { builtinFixtureFiles, FAILURE_NAMES, mockServices, type FixtureAnswer } from '../../src/testing/index.js';
import { answerOutcome } from '../../src/testing/faults.js';
import { toolIdsOf } from '../helpers/service-tables.js';
import { fullParams } from './helpers.js';

const files = builtinFixtureFiles();
const fixturesOf = (id: string) => files.find((file) => Object.hasOwn(file.tools, id))?.tools[id];
const fileOf = (service: string) => files.find((file) => file.service === service)!;
// Every tool of every service with a fixture file (a service without one is not mocked: its own work).
const tools = toolIdsOf(files.map((file) => file.service!))
  .filter((id) => !id.endsWith('_api_call'))
  .map((id) => getTool(id)!);

/** What the harness reads from a fixture's bytes: the body its `wire` schema then checks. */
function wireBody(answer: FixtureAnswer): unknown {
  const outcome = answerOutcome(answer);
  if (outcome.kind !== 'reply') throw new Error('a fixture answer is a reply');
  return decodeBody(outcome.status, outcome.headers, outcome.body, 'GET').body;
}

describe('every tool has fixtures that its own wire schema accepts', () => {
  it.each(tools.map((tool) => [tool.id, tool] as const))('%s', async (_id, tool) => {
    const fixtures = fixturesOf(tool.id);
    expect(fixtures?.params, `${tool.id} has example params`).toBeDefined();
    expect(fixtures?.success, `${tool.id} has a success fixture`).toBeDefined();
    const success = fixtures!.success!;
    if (tool.wire) {
      const checked = tool.wire.safeParse(wireBody(success));
      expect(checked.error?.issues ?? [], `${tool.id}: ${success.source}`).toEqual([]);
    }
    // The whole call through the mock: routed back to this tool, answered, checked, mapped.
    const mock = mockServices();
    const result = await executeTool(tool.id, fullParams(tool, fixtures!.params!), { dispatcher: mock, retry: false });
    expect(result.success ? 'ok' : result.error, tool.id).toBe('ok');
    expect(mock.calls().map((call) => call.toolId)).toContain(tool.id);
    expect(mock.calls()[0]!.toolId).toBe(tool.id);
  });
});

describe('every documented failure is reported by each tool as its code', () => {
  const cases = tools.flatMap((tool) =>
    FAILURE_NAMES.flatMap((name) => {
      const answer = fixturesOf(tool.id)?.failures?.[name] ?? fileOf(tool.service).failures?.[name];
      return answer ? [[tool.id, name, answer.status, tool] as const] : [];
    }),
  );

  it.each(cases)('%s: %s (%i)', async (id, name, status, tool) => {
    const mock = mockServices().fail(id, name, { retryAfterSeconds: 0 });
    const result = await executeTool(id, fullParams(tool, fixturesOf(id)!.params!), { dispatcher: mock, retry: false });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toMatchObject({ code: name, status });
  });

  it('each service documents 429 and 5xx, and 401 or 403, and 404', () => {
    for (const file of files) {
      const names = Object.keys(file.failures ?? {});
      expect(names, file.service).toEqual(expect.arrayContaining(['rate_limited', 'upstream_error', 'not_found']));
      expect(names.includes('unauthorized') || names.includes('forbidden'), file.service).toBe(true);
    }
  });
});

describe('where the fixtures come from', () => {
  it('every answer names its source: a vendor document or the schema', () => {
    const answers = files.flatMap((file) => [
      ...Object.values(file.failures ?? {}),
      ...Object.values(file.tools).flatMap((tool) => [...(tool.success ? [tool.success] : []), ...Object.values(tool.failures ?? {})]),
    ]);
    const fromDocs = answers.filter((answer) => answer.source.startsWith('vendor doc:')).length;
    const fromSchema = answers.filter((answer) => answer.source.startsWith('made from the schema:')).length;
    expect(fromDocs + fromSchema).toBe(answers.length);
    if (process.env.FIXTURE_COUNTS) console.log(`fixtures: ${answers.length} answers, ${fromDocs} from vendor documents, ${fromSchema} made from schemas`);
  });
});
