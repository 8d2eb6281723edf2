import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { runTool } from '../../src/harness/run/execute.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readParts, readTool, validParams } from './fixtures.js';

/**
 * What runTool hands back around a call: the meta of every result, the errors of a composed
 * tool's own steps, and the wording of what went wrong.
 */
const SECRET = 'sk+live/a=b:c@"é';

/** A composed tool whose steps are the test's: it runs `steps` with the harness's context. */
function composed(steps: (ctx: Parameters<NonNullable<Parameters<typeof defineTool>[0]['run']>>[1]) => Promise<unknown>) {
  return defineTool({
    ...readParts,
    id: 'example_composed',
    output: z.looseObject({ ok: z.boolean() }),
    response: (res) => res.body as { ok: boolean },
    run: async (_params, ctx) => (await steps(ctx)) as { ok: boolean },
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('runTool: the meta of every result', () => {
  it('a refused call has its attempts and duration only: no status, no rate limit, no notes', async () => {
    const result = await runTool(readTool, { ...validParams, name: 'x' });
    expect(result.success).toBe(false);
    expect(Object.keys(result.meta).sort()).toEqual(['attempts', 'durationMs']);
    expect(result.meta.attempts).toBe(0);
  });

  it('durationMs is the time the call took, in whole ms', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const before = performance.now();
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: false });
    const took = performance.now() - before;
    expect(result).toMatchObject({ success: true, meta: { attempts: 1, status: 200 } });
    expect(Number.isInteger(result.meta.durationMs)).toBe(true);
    expect(result.meta.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.meta.durationMs).toBeLessThanOrEqual(Math.ceil(took));
    expect('notes' in result.meta).toBe(false);
    expect('rateLimit' in result.meta).toBe(false);
  });

  it('keeps the first rate limit a composed tool reports, and its notes in order', async () => {
    const tool = composed(async (ctx) => {
      ctx.reportRateLimit({ limit: 10, remaining: 3 });
      ctx.reportRateLimit({ limit: 99, remaining: 0 });
      ctx.note('first');
      ctx.note('second');
      return { ok: true };
    });
    const result = await runTool(tool, validParams);
    expect(result).toMatchObject({ success: true, output: { ok: true } });
    expect(result.meta.rateLimit).toEqual({ limit: 10, remaining: 3 });
    expect(result.meta.notes).toEqual(['first', 'second']);
  });
});

/** The read tool with a wire check: the service answers `{ rows }` as JSON, or plain text. */
const wired = defineTool({
  ...readParts,
  id: 'example_wired',
  wire: z.union([z.object({ rows: z.array(z.object({ name: z.string() })) }), z.string()]),
  output: z.looseObject({ ok: z.boolean() }),
  response: (res) => ({ ok: typeof res.body === 'string' || res.body.rows.length > 0 }),
});
const flatWire = defineTool({ ...readParts, id: 'example_flat_wire', wire: z.object({ rows: z.number() }), output: z.looseObject({ ok: z.boolean() }), response: () => ({ ok: true }) });

