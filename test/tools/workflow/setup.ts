import { executeTool } from '../../../src/index.js';
import type { ExecuteOptions } from '../../../src/harness/types.js';
import { mockService } from '../../helpers/mock-service.js';

export const BASE = 'https://workflows.example.com';
export const API_KEY = 'sk-wf-0c4f1d9e8b7a6f5e4d3c';
export const auth = { base_url: BASE, apiKey: API_KEY };
export const fast: ExecuteOptions = { retry: { baseDelayMs: 1, maxDelayMs: 4 } };

/** A mocked workflow platform and a runner bound to it. */
export function platform() {
  const svc = mockService(BASE);
  const run = (id: string, params: Record<string, unknown>, options: ExecuteOptions = {}) =>
    executeTool(id, { ...auth, ...params }, { dispatcher: svc.agent, ...fast, ...options });
  return { ...svc, run };
}

export function jsonOf(body: unknown): unknown {
  return JSON.parse(String(body));
}
