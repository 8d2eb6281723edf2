/**
 * `ExecuteOptions.transport`: a host sends each attempt (n8n's `httpRequest`), the harness keeps
 * the rest. Each test plays the host and asserts what it was handed and what the caller got.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import type { Transport, TransportRequest, TransportResponse } from '../../src/harness/types.js';
import { n8nTransport } from '../../src/hosts/n8n/http-transport.js';
import { gzip as webGzip } from '../../packages/n8n-nodes-flowblocks/src/web-gzip.mjs';

const LOOPS = 'https://app.loops.so/api/v1';
const KEY = 'loops-key-transport-0001';
const json = (status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: new TextEncoder().encode(JSON.stringify(body)),
});

/** A host that records every request and answers from `answers` in turn. */
function host(...answers: ((request: TransportRequest) => Promise<TransportResponse> | TransportResponse)[]) {
  const requests: TransportRequest[] = [];
  const transport: Transport = async (request) => {
    requests.push(request);
    const answer = answers[Math.min(requests.length, answers.length) - 1]!;
    return answer(request);
  };
  return { transport, requests };
}

/** Chunks as a host's stream gives them, recording whether the reader closed it early. */
function stream(chunks: Uint8Array[]) {
  const seen = { read: 0, closed: false };
  const body: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      return {
        next: async () => (seen.read < chunks.length ? { done: false, value: chunks[seen.read++]! } : { done: true, value: undefined }),
        return: async () => {
          seen.closed = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { body, seen };
}

/** n8n's `httpRequest` as a test plays it: the options it was called with, and `answer`. */
function fakeN8n(answer: () => { statusCode: number; headers: TransportResponse['headers']; body: AsyncIterable<Uint8Array> }) {
  const calls: Record<string, unknown>[] = [];
  const transport = n8nTransport({
    httpRequest: async (options) => {
      calls.push(options as unknown as Record<string, unknown>);
      return answer();
    },
  });
  return { transport, calls };
}

const findContact = { apiKey: KEY, email: 'ada@example.com' };
/** A contact as Loops answers one. */
const ada = { id: 'c1', email: 'ada@example.com', subscribed: true, mailingLists: {} };

describe('a host transport sends the request the harness built', () => {
  it('hands over method, URL with query, headers with the credential, and normalizes the answer', async () => {
    const { transport, requests } = host(() => json(200, [ada]));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false });
    expect(requests).toHaveLength(1);
    const [sent] = requests;
    expect(sent).toMatchObject({ method: 'GET', url: `${LOOPS}/contacts/find?email=ada%40example.com` });
    expect(sent!.body).toBeUndefined();
    expect(sent!.headers).toMatchObject({ authorization: `Bearer ${KEY}`, accept: expect.stringContaining('application/json') });
    expect(sent!.signal).toBeInstanceOf(AbortSignal);
    expect(result).toMatchObject({ success: true, output: { contacts: [{ id: 'c1', email: 'ada@example.com', subscribed: true, firstName: null }] } });
  });

  it('sends a JSON body as text, and a failing status comes back as the service error', async () => {
    const { transport, requests } = host(() => json(404, { success: false, message: 'Contact not found.' }));
    const result = await executeTool('loops_update_contact', { apiKey: KEY, email: 'ada@example.com', firstName: 'Ada' }, { transport, retry: false });
    expect(requests[0]).toMatchObject({ method: 'PUT', url: `${LOOPS}/contacts/update`, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(requests[0]!.body as string)).toEqual({ email: 'ada@example.com', firstName: 'Ada' });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', status: 404, message: expect.stringContaining('Contact not found.') } });
  });

  it("retries a safe call after a 503 and after the host's connection error, through the host each time", async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const { transport, requests } = host(
      () => json(503, { message: 'busy' }),
      () => Promise.reject(refused),
      () => json(200, []),
    );
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(requests).toHaveLength(3);
    expect(result).toMatchObject({ success: true, meta: { attempts: 3 } });
  });

  it("names the host's error when no answer came", async () => {
    const cut = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const { transport } = host(() => Promise.reject(cut));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false });
    expect(result).toMatchObject({ success: false, error: { code: 'network', message: 'network error: ECONNRESET: socket hang up' } });
  });
});

