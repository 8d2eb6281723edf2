/**
 * One worker of the fleet suite, in a process of its own:
 *   node bench/fleet-worker.mjs <loops base URL> <sends> <concurrency> <event name> [redis URL]
 * The Loops API key comes in FLEET_LOOPS_API_KEY (not on the command line). With a Redis URL
 * it paces through the shared Redis pacer, without one through its own in-process pacer.
 * Sends `{ ready: true }` over IPC, waits for `go`, then sends
 * `{ ok, failed, responses, status429, startedAt, endedAt }` (epoch ms) and exits.
 */
import { closeSharedDispatcher, executeTool, Pacer } from '../dist/src/index.js';
import { createRedisPacer } from '../dist/src/redis/index.js';

const [loops, sends, concurrency, eventName, redisUrl] = process.argv.slice(2);
const apiKey = process.env.FLEET_LOOPS_API_KEY;
const pacer = redisUrl ? await createRedisPacer({ url: redisUrl, logger: (line) => process.stderr.write(`${line}\n`) }) : new Pacer();

let status429 = 0;
let responses = 0;
const logger = (event) => {
  if (event.type !== 'response') return;
  responses++;
  if (event.status === 429) status429++;
};

process.send({ ready: true });
await new Promise((resolve) => process.once('message', resolve));

const startedAt = Date.now();
let next = 0;
let ok = 0;
let failed = 0;
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (next < Number(sends)) {
      const i = next++;
      const result = await executeTool(
        'loops_send_event',
        { apiKey, eventName, email: `fleet-${process.pid}-${i}@example.com` },
        { pacer, endpoints: { loops }, logger },
      );
      if (result.success) ok++;
      else failed++;
    }
  }),
);
const endedAt = Date.now();
await Promise.all([closeSharedDispatcher(), pacer.close?.()]);
process.send({ ok, failed, responses, status429, startedAt, endedAt });
process.disconnect();
