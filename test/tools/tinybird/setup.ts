import { executeTool } from '../../../src/index.js';
import type { ExecuteOptions } from '../../../src/harness/types.js';
import { mockService } from '../../helpers/mock-service.js';

export const BASE = 'https://api.tinybird.co';
export const TOKEN = 'p.eyJ1IjogInRlc3QtdG9rZW4ifQ.signature';
export const auth = { base_url: BASE, token: TOKEN };
export const fast: ExecuteOptions = { retry: { baseDelayMs: 1, maxDelayMs: 4 } };

/** A mocked Tinybird and a runner bound to it. */
export function tinybird() {
  const svc = mockService(BASE);
  const run = (id: string, params: Record<string, unknown>, options: ExecuteOptions = {}) =>
    executeTool(id, { ...auth, ...params }, { dispatcher: svc.agent, ...fast, ...options });
  return { ...svc, run };
}

export function formOf(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(String(body)));
}

export const JOB_ID = 'c8ae13ef-e739-40b6-8bd5-b1e07c8671c2';
