/**
 * A body JSON cannot hold is the caller's params: `invalid_params` naming where, nothing sent
 * (it read "could not read the response", an `invalid_response`, before).
 */
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { buildRequest } from '../../src/harness/send/request.js';
import { ToolFailure } from '../../src/harness/errors.js';
import { mockService } from '../helpers/mock-service.js';

const ORIGIN = 'http://workflow.test';
const base = { base_url: ORIGIN, apiKey: 'wf-key-json-body-0001', workflowId: 'wf_daily_report' };

function refusal(json: unknown): ToolFailure {
  try {
    buildRequest({ method: 'POST', url: `${ORIGIN}/x`, body: { json } });
  } catch (error) {
    if (error instanceof ToolFailure) return error;
    throw error;
  }
  throw new Error('built');
}

describe('a JSON body with a value JSON cannot hold', () => {
  it('names a BigInt by its path', () => {
    expect(refusal({ a: [1, { b: 2n }] }).error).toEqual({
      code: 'invalid_params',
      message: 'invalid params: the request body at a.1.b cannot be sent as JSON: a BigInt is no JSON number (send it as a string or a number)',
      retryable: false,
      issues: [{ path: 'a.1.b', message: 'cannot be sent as JSON: a BigInt is no JSON number (send it as a string or a number)' }],
    });
  });

  it('walks past nulls and strings to the value at fault', () => {
    expect(refusal({ z: null, s: 'ab', list: [null, 'cd'], n: 1n }).error.issues).toEqual([
      { path: 'n', message: 'cannot be sent as JSON: a BigInt is no JSON number (send it as a string or a number)' },
    ]);
  });

  it('names a circular reference where it closes, and takes a shared object seen twice', () => {
    const shared = { n: 1 };
    const loop: Record<string, unknown> = { shared, again: shared };
    loop.child = { back: loop };
    expect(refusal(loop).error.issues).toEqual([{ path: 'child.back', message: 'cannot be sent as JSON: it refers back to an object that holds it (a circular reference)' }]);
    expect(buildRequest({ method: 'POST', url: `${ORIGIN}/x`, body: { json: { shared, again: shared } } })).toMatchObject({ body: '{"shared":{"n":1},"again":{"n":1}}' });
  });

  it("gives a throwing toJSON's own message, and a root BigInt the root", () => {
    expect(refusal({ d: { toJSON: () => { throw new Error('no date here'); } } }).error.issues).toEqual([{ path: '', message: 'cannot be sent as JSON: no date here' }]);
    expect(refusal(7n).error.message).toBe('invalid params: the request body cannot be sent as JSON: a BigInt is no JSON number (send it as a string or a number)');
  });

  it('says a body nested past the stack is too deep', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(refusal(deep).error).toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/cannot be sent as JSON: .*call stack/i) });
  });

  it('refuses an NDJSON line the same way', () => {
    expect(() => buildRequest({ method: 'POST', url: `${ORIGIN}/x`, body: { ndjson: [{ ok: 1 }, { n: 1n }] } })).toThrow(/request body at n cannot be sent as JSON: a BigInt/);
  });

  it("is a workflow execute's invalid_params naming inputs, with nothing sent", async () => {
    const svc = mockService(ORIGIN);
    const result = await executeTool('workflow_execute', { ...base, inputs: { count: 10n } } as never, { dispatcher: svc.agent, retry: false });
    expect(svc.requests).toHaveLength(0);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'inputs.count' }] } });
  });
});
