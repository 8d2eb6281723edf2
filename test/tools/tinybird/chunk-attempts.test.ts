/**
 * One chunk's attempts (`sendChunkWithRetries`), from the promises of a split ingest: what may
 * be sent again (only what was not written, or what `on_ambiguous: 'retry'` allows), where the
 * rows are after the last answer, and which answers stop the run. Survivors of the mutation
 * run of `tools/tinybird/ingest/chunk-attempts.ts` pointed at each case.
 */
import { describe, expect, it } from 'vitest';
import { failure, retrySettings, ToolFailure } from '../../../src/kit.js';
import { sendChunkWithRetries } from '../../../tools/tinybird/ingest/chunk-attempts.js';

/** Sends that fail with `answers` in turn (then succeed), recording each attempt's `isRetry`. */
async function attempts(answers: ToolFailure[], onAmbiguous: 'retry' | 'stop', wait = false) {
  const sent: boolean[] = [];
  const result = await sendChunkWithRetries(
    async (isRetry) => {
      sent.push(isRetry);
      const next = answers.shift();
      if (next) throw next;
      return 'in';
    },
    { onAmbiguous, wait, retry: retrySettings({ maxAttempts: 3, maxRetryAfterMs: 60_000 }), sleep: async () => {} },
  );
  return { sent: sent.length, result };
}

const timeout = () => failure('timeout', 'no answer within 30000 ms', { retryable: true });
const unreadable = () => failure('invalid_response', 'the answer is not the Events API\'s', { status: 202 });
const badGateway = () => failure('upstream_error', 'Bad gateway', { status: 502, retryable: true });

describe('one chunk\'s attempts', () => {
  it.each([
    ['a time-out', timeout],
    ['a 2xx answer that cannot be read', unreadable],
    ['a 502', badGateway],
  ])('%s leaves the rows unknown: not sent again with stop, sent again with retry', async (_name, fault) => {
    expect(await attempts([fault()], 'stop')).toMatchObject({ sent: 1, result: { ok: false, verdict: 'unknown', stopsRun: false } });
    expect(await attempts([fault()], 'retry')).toMatchObject({ sent: 2, result: { ok: true, retriedAfterAmbiguous: true } });
  });

  it('a 502 on a retry (asked with wait=true) is still unknown, unlike a 500 there', async () => {
    expect(await attempts([timeout(), badGateway(), badGateway()], 'retry')).toMatchObject({ sent: 3, result: { ok: false, verdict: 'unknown' } });
    const internal = () => failure('upstream_error', 'Internal', { status: 500, retryable: true });
    // With wait=true from the start, a 500 is the database's answer before any write: not in.
    expect(await attempts([internal()], 'retry', true)).toMatchObject({ sent: 1, result: { ok: false, verdict: 'failed' } });
  });

  it('a 500 on the harness\'s own retry (sent with wait=true) is the database\'s answer before any write: not in, not unknown', async () => {
    const retried500 = new ToolFailure({ code: 'upstream_error', message: 'Internal', status: 500, retryable: true }, undefined, 2);
    expect(await attempts([retried500], 'stop')).toMatchObject({ sent: 1, result: { ok: false, verdict: 'failed', stopsRun: false } });
    const first500 = new ToolFailure({ code: 'upstream_error', message: 'Internal', status: 500, retryable: true }, undefined, 1);
    expect(await attempts([first500], 'stop')).toMatchObject({ sent: 1, result: { ok: false, verdict: 'unknown' } });
  });

  it.each([
    ['a 409 of another conflict', failure('conflict', 'Data Source events already exists', { status: 409 })],
    ['a 400 that says retry', failure('invalid_params', 'Bad events, fix them and retry', { status: 400 })],
    ['a 400 that says "is being created, retry"', failure('invalid_params', 'events is being created, retry', { status: 400 })],
  ])('%s is not the creation race: sent once, not in', async (_name, answer) => {
    expect(await attempts([answer], 'retry')).toMatchObject({ sent: 1, result: { ok: false, verdict: 'failed', stopsRun: false } });
  });

  it('the creation race (409 "is being created", retry) is sent again until it gets in', async () => {
    const race = () => failure('conflict', 'Data Source events is being created, please retry', { status: 409 });
    expect(await attempts([race(), race(), race(), race()], 'stop')).toMatchObject({ sent: 5, result: { ok: true, retriedAfterAmbiguous: false } });
  });

  it('a 401, 403 or 404 stops the run; so does a connection refused after every retry', async () => {
    for (const status of [401, 403, 404]) {
      expect(await attempts([failure('unauthorized', 'no', { status })], 'retry')).toMatchObject({ sent: 1, result: { ok: false, verdict: 'failed', stopsRun: true } });
    }
    const refused = () => failure('network', 'connect ECONNREFUSED 127.0.0.1:443', { retryable: true });
    expect(await attempts([refused(), refused(), refused()], 'stop')).toMatchObject({ sent: 3, result: { ok: false, verdict: 'failed', stopsRun: true } });
  });
});