describe('runTool: what went wrong, in words', () => {
  it('refuses endpoints that are not http(s) URLs before anything is sent, naming each', async () => {
    const svc = mockService(ORIGIN);
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, endpoints: { example: 'ftp://files.example.test', other: 'not a url' } });
    expect(svc.requests).toEqual([]);
    expect(result).toMatchObject({
      success: false,
      error: {
        code: 'invalid_params',
        message: 'invalid options: endpoints.example: not an http(s) URL: "ftp://files.example.test"; endpoints.other: not an http(s) URL: "not a url"',
        issues: [{ path: 'endpoints.example' }, { path: 'endpoints.other' }],
      },
    });
    expect(result.meta.attempts).toBe(0);
  });

  it('a wire check names the service\'s own fields, inside the union branch the body took', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { rows: [{ name: 7 }] } }, { status: 200, body: 'plain answer' }, { status: 200, body: { rows: [{ name: 'a' }] } });
    const options = { dispatcher: svc.agent, retry: false as const };
    const bad = await runTool(wired, validParams, options);
    expect(bad).toMatchObject({ success: false, error: { code: 'invalid_response', status: 200, issues: [{ path: 'rows.0.name' }] } });
    expect(bad.success ? '' : bad.error.message).toMatch(/^the service answered with an unexpected shape: rows\.0\.name: /);
    expect(await runTool(wired, validParams, options)).toMatchObject({ success: true, output: { ok: true } });
    expect(await runTool(wired, validParams, options)).toMatchObject({ success: true, output: { ok: true } });
  });

  it('a wire check of a body of no branch names the body itself', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: [1, 2] }, { status: 200, body: { rows: 'many' } });
    const options = { dispatcher: svc.agent, retry: false as const };
    const neither = await runTool(wired, validParams, options);
    expect(neither).toMatchObject({ success: false, error: { code: 'invalid_response', issues: [{ path: '' }] } });
    expect(neither.success ? '' : neither.error.message).toMatch(/^the service answered with an unexpected shape: \(body\): /);
    const flat = await runTool(flatWire, validParams, options);
    expect(flat).toMatchObject({ success: false, error: { code: 'invalid_response', issues: [{ path: 'rows' }] } });
    expect(flat.success ? '' : flat.error.message).toMatch(/^the service answered with an unexpected shape: rows: /);
  });

  it('names each invalid param by its path, and the root when the params are no object', async () => {
    const named = await runTool(readTool, { ...validParams, name: 'x' });
    expect(named).toMatchObject({ success: false, error: { code: 'invalid_params', message: expect.stringMatching(/^invalid params: name: /), issues: [{ path: 'name' }] } });
    for (const params of [null, 'text', 42]) {
      const root = await runTool(readTool, params as never);
      expect(root).toMatchObject({ success: false, error: { code: 'invalid_params', message: expect.stringMatching(/^invalid params: \(root\): /), issues: [{ path: '' }] } });
    }
  });

  it('an output of the wrong shape is invalid_response, with its status and issues', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: 'yes' } });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: false });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_response', message: 'the service answered with an unexpected shape', status: 200, issues: [{ path: 'ok' }] },
    });
  });

  it('a step that throws is invalid_response, not retryable, with the error message (or the value thrown)', async () => {
    const thrownError = await runTool(composed(async () => Promise.reject(new Error('bad bytes'))), validParams);
    expect(thrownError).toMatchObject({ success: false, error: { code: 'invalid_response', message: 'could not read the response: bad bytes', retryable: false } });
    const thrownText = await runTool(composed(async () => Promise.reject('plain text')), validParams);
    expect(thrownText).toMatchObject({ success: false, error: { code: 'invalid_response', message: 'could not read the response: plain text', retryable: false } });
    const thrownNull = await runTool(composed(async () => Promise.reject(null)), validParams);
    expect(thrownNull).toMatchObject({ success: false, error: { message: 'could not read the response: null' } });
  });

  it('a step that throws after the caller aborted is aborted, not retryable', async () => {
    const abort = new AbortController();
    const tool = composed(async () => {
      abort.abort();
      throw new Error('socket closed');
    });
    const result = await runTool(tool, validParams, { signal: abort.signal });
    expect(result).toEqual({ success: false, error: { code: 'aborted', message: 'the call was aborted', retryable: false }, meta: expect.any(Object) });
  });

  it("a composed tool's sleep waits on the clock and ends with the caller's abort", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    let woke = false;
    const tool = composed(async (ctx) => {
      await ctx.sleep(1000);
      woke = true;
      return { ok: true };
    });
    const slept = runTool(tool, validParams);
    await vi.advanceTimersByTimeAsync(999);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await slept).toMatchObject({ success: true });

    const abort = new AbortController();
    woke = false;
    const stopped = runTool(tool, validParams, { signal: abort.signal });
    await vi.advanceTimersByTimeAsync(10);
    abort.abort();
    expect(await stopped).toMatchObject({ success: false, error: { code: 'aborted' } });
    expect(woke).toBe(false);
  });

  it('masks the secret param in an error a step throws, in every form', async () => {
    const tool = composed(async () => {
      throw new Error(`refused ${SECRET} (${encodeURIComponent(SECRET)})`);
    });
    const result = await runTool(tool, { ...validParams, apiKey: SECRET });
    const text = JSON.stringify(result);
    expect(result.success).toBe(false);
    expect(text).not.toContain(JSON.stringify(SECRET).slice(1, -1));
    expect(text).not.toContain(encodeURIComponent(SECRET));
  });
});
