import { beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { mockServices } from '../../src/testing/index.js';
import { SECRETS } from './helpers.js';

/** One Loops key for every test here: the pacer keys its state by the credential. */
const send = { apiKey: SECRETS.loops!, email: 'ada@example.com', eventName: 'signup' };

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('mockServices() tests stay fast and share nothing (issue 42)', () => {
  // The first call of a process builds the mock's routes from every tool (a few hundred ms on a busy machine): not what is timed here.
  beforeAll(async () => {
    await executeTool('loops_test_api_key', { apiKey: SECRETS.loops! }, { dispatcher: mockServices() });
  });

  it('a mocked 429 with default options completes in milliseconds, its four attempts all made', async () => {
    const mock = mockServices().fail('loops_send_event', 'rate_limited', { retryAfterSeconds: 2 });
    const { value: result, ms } = await timed(() => executeTool('loops_send_event', send, { dispatcher: mock }));
    expect(result).toMatchObject({ success: false, error: { code: 'rate_limited', status: 429, retryable: true, retryAfterMs: 2000 }, meta: { attempts: 4 } });
    expect(mock.calls('loops_send_event').map((call) => call.outcome)).toEqual([429, 429, 429, 429]);
    expect(mock.calls('loops_send_event').map((call) => call.path)).toEqual(Array(4).fill('/api/v1/events/send'));
    expect(ms).toBeLessThan(500);
  });

  it("a later test's mock is not held by an earlier test's 429 for the same key", async () => {
    const earlier = mockServices().fail('loops_send_event', 'rate_limited', { retryAfterSeconds: 2 });
    expect(await executeTool('loops_send_event', send, { dispatcher: earlier, retry: false })).toMatchObject({ success: false, error: { code: 'rate_limited' } });
    const later = mockServices();
    const { value: result, ms } = await timed(() => executeTool('loops_send_event', send, { dispatcher: later }));
    expect(result).toMatchObject({ success: true, meta: { attempts: 1 } });
    expect(later.calls('loops_send_event')).toHaveLength(1);
    expect(ms).toBeLessThan(500);
  });

  it("with waits: 'real' the mock waits for Retry-After and paces with a pacer of its own, not another mock's", async () => {
    const earlier = mockServices({ waits: 'real' }).fail('loops_send_event', 'rate_limited', { retryAfterSeconds: 1, times: 1 });
    const retried = await timed(() => executeTool('loops_send_event', send, { dispatcher: earlier }));
    expect(retried.value).toMatchObject({ success: true, meta: { attempts: 2 } });
    expect(retried.ms).toBeGreaterThanOrEqual(990);
    const other = mockServices({ waits: 'real' }).fail('loops_send_event', 'rate_limited', { retryAfterSeconds: 1, times: 1 });
    expect(await executeTool('loops_send_event', send, { dispatcher: other, retry: false })).toMatchObject({ success: false });
    const fresh = await timed(() => executeTool('loops_send_event', send, { dispatcher: mockServices({ waits: 'real' }) }));
    expect(fresh.value).toMatchObject({ success: true, meta: { attempts: 1 } });
    expect(fresh.ms).toBeLessThan(500);
  });
});