describe("the harness's limits hold whatever the host does", () => {
  it('ends an attempt at the time limit even when the host ignores the signal, and aborts that signal', async () => {
    const { transport, requests } = host(() => new Promise<TransportResponse>(() => undefined));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, timeoutMs: 30 });
    expect(result).toMatchObject({ success: false, error: { code: 'timeout', message: expect.stringContaining('30 ms') } });
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it("ends on the caller's abort, the host's signal aborted with it", async () => {
    const caller = new AbortController();
    const { transport, requests } = host(() => {
      setTimeout(() => caller.abort(), 5);
      return new Promise<TransportResponse>(() => undefined);
    });
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, signal: caller.signal });
    expect(result).toMatchObject({ success: false, error: { code: 'aborted' } });
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it("stops reading a streamed body past the size cap and closes the host's stream", async () => {
    const { body, seen } = stream([new Uint8Array(600), new Uint8Array(600), new Uint8Array(600)]);
    const { transport } = host(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body }));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, maxResponseBytes: 1000 });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', message: expect.stringContaining('1000-byte limit') } });
    expect(seen).toEqual({ read: 2, closed: true });
  });

  it('refuses a declared length past the cap before reading a byte', async () => {
    const { body, seen } = stream([new Uint8Array(10)]);
    const { transport, requests } = host(() => ({ status: 200, headers: { 'content-type': 'application/json', 'content-length': '5000' }, body }));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, maxResponseBytes: 1000 });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response' } });
    expect(seen.read).toBe(0);
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it('joins a streamed body and masks a secret the service echoes', async () => {
    const text = JSON.stringify([{ ...ada, userGroup: `key ${KEY}` }]);
    const bytes = new TextEncoder().encode(text);
    const { body, seen } = stream([bytes.subarray(0, 7), bytes.subarray(7)]);
    const { transport } = host(() => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body }));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false });
    expect(result).toMatchObject({ success: true, output: { contacts: [{ userGroup: expect.stringContaining('key ') }] } });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(seen).toEqual({ read: 2, closed: false });
  });
});

describe("n8n's httpRequest as the transport", () => {
  it('asks n8n for the whole answer as a stream, any status, no redirect followed, with the signal', async () => {
    const { body } = stream([new TextEncoder().encode('[]')]);
    const { transport, calls } = fakeN8n(() => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body }));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false });
    expect(result).toMatchObject({ success: true, output: { contacts: [] } });
    expect(calls).toEqual([
      {
        method: 'GET',
        url: `${LOOPS}/contacts/find?email=ada%40example.com`,
        headers: expect.objectContaining({ authorization: `Bearer ${KEY}` }),
        encoding: 'stream',
        json: false,
        returnFullResponse: true,
        ignoreHttpStatusErrors: true,
        disableFollowRedirect: true,
        abortSignal: expect.any(AbortSignal),
      },
    ]);
  });

  it('hands bytes over as a Buffer of the same bytes', async () => {
    const { transport, calls } = fakeN8n(() => ({ statusCode: 204, headers: {}, body: stream([]).body }));
    const bytes = new Uint8Array([0, 1, 2, 3, 4, 5]).subarray(2, 5);
    await transport({ method: 'POST', url: 'https://h.test/x', headers: {}, body: bytes, signal: new AbortController().signal });
    expect(Buffer.isBuffer(calls[0]!.body)).toBe(true);
    expect([...(calls[0]!.body as Buffer)]).toEqual([2, 3, 4]);
  });
});

