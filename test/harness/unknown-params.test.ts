/**
 * #31 items 7 and 9, in the harness: a key that is no param of the tool is refused with a
 * "did you mean", and a missing param is said to be required. Nothing is sent either way.
 */
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { runTool } from '../../src/harness/run/execute.js';
import { mockService } from '../helpers/mock-service.js';
import { readTool } from './fixtures.js';

const ORIGIN = 'http://tinybird.test';
const base = { base_url: ORIGIN, token: 'p.secret-token-1234' };

describe('an unknown param', () => {
  it('is invalid_params naming it, with the param it resembles, and nothing is sent', async () => {
    const svc = mockService(ORIGIN);
    const result = await executeTool('tinybird_query_pipe', { ...base, pipelin: 'top_events' } as never, { dispatcher: svc.agent });
    expect(svc.requests).toHaveLength(0);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params' } });
    if (result.success) return;
    expect(result.error.issues).toEqual([
      { path: 'pipelin', message: "unknown param (did you mean 'pipe'?)" },
      { path: 'pipe', message: 'required (expected string)' },
    ]);
    expect(result.error.message).toBe(
      "invalid params: pipelin: unknown param (did you mean 'pipe'?); pipe: required (expected string)",
    );
  });

  it('is refused even when every other param is valid (waitt for wait)', async () => {
    const svc = mockService(ORIGIN);
    const result = await executeTool('tinybird_events', { ...base, datasource: 'events', data: '{"a":1}', waitt: true } as never, {
      dispatcher: svc.agent,
    });
    expect(svc.requests).toHaveLength(0);
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', issues: [{ path: 'waitt', message: "unknown param (did you mean 'wait'?)" }] },
    });
  });

  it('names a key that resembles nothing without a suggestion, and __proto__ is only a name', async () => {
    const params = JSON.parse('{"base_url":"http://tinybird.test","token":"t","query":"SELECT 1","__proto__":{"x":1},"zzzzzzzzzz":1}');
    const result = await executeTool('tinybird_query', params);
    expect(result).toMatchObject({
      success: false,
      error: {
        code: 'invalid_params',
        issues: [
          { path: '__proto__', message: 'unknown param' },
          { path: 'zzzzzzzzzz', message: 'unknown param' },
        ],
      },
    });
  });
});

describe('a missing param', () => {
  it('is said to be required, by name', async () => {
    const result = await executeTool('tinybird_query', { ...base } as never);
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', message: 'invalid params: query: required (expected string)', issues: [{ path: 'query', message: 'required (expected string)' }] },
    });
  });

  it('keeps the other messages as zod gives them (a value of the wrong type is not "required")', async () => {
    const result = await executeTool('tinybird_query', { ...base, query: 42 } as never);
    expect(result).toMatchObject({ success: false, error: { issues: [{ path: 'query', message: expect.stringMatching(/^Invalid input: expected string, received number/) }] } });
  });
});


describe('params that are not an object', () => {
  it('get the schema\'s one root issue, not an unknown param per array index', async () => {
    const result = await runTool(readTool, ['a', 'b'] as never);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: '', message: expect.stringMatching(/expected object/) }] } });
    if (!result.success) expect(result.error.issues).toHaveLength(1);
  });

  it('say that the whole params object is required when it is missing', async () => {
    const result = await runTool(readTool, undefined as never);
    expect(result).toMatchObject({ success: false, error: { issues: [{ path: '', message: 'required (expected object)' }] } });
  });
});

describe('hostile unknown keys', () => {
  it('quotes a megabyte key by its start and its length, never whole', async () => {
    const svc = mockService(ORIGIN);
    const key = `x${'y'.repeat(1 << 20)}`;
    const result = await executeTool('tinybird_query_pipe', { ...base, pipe: 'top_events', [key]: 1 } as never, { dispatcher: svc.agent });
    expect(svc.requests).toHaveLength(0);
    if (result.success) throw new Error('accepted');
    expect(result.error.issues).toEqual([{ path: `x${'y'.repeat(63)}… (${key.length} characters)`, message: 'unknown param' }]);
    expect(JSON.stringify(result).length).toBeLessThan(1000);
  });

  it('does not cut a key inside a surrogate pair', async () => {
    const key = `${'a'.repeat(63)}😀${'b'.repeat(10)}`;
    const result = await executeTool('tinybird_query_pipe', { ...base, pipe: 'top_events', [key]: 1 } as never, { dispatcher: mockService(ORIGIN).agent });
    if (result.success) throw new Error('accepted');
    expect(result.error.issues?.[0]?.path).toBe(`${'a'.repeat(63)}… (${key.length} characters)`);
  });

  it('names twenty unknown keys and counts the rest', async () => {
    const svc = mockService(ORIGIN);
    const extra = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    const result = await executeTool('tinybird_query_pipe', { ...base, pipe: 'top_events', ...extra } as never, { dispatcher: svc.agent });
    expect(svc.requests).toHaveLength(0);
    if (result.success) throw new Error('accepted');
    expect(result.error.issues).toHaveLength(21);
    expect(result.error.issues?.slice(0, 20).map((i) => i.path)).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`));
    expect(result.error.issues?.[20]).toEqual({ path: '', message: 'and 9980 more unknown params' });
    expect(result.error.message).toMatch(/; \(root\): and 9980 more unknown params$/);
  });

  it('quotes a key of 64 characters whole, and names exactly twenty unknown keys with no count', async () => {
    const key = 'k'.repeat(64);
    const extra = Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`x${i}`, i]));
    const result = await executeTool('tinybird_query_pipe', { ...base, pipe: 'top_events', [key]: 1, ...extra } as never, { dispatcher: mockService(ORIGIN).agent });
    if (result.success) throw new Error('accepted');
    expect(result.error.issues).toHaveLength(20);
    expect(result.error.issues?.some((i) => i.path === key)).toBe(true);
    expect(result.error.message).not.toContain('more unknown params');
  });
});
