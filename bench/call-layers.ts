/**
 * Where a small call's client CPU goes, layer by layer: `npx tsx bench/call-layers.ts
 * [concurrency=64] [calls=30000] [rounds=7]`. Each row adds one layer of the harness to the one
 * before, calling the same local server (bench/server.ts, a child process) as
 * `tinybird_query`'s request, in rotating rounds; the figure is this process's CPU time per
 * call (median and range of the rounds), which the server's own work does not move.
 *
 *   raw dispatch      undici's dispatch with a handler that collects and parses (the floor)
 *   attempt           the harness's attempt: time limit, byte cap, headers, body decoding
 *   sendRequest       + the request built from the tool's spec, the retry loop's bookkeeping
 *   runTool           + params and answer checks, the call's options, the secret scan, meta
 *
 * It imports the harness's sources (through tsx), not dist/: a diagnostic, not a goal row.
 */
import tool from '../tools/tinybird/query.js';
import { attempt } from '../src/harness/send/attempt.js';
import { withIdempotencyKey } from '../src/harness/run/call-options.js';
import { sharedDispatcher, closeSharedDispatcher } from '../src/harness/send/dispatcher.js';
import { runTool } from '../src/harness/run/execute.js';
import { Redactor } from '../src/harness/mask/redact.js';
import { buildRequest, type BuiltRequest } from '../src/harness/send/request.js';
import { createCallState, sendRequest } from '../src/harness/send/send.js';
import { median, startChild, stopChild, timeCalls } from './measure.js';
import { viaDispatch } from './raw-clients.js';
import type { Agent } from 'undici';

const [concurrency = 64, calls = 30_000, rounds = 7] = process.argv.slice(2).map(Number);
const { child, message } = await startChild<{ port: number }>('./server.ts');
const base = `http://127.0.0.1:${message.port}`;
const params = { base_url: base, token: 'p.bench-token', query: 'SELECT count() AS n, day FROM events GROUP BY day FORMAT JSON' };
const spec = tool.request(tool.params.parse(params), withIdempotencyKey({}));
const built = buildRequest(spec) as BuiltRequest;
const dispatcher = sharedDispatcher() as Agent;
const settings = { dispatcher, timeoutMs: 30_000 };

const layers: [string, () => Promise<unknown>][] = [
  ['raw dispatch', () => viaDispatch(dispatcher, base, { method: 'POST', path: '/v0/sql', headers: built.headers, body: built.body as string })],
  ['attempt', () => attempt(built, settings)],
  ['sendRequest', () => sendRequest(spec, createCallState(tool.id, true, {}, new Redactor([params.token])))],
  ['runTool', () => runTool(tool, params)],
];

for (const [, fn] of layers) await timeCalls(5_000, concurrency, fn);
const perCall = new Map<string, number[]>(layers.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  // A different layer goes first each round, so none always runs on a warmer or cooler machine.
  for (let i = 0; i < layers.length; i++) {
    const [name, fn] = layers[(i + round) % layers.length]!;
    const start = process.cpuUsage();
    await timeCalls(calls, concurrency, fn);
    const used = process.cpuUsage(start);
    perCall.get(name)!.push((used.user + used.system) / calls);
  }
}
const floor = median(perCall.get('raw dispatch')!);
console.log(`client CPU per call, concurrency ${concurrency}, ${rounds} rounds of ${calls} calls:`);
for (const [name, values] of perCall) {
  const m = median(values);
  console.log(`${name.padEnd(14)} ${m.toFixed(2)} µs (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})  ${(m / floor).toFixed(2)}× raw dispatch`);
}
await closeSharedDispatcher();
await stopChild(child);
