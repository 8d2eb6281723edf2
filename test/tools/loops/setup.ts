import { expect } from 'vitest';
import type { RecordedRequest } from '../../helpers/mock-service.js';
import { serviceRunner } from '../../helpers/service-runner.js';

export { fast } from '../../helpers/service-runner.js';

/** The real service's origin: the tools default to https://app.loops.so/api/v1. */
export const ORIGIN = 'https://app.loops.so';
export const API = '/api/v1';
export const API_KEY = 'lk_test_5f2b9c0e8a7d4e3f9b1c6a2d';

/** A mocked Loops (its default base URL) and a runner bound to it, with a pacer of its own. */
export function loops() {
  const { pacer, ...svc } = serviceRunner('loops', { credential: API_KEY });
  return { ...svc, pacer: pacer! };
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