describe("the n8n package's gzip (CompressionStream)", () => {
  it('writes a gzip member zlib inflates to the same bytes, from text and from bytes', async () => {
    const text = '{"n":1}\n{"n":"é✓"}\n'.repeat(500);
    expect(gunzipSync(await webGzip(text)).toString('utf8')).toBe(text);
    const bytes = new TextEncoder().encode(text);
    expect(gunzipSync(await webGzip(bytes)).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('a host transport at the edges', () => {
  const ok = (body: TransportResponse['body'], headers: Record<string, string> = {}): TransportResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const contacts = new TextEncoder().encode(JSON.stringify([ada]));

  it('takes a body or a declared length exactly at the cap', async () => {
    const max = contacts.byteLength;
    for (const answer of [ok(contacts, { 'content-length': String(max) }), ok(stream([contacts.subarray(0, 10), contacts.subarray(10)]).body)]) {
      const { transport } = host(() => answer);
      const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, maxResponseBytes: max });
      expect(result).toMatchObject({ success: true, output: { contacts: [{ id: 'c1' }] } });
    }
  });

  it('refuses a whole body one byte past the cap', async () => {
    const { transport } = host(() => ok(contacts));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, maxResponseBytes: contacts.byteLength - 1 });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', message: expect.stringContaining('-byte limit') } });
  });

  it('refuses a binary answer holding the key, with its status, and reports it as such (not as a network fault)', async () => {
    const { transport } = host(() => ({ status: 200, headers: { 'content-type': 'application/octet-stream' }, body: new TextEncoder().encode(`PAR1 ${KEY} PAR1`) }));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', status: 200, message: expect.stringContaining('binary data that holds a configured secret') } });
  });

  it("reports the time-out when the time-out's own abort sets off the caller's", async () => {
    const caller = new AbortController();
    const { transport } = host(({ signal }) => {
      signal.addEventListener('abort', () => caller.abort());
      return new Promise<TransportResponse>(() => undefined);
    });
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, timeoutMs: 20, signal: caller.signal });
    expect(result).toMatchObject({ success: false, error: { code: 'timeout' } });
  });

  it("names an abort as the caller's", async () => {
    const caller = new AbortController();
    const { transport } = host(() => {
      queueMicrotask(() => caller.abort());
      return new Promise<TransportResponse>(() => undefined);
    });
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, signal: caller.signal });
    expect(result).toMatchObject({ success: false, error: { code: 'aborted', message: expect.stringContaining('the call was aborted') } });
  });

  it('cancels its time limit once the answer is in: the signal handed to the host stays unaborted', async () => {
    const { transport, requests } = host(() => ok(contacts));
    const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, timeoutMs: 20 });
    expect(result.success).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(requests[0]!.signal.aborted).toBe(false);
  });

  it("closes a host's stream that has no `return`, or whose `return` gives no promise, without failing over it", async () => {
    const chunk = new Uint8Array(800);
    const bodies = [
      { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: false, value: chunk }) }) },
      { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: false, value: chunk }), return: () => undefined }) },
    ] as unknown as AsyncIterable<Uint8Array>[];
    for (const body of bodies) {
      const { transport } = host(() => ok(body));
      const result = await executeTool('loops_find_contact', findContact, { transport, retry: false, maxResponseBytes: 1000 });
      expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', message: expect.stringContaining('1000-byte limit') } });
    }
  });

  it("words the host's error from what it has: code and message, message alone, or nothing", async () => {
    const cases: [unknown, string][] = [
      [Object.assign(new Error('refused'), { code: '' }), 'network error: refused'],
      [{ code: 111, message: 'refused' }, 'network error: refused'],
      [Object.assign(new Error(''), { code: 'ECONNRESET' }), 'network error: ECONNRESET'],
      [new Error(''), 'network error: connection failed'],
      [undefined, 'network error: connection failed'],
    ];
    for (const [thrown, message] of cases) {
      const { transport } = host(() => Promise.reject(thrown));
      const result = await executeTool('loops_find_contact', findContact, { transport, retry: false });
      expect(result).toMatchObject({ success: false, error: { code: 'network', message } });
    }
  });

  it('hands n8n a text body as the same text', async () => {
    const { transport, calls } = fakeN8n(() => ({ statusCode: 204, headers: {}, body: stream([]).body }));
    await transport({ method: 'POST', url: 'https://h.test/x', headers: {}, body: '{"a":1}', signal: new AbortController().signal });
    expect(calls[0]!.body).toBe('{"a":1}');
  });
});

describe('the clock', () => {
  const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('keeps the process alive for a timer, not for a background one, and cancels either', async () => {
    const { startTimer } = await import('../../src/harness/send/timers.js');
    const before = timeouts();
    const fired: string[] = [];
    const held = startTimer(() => fired.push('held'), 10_000);
    expect(timeouts()).toBe(before + 1);
    const background = startTimer(() => fired.push('background'), 10_000, true);
    expect(timeouts()).toBe(before + 1);
    held.cancel();
    background.cancel();
    expect(timeouts()).toBe(before);
    const quick = startTimer(() => fired.push('quick'), 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    quick.cancel();
    expect(fired).toEqual(['quick']);
  });
});

describe('a host transport that misbehaves', () => {
  it('is an internal fault, sent once and not retried, when it resolves with no HTTP answer', async () => {
    const body = new Uint8Array(0);
    const answers: unknown[] = [
      null,
      'OK',
      { status: 200, headers: null, body },
      { status: 200, headers: 'content-type: application/json', body },
      { status: '200', headers: {}, body },
      { status: 42, headers: {}, body },
      { status: 600, headers: {}, body },
      { status: 200, headers: {}, body: 'text' },
      { status: 200, headers: {} },
    ];
    for (const answer of answers) {
      const { transport, requests } = host(() => answer as TransportResponse);
      const result = await executeTool('loops_find_contact', findContact, { transport, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
      expect(result).toMatchObject({ success: false, error: { code: 'internal', retryable: false, message: expect.stringContaining('the host transport resolved with no HTTP answer') } });
      expect(requests).toHaveLength(1);
    }
  });

  it('takes the edges of a valid answer: status 100 and 599, chunks from an async generator', async () => {
    for (const status of [100, 599]) {
      const { transport } = host(() => ({ status, headers: {}, body: new Uint8Array(0) }));
      const result = await executeTool('loops_find_contact', findContact, { transport, retry: false });
      expect(result).toMatchObject({ success: false, error: { status } });
    }
    async function* chunks() {
      yield new TextEncoder().encode(JSON.stringify([ada]));
    }
    const { transport } = host(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: chunks() }));
    expect(await executeTool('loops_find_contact', findContact, { transport, retry: false })).toMatchObject({ success: true });
  });
});
