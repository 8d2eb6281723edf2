import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { runTool } from '../../src/harness/run/execute.js';
import { readTool, validParams, writeTool } from './fixtures.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

/**
 * A real server that sends its headers and part of the body, then stalls: `timeoutMs` bounds
 * the whole response, body included (README: "time limit of each HTTP attempt").
 */
describe('a body that stalls after its headers', () => {
  const stalled: ServerResponse[] = [];
  /** The method of each request that reached the server (a late one of an earlier test may still arrive). */
  const methods: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    methods.push(req.method ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"ok":');
    stalled.push(res);
  });
  let base = '';
  const dispatcher = new Agent();
  beforeAll(async () => {
    const serverAddress = await listenOnLoopback(server);
    base = serverAddress.origin;
  });
  afterAll(async () => {
    for (const res of stalled) res.destroy();
    await dispatcher.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is a time-out of the attempt, not a wait for ever', async () => {
    // The guard signal ends a call that never times out as `aborted`, so the test fails instead of hanging.
    const guard = AbortSignal.timeout(2_000);
    const result = await runTool(writeTool, { ...validParams, base_url: base }, { dispatcher, timeoutMs: 150, signal: guard });
    expect(result).toMatchObject({ success: false, error: { code: 'timeout', message: 'no complete response within 150 ms', retryable: false }, meta: { attempts: 1 } });
  });

  it('is retried on a safe call, each attempt with its own limit', async () => {
    const guard = AbortSignal.timeout(2_000);
    const result = await runTool(readTool, { ...validParams, base_url: base }, { dispatcher, timeoutMs: 100, signal: guard, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    expect(result).toMatchObject({ success: false, error: { code: 'timeout', retryable: true }, meta: { attempts: 2 } });
    // Only this test sends GETs: the write of the test before is a POST, counted apart however late it arrives.
    expect(methods.filter((method) => method === 'GET')).toHaveLength(2);
  });
});
