import { getEventListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { attempt } from '../../src/harness/attempt.js';
import { ToolFailure } from '../../src/harness/errors.js';

/** A dispatcher that hands each request's options and handler to the test, to play the network. */
function fakeDispatcher() {
  const calls: { opts: Dispatcher.DispatchOptions; handler: Dispatcher.DispatchHandler }[] = [];
  const dispatcher = {
    dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
      calls.push({ opts, handler });
      return true;
    },
  } as unknown as Dispatcher;
  return { dispatcher, calls };
}

function controller() {
  return { abort: vi.fn(), pause() {}, resume() {}, aborted: false, paused: false, reason: null } as unknown as Dispatcher.DispatchController & {
    abort: ReturnType<typeof vi.fn>;
  };
}

const get = (url: string) => ({ method: 'GET', url, headers: { accept: 'application/json' } });

describe('attempt (one request through undici dispatch)', () => {
  it('splits the URL into origin and path, a bare origin asking for /', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    for (const url of ['http://h.test:8080/v0/sql?q=1&r=2', 'https://h.test', 'http://h.test?x=1']) {
      const pending = attempt(get(url), { dispatcher, timeoutMs: 1000 });
      const { handler } = calls.at(-1)!;
      const c = controller();
      handler.onRequestStart!(c, {});
      handler.onResponseStart!(c, 204, {}, 'No Content');
      handler.onResponseEnd!(c, {});
      await expect(pending).resolves.toEqual({ status: 204, headers: {}, body: undefined, bodyKind: 'empty' });
    }
    expect(calls.map((call) => [call.opts.origin, call.opts.path])).toEqual([
      ['http://h.test:8080', '/v0/sql?q=1&r=2'],
      ['https://h.test', '/'],
      ['http://h.test', '/?x=1'],
    ]);
    expect(calls[0]!.opts).toMatchObject({ method: 'GET', headers: { accept: 'application/json' } });
  });

  it('refuses a URL that is not http(s) as a network fault, sending nothing', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    await expect(attempt(get('ftp://h.test/x'), { dispatcher, timeoutMs: 1000 })).rejects.toEqual({
      kind: 'network',
      message: 'network error: not an http(s) URL: ftp://h.test/x',
    });
    expect(calls).toHaveLength(0);
  });

  it('joins chunks and decodes them by content type; a repeated header is joined', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000 });
    const { handler } = calls[0]!;
    const c = controller();
    handler.onRequestStart!(c, {});
    handler.onResponseStart!(c, 200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }, 'OK');
    handler.onResponseData!(c, Buffer.from('{"a":'));
    handler.onResponseData!(c, Buffer.from('[1,2]}'));
    handler.onResponseEnd!(c, {});
    await expect(pending).resolves.toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'set-cookie': 'a=1, b=2' },
      body: { a: [1, 2] },
      bodyKind: 'json',
    });
  });

  it('stops a chunked body at the cap: the request is cancelled and the failure names the limit', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000, maxResponseBytes: 10 });
    const { handler } = calls[0]!;
    const c = controller();
    handler.onRequestStart!(c, {});
    handler.onResponseStart!(c, 200, { 'content-type': 'text/plain' }, 'OK');
    handler.onResponseData!(c, Buffer.from('123456'));
    handler.onResponseData!(c, Buffer.from('789012'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolFailure);
    expect((error as ToolFailure).error).toMatchObject({ code: 'invalid_response', message: 'the response body is larger than the 10-byte limit' });
    expect(c.abort).toHaveBeenCalledTimes(1);
    // What undici reports after the cancel changes nothing: no second cancel, no throw, the same failure.
    expect(() => handler.onResponseError!(c, new Error('aborted'))).not.toThrow();
    expect(() => handler.onResponseData!(c, Buffer.from('more'))).not.toThrow();
    expect(() => handler.onResponseEnd!(c, {})).not.toThrow();
    expect(c.abort).toHaveBeenCalledTimes(1);
    await expect(pending).rejects.toBe(error);
  });

  it('keeps its time limit after the headers: a body that stalls is a time-out, and the request is cancelled', async () => {
    vi.useFakeTimers();
    try {
      const { dispatcher, calls } = fakeDispatcher();
      let outcome: unknown = 'pending';
      const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000 });
      pending.then(
        (value) => (outcome = value),
        (reason: unknown) => (outcome = reason),
      );
      const { handler } = calls[0]!;
      const c = controller();
      handler.onRequestStart!(c, {});
      handler.onResponseStart!(c, 200, { 'content-type': 'application/json', 'content-length': '100' }, 'OK');
      handler.onResponseData!(c, Buffer.from('{"rows":['));
      await vi.advanceTimersByTimeAsync(999);
      expect(outcome).toBe('pending');
      expect(c.abort).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toEqual({ kind: 'timeout', message: 'no complete response within 1000 ms' });
      expect(c.abort).toHaveBeenCalledWith(new Error('no complete response within 1000 ms'));
      // The rest of the body, arriving late, changes nothing.
      handler.onResponseData!(c, Buffer.from(']}'));
      handler.onResponseEnd!(c, {});
      await vi.advanceTimersByTimeAsync(0);
      expect(outcome).toEqual({ kind: 'timeout', message: 'no complete response within 1000 ms' });
      expect(c.abort).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('clears its timer once the body is complete: no time-out fires later', async () => {
    vi.useFakeTimers();
    try {
      const { dispatcher, calls } = fakeDispatcher();
      const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 50 });
      const { handler } = calls[0]!;
      const c = controller();
      handler.onRequestStart!(c, {});
      handler.onResponseStart!(c, 200, { 'content-type': 'text/plain' }, 'OK');
      handler.onResponseData!(c, Buffer.from('ok'));
      handler.onResponseEnd!(c, {});
      await expect(pending).resolves.toMatchObject({ status: 200, body: 'ok' });
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(100);
      expect(c.abort).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a body of exactly the cap, declared or counted, and stops one declared past it before any data', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    const settings = { dispatcher, timeoutMs: 1000, maxResponseBytes: 10 };
    const exact = attempt(get('http://h.test/x'), settings);
    const c = controller();
    calls[0]!.handler.onRequestStart!(c, {});
    calls[0]!.handler.onResponseStart!(c, 200, { 'content-type': 'text/plain', 'content-length': '10' }, 'OK');
    calls[0]!.handler.onResponseData!(c, Buffer.from('12345'));
    calls[0]!.handler.onResponseData!(c, Buffer.from('67890'));
    calls[0]!.handler.onResponseEnd!(c, {});
    await expect(exact).resolves.toMatchObject({ status: 200, body: '1234567890' });
    expect(c.abort).not.toHaveBeenCalled();

    const over = attempt(get('http://h.test/x'), settings);
    const c2 = controller();
    calls[1]!.handler.onRequestStart!(c2, {});
    calls[1]!.handler.onResponseStart!(c2, 200, { 'content-type': 'text/plain', 'content-length': '11' }, 'OK');
    expect(c2.abort).toHaveBeenCalledTimes(1);
    const error = await over.catch((e: unknown) => e);
    expect((error as ToolFailure).error).toMatchObject({ code: 'invalid_response', message: 'the response body is larger than the 10-byte limit' });
  });

  it('refuses text that only contains a URL, and names a connection error without a code by its message', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    await expect(attempt(get('see http://h.test/x'), { dispatcher, timeoutMs: 1000 })).rejects.toEqual({
      kind: 'network',
      message: 'network error: not an http(s) URL: see http://h.test/x',
    });
    expect(calls).toHaveLength(0);
    const hangUp = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000 });
    calls[0]!.handler.onResponseError!(controller(), new Error('socket hang up'));
    await expect(hangUp).rejects.toEqual({ kind: 'network', message: 'network error: socket hang up' });
    const silent = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000 });
    calls[1]!.handler.onResponseError!(controller(), new Error(''));
    await expect(silent).rejects.toEqual({ kind: 'network', message: 'network error: connection failed' });
  });

  it('times out a request still waiting for a connection, and cancels it when it starts', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    await expect(attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 5 })).rejects.toEqual({
      kind: 'timeout',
      message: 'no complete response within 5 ms',
    });
    const c = controller();
    calls[0]!.handler.onRequestStart!(c, {});
    expect(c.abort).toHaveBeenCalledWith(new Error('no complete response within 5 ms'));
  });

  it('settles as aborted when the caller aborts, and forgets its listener once settled', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    const caller = new AbortController();
    const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000, signal: caller.signal });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    const c = controller();
    calls[0]!.handler.onRequestStart!(c, {});
    caller.abort();
    await expect(pending).rejects.toEqual({ kind: 'aborted', message: 'the call was aborted' });
    expect(c.abort).toHaveBeenCalledTimes(1);
    // One listener per signal (src/harness/on-abort.ts), gone once it fired.
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('turns a dispatcher that throws (closed, bad option) into a network fault', async () => {
    const dispatcher = {
      dispatch() {
        throw Object.assign(new Error('The client is destroyed'), { code: 'UND_ERR_DESTROYED' });
      },
    } as unknown as Dispatcher;
    await expect(attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000 })).rejects.toEqual({
      kind: 'network',
      message: 'network error: UND_ERR_DESTROYED: The client is destroyed',
    });
  });

  it('reports a connection error with its code', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000 });
    calls[0]!.handler.onResponseError!(controller(), Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }));
    await expect(pending).rejects.toEqual({ kind: 'network', message: 'network error: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9' });
  });
});
