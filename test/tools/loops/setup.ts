import { expect } from 'vitest';
import { executeTool } from '../../../src/index.js';
import { Pacer } from '../../../src/harness/pace/pacer.js';
import type { ExecuteOptions } from '../../../src/harness/types.js';
import { mockService, type RecordedRequest } from '../../helpers/mock-service.js';

/** The real service's origin: the tools default to https://app.loops.so/api/v1. */
export const ORIGIN = 'https://app.loops.so';
export const API = '/api/v1';
export const API_KEY = 'lk_test_5f2b9c0e8a7d4e3f9b1c6a2d';
export const fast: ExecuteOptions = { retry: { baseDelayMs: 1, maxDelayMs: 4 } };

/** A mocked Loops and a runner bound to it, with a pacer of its own so tests do not pace each other. */
export function loops() {
  const svc = mockService(ORIGIN);
  const pacer = new Pacer();
  const run = (id: string, params: Record<string, unknown>, options: ExecuteOptions = {}) =>
    executeTool(id, { apiKey: API_KEY, ...params }, { dispatcher: svc.agent, pacer, ...fast, ...options });
  return { ...svc, run, pacer };
}

export function jsonOf(req: RecordedRequest | undefined): unknown {
  return req?.body === undefined ? undefined : JSON.parse(String(req.body));
}

/** The request every Loops call makes: Bearer key, JSON in and out. */
export function expectLoopsHeaders(req: RecordedRequest | undefined, { body }: { body: boolean }) {
  expect(req?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(req?.headers.accept).toContain('application/json');
  if (body) expect(req?.headers['content-type']).toBe('application/json');
  else expect(req?.headers['content-type']).toBeUndefined();
}

export const CONTACT_ID = 'clh3k9m2p4q6r8s0t2v4x6z8';
export const LIST_ID = 'cm06f5v0e45nf0ml5754o9cix';
export const TEMPLATE_ID = 'cll42l54f20i1la0lfooe3z12';
