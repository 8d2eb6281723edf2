/**
 * Heap growth of a piece of work, with full collections before and after so only what the
 * work still holds is counted. `--expose-gc` is turned on at run time: vitest starts its
 * workers without it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Bytes the heap grew by across `work`, measured after a full collection on each side. */
export async function heapGrowth(work: () => unknown): Promise<number> {
  collect();
  const before = process.memoryUsage().heapUsed;
  await work();
  collect();
  return process.memoryUsage().heapUsed - before;
}

/** A flat (not rope) string of `bytes` Latin-1 characters, different for each `seed`. */
export function flatId(bytes: number, seed: number): string {
  const buffer = Buffer.alloc(bytes, 'a');
  buffer.write(`id_${seed}_`);
  return buffer.toString('latin1');
}
