/**
 * Run in a child with a small heap: one answer naming a limit of 10⁹ (all of it spent by
 * someone else), then one more call under the same key. Prints what the pacer did and the
 * heap it took; before the clamps, this process died at its heap limit.
 */
import { Pacer } from '../../../src/harness/pace/pacer.js';

const pacer = new Pacer();
const spec = { key: 'loops:0123456789abcdef', limit: 10, windowMs: 1_000 };
const before = process.memoryUsage().heapUsed;
(await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '1000000000', 'x-ratelimit-remaining': '0' } });
const grewBytes = process.memoryUsage().heapUsed - before;
let outcome: unknown;
try {
  (await pacer.acquire(spec, undefined, 10)).done();
  outcome = 'started';
} catch (error) {
  outcome = (error as { error?: unknown }).error;
}
process.stdout.write(JSON.stringify({ grewBytes, outcome }));
