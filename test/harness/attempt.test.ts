import { getEventListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { attempt, DEFAULT_MAX_RESPONSE_BYTES, isFault } from '../../src/harness/send/attempt.js';
import { ToolFailure } from '../../src/harness/errors.js';
import { Redactor } from '../../src/harness/mask/redact.js';
import { RAW_SCAN_MIN_BYTES } from '../../src/harness/mask/redact-bytes.js';

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
    // One listener per signal (src/harness/send/on-abort.ts), gone once it fired.
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

describe('attempt: what the caller is promised beyond one plain answer', () => {
  it('by default refuses a body declared over 100 MiB before reading any of it, and takes one of exactly 100 MiB', async () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(100 * 1024 * 1024);
    const { dispatcher, calls } = fakeDispatcher();
    const over = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000 });
    const c = controller();
    calls[0]!.handler.onRequestStart!(c, {});
    calls[0]!.handler.onResponseStart!(c, 200, { 'content-type': 'text/plain', 'content-length': String(100 * 1024 * 1024 + 1) }, 'OK');
    expect(c.abort).toHaveBeenCalledTimes(1);
    const error = await over.catch((e: unknown) => e);
    expect((error as ToolFailure).error).toMatchObject({ code: 'invalid_response', message: 'the response body is larger than the 104857600-byte limit' });

    const exact = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000 });
    const c2 = controller();
    calls[1]!.handler.onRequestStart!(c2, {});
    calls[1]!.handler.onResponseStart!(c2, 200, { 'content-type': 'text/plain', 'content-length': String(100 * 1024 * 1024) }, 'OK');
    calls[1]!.handler.onResponseData!(c2, Buffer.from('ok'));
    calls[1]!.handler.onResponseEnd!(c2, {});
    await expect(exact).resolves.toMatchObject({ status: 200, body: 'ok' });
    expect(c2.abort).not.toHaveBeenCalled();
  });

  it('a response that starts over (a retrying dispatcher) keeps only the last body, counted afresh against the cap', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000, maxResponseBytes: 8 });
    const { handler } = calls[0]!;
    const c = controller();
    handler.onRequestStart!(c, {});
    handler.onResponseStart!(c, 500, { 'content-type': 'text/plain' }, 'Error');
    handler.onResponseData!(c, Buffer.from('failed'));
    handler.onResponseStart!(c, 200, { 'content-type': 'text/plain' }, 'OK');
    handler.onResponseData!(c, Buffer.from('fine'));
    handler.onResponseData!(c, Buffer.from('done'));
    handler.onResponseEnd!(c, {});
    await expect(pending).resolves.toEqual({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'finedone', bodyKind: 'text' });
    expect(c.abort).not.toHaveBeenCalled();
  });

  it("forgets the caller's signal once the answer is complete: a later abort cancels nothing", async () => {
    const { dispatcher, calls } = fakeDispatcher();
    const caller = new AbortController();
    const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000, signal: caller.signal });
    const c = controller();
    calls[0]!.handler.onRequestStart!(c, {});
    calls[0]!.handler.onResponseStart!(c, 204, {}, 'No Content');
    calls[0]!.handler.onResponseEnd!(c, {});
    await expect(pending).resolves.toMatchObject({ status: 204 });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    caller.abort();
    expect(c.abort).not.toHaveBeenCalled();
  });

  it("forgets the caller's signal after a connection error too", async () => {
    const { dispatcher, calls } = fakeDispatcher();
    const caller = new AbortController();
    const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000, signal: caller.signal });
    calls[0]!.handler.onResponseError!(controller(), new Error('socket hang up'));
    await expect(pending).rejects.toMatchObject({ kind: 'network' });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('isFault tells a fault (kind and message) from a failure, an error or nothing', () => {
    expect(isFault({ kind: 'timeout', message: 'no complete response within 5 ms' })).toBe(true);
    expect(isFault(new ToolFailure({ code: 'invalid_response', message: 'too large', retryable: false }))).toBe(false);
    expect(isFault(new Error('boom'))).toBe(false);
    expect(isFault({ kind: 'network' })).toBe(false);
    expect(isFault(null)).toBe(false);
    expect(isFault(undefined)).toBe(false);
    expect(isFault('network error')).toBe(false);
  });

  /** A JSON answer of at least `bytes` bytes: rows of a field holding `value`. */
  function largeJson(value: string, bytes: number): Buffer {
    const rows: { v: string }[] = [];
    let text = '';
    while (text.length < bytes) {
      rows.push({ v: value });
      text = JSON.stringify({ rows });
    }
    return Buffer.from(text);
  }

  function answer(settings: Parameters<typeof attempt>[1], contentType: string, body: Buffer) {
    const { dispatcher, calls } = fakeDispatcher();
    const pending = attempt(get('http://h.test/x'), { ...settings, dispatcher });
    const c = controller();
    calls[0]!.handler.onRequestStart!(c, {});
    calls[0]!.handler.onResponseStart!(c, 200, { 'content-type': contentType }, 'OK');
    calls[0]!.handler.onResponseData!(c, body);
    calls[0]!.handler.onResponseEnd!(c, {});
    return pending;
  }

  it("a large JSON answer whose bytes hold no secret is cleared by the byte look (the call's redactor trusts it); one holding a secret is not", async () => {
    const secret = 'sk+live/a=b:c@x';
    const clean = new Redactor([secret]);
    const cleanBody = (await answer({ dispatcher: undefined as never, timeoutMs: 1000, redactor: clean }, 'application/json', largeJson('row', RAW_SCAN_MIN_BYTES))).body;
    expect(clean.isTrusted(cleanBody)).toBe(true);
    for (const form of [secret, encodeURIComponent(secret)]) {
      const dirty = new Redactor([secret]);
      const body = (await answer({ dispatcher: undefined as never, timeoutMs: 1000, redactor: dirty }, 'application/json', largeJson(form, RAW_SCAN_MIN_BYTES))).body;
      expect(dirty.isTrusted(body), form).toBe(false);
    }
  });

  it('reads a large JSON answer without any redactor', async () => {
    const response = await answer({ dispatcher: undefined as never, timeoutMs: 1000 }, 'application/json', largeJson('row', RAW_SCAN_MIN_BYTES));
    expect(response).toMatchObject({ status: 200, bodyKind: 'json' });
    expect((response.body as { rows: unknown[] }).rows.length).toBeGreaterThan(100);
  });

  it('after its time-out, a late answer declaring a body over the cap cancels nothing a second time', async () => {
    vi.useFakeTimers();
    try {
      const { dispatcher, calls } = fakeDispatcher();
      const pending = attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 100, maxResponseBytes: 10 });
      const outcome = pending.catch((e: unknown) => e);
      const c = controller();
      calls[0]!.handler.onRequestStart!(c, {});
      await vi.advanceTimersByTimeAsync(100);
      expect(c.abort).toHaveBeenCalledTimes(1);
      calls[0]!.handler.onResponseStart!(c, 200, { 'content-type': 'text/plain', 'content-length': '999' }, 'OK');
      expect(c.abort).toHaveBeenCalledTimes(1);
      expect(await outcome).toEqual({ kind: 'timeout', message: 'no complete response within 100 ms' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('an attempt on a signal that aborted before it began sends nothing and ends as aborted', async () => {
    const { dispatcher, calls } = fakeDispatcher();
    await expect(attempt(get('http://h.test/x'), { dispatcher, timeoutMs: 1000, signal: AbortSignal.abort() })).rejects.toEqual({
      kind: 'aborted',
      message: 'the call was aborted',
    });
    expect(calls).toHaveLength(0);
  });
});
