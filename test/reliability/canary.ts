/**
 * The secret canary: unique credentials per case, a capture of everything written to
 * stdout and stderr while the suite runs, and a scan of any value for any canary.
 */
import { randomBytes } from 'node:crypto';

const issued: string[] = [];

/** A fresh secret that cannot occur by chance; remembered for the scans. */
export function canary(kind: string): string {
  const value = `canary_${kind}_${randomBytes(12).toString('hex')}`;
  issued.push(value);
  return value;
}

export function issuedCanaries(): readonly string[] {
  return issued;
}

/** The canaries found in `value` (any JSON-like value, an Error, or text). */
export function leaks(value: unknown, secrets: readonly string[] = issued): string[] {
  const text = typeof value === 'string' ? value : serialize(value);
  return secrets.filter((secret) => text.includes(secret) || text.includes(encodeURIComponent(secret)));
}

function serialize(value: unknown): string {
  if (value instanceof Error) return `${value.name} ${value.message} ${value.stack ?? ''} ${serialize(value.cause)}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Wraps stdout/stderr writes and keeps a copy of what passed through, until `stop()`. */
export function captureOutput() {
  const written: string[] = [];
  const originals = { out: process.stdout.write, err: process.stderr.write };
  const wrap = (original: typeof process.stdout.write) =>
    function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof process.stdout.write;
  process.stdout.write = wrap(originals.out);
  process.stderr.write = wrap(originals.err);
  return {
    text: () => written.join(''),
    stop() {
      process.stdout.write = originals.out;
      process.stderr.write = originals.err;
    },
  };
}

/** Records unhandled rejections for as long as the test runs. */
export function watchUnhandled() {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  return { seen, stop: () => process.off('unhandledRejection', listener) };
}
