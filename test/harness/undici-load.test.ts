import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeSharedDispatcher } from '../../src/harness/send/dispatcher.js';
import { runTool } from '../../src/harness/run/execute.js';
import { readTool, validParams } from './fixtures.js';

// undici as a bundle without it, or an app's node_modules without it, would have it: not there.
const missing = vi.hoisted(() => ({ on: true }));
vi.mock('undici', async (importOriginal) => {
  if (missing.on) throw new Error("Cannot find module 'undici'");
  return importOriginal();
});

describe('undici, loaded on the first request (src/harness/send/undici.ts)', () => {
  afterEach(async () => {
    missing.on = true;
    await closeSharedDispatcher();
  });

  it('is a module import a bundler can see: one that fails is `internal`, sent once, not retried', async () => {
    const events: string[] = [];
    const result = await runTool(readTool, validParams, { logger: (event) => events.push(event.type), retry: { maxAttempts: 4, baseDelayMs: 1 } });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toMatchObject({ code: 'internal', retryable: false });
    expect(result.error.message).toMatch(/^internal error while loading undici, the HTTP client: /);
    expect(events).not.toContain('retry');
    expect(result.meta.attempts).toBe(1);
  });

  it('is tried again by a later call once it can load (a failed load is not kept)', async () => {
    await runTool(readTool, validParams);
    missing.on = false;
    // The module loads now; the call goes on to the network (example.test resolves nowhere).
    const result = await runTool(readTool, validParams, { retry: false, timeoutMs: 2000 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).not.toBe('internal');
  });
});
