import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { mockService } from '../helpers/mock-service.js';
import { echoTool, ORIGIN, readTool, SECRET, validParams } from './fixtures.js';

/**
 * Params a program hands over may be more than JSON: a Proxy, getters. Reading them must
 * neither reject the call nor let a secret past the mask.
 */
describe('params that are hostile to read', () => {
  it.each([
    ['an Error', new Error('trap'), 'trap'],
    ['null', null, 'null'],
  ])('a Proxy whose every trap throws (%s) is invalid_params, resolved, with nothing sent', async (_name, thrown, said) => {
    const svc = mockService(ORIGIN);
    const trap = () => {
      throw thrown;
    };
    const params = new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
    const result = await executeTool(readTool, params as never, { dispatcher: svc.agent });
    expect(result).toEqual({
      success: false,
      error: {
        code: 'invalid_params',
        message: `invalid params: could not be read: ${said}`,
        retryable: false,
        issues: [{ path: '', message: `could not be read: ${said}` }],
      },
      meta: { attempts: 0, durationMs: expect.any(Number) },
    });
    expect(svc.requests).toHaveLength(0);
  });

  it('names every refused field in one message, separated by semicolons', async () => {
    const result = await executeTool(readTool, { base_url: ORIGIN, apiKey: '', name: 3 } as never);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', message: expect.stringMatching(/^invalid params: apiKey: .+; name: .+$/) } });
  });

  it('a secret param whose getter throws is invalid_params, not a rejected call', async () => {
    const svc = mockService(ORIGIN);
    const params = Object.defineProperty({ base_url: ORIGIN, name: 'widget' }, 'apiKey', {
      get() {
        throw new Error('no key for you');
      },
      enumerable: true,
    });
    const result = await executeTool(readTool, params as never, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', message: 'invalid params: could not be read: no key for you' } });
    expect(svc.requests).toHaveLength(0);
  });

  it('masks the secret that was sent when a getter answered something else the first time', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { echoed: `Bearer ${SECRET}` } });
    let reads = 0;
    const params = Object.defineProperty({ base_url: ORIGIN, name: 'widget' }, 'apiKey', {
      // A decoy on the first read, the real key after it.
      get: () => (reads++ === 0 ? 'decoy-value' : SECRET),
      enumerable: true,
    });
    const result = await executeTool(echoTool, params as never, { dispatcher: svc.agent });
    expect(svc.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(result).toMatchObject({ success: true, output: { echoed: 'Bearer [redacted]' } });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('still masks the secret of well-behaved params, read once', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { echoed: SECRET } });
    const result = await executeTool(echoTool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { echoed: '[redacted]' } });
  });
});
