import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { defineConnection } from '../../src/harness/define/service.js';

/** A connection without a base URL param: the caller's `endpoints` entry, else the default. */
const endpoint = (options: { endpoints?: Record<string, string> }, service: string, fallback: string) =>
  defineConnection({ service, baseUrl: { default: fallback }, credential: { param: 'apiKey', schema: z.string(), header: 'authorization', env: 'X_KEY' } }).resolveBaseUrl({}, options);

describe('defineTool, and a base URL from endpoints (src/harness/define/)', () => {
  it('defineTool hands back the very declaration it was given', () => {
    const declaration = {
      id: 'example_x',
      name: 'X',
      description: 'x',
      scopes: [],
      service: 'example',
      annotations: { readOnly: true, destructive: false, idempotent: true },
      params: z.object({}),
      output: z.object({}),
      request: () => ({ method: 'GET' as const, url: 'https://x.test/' }),
      response: () => ({}),
    };
    expect(defineTool(declaration)).toBe(declaration);
  });

  it("takes the caller's endpoint for the service, else the fallback, without trailing slashes", () => {
    const fallback = 'https://app.loops.so/api/';
    expect(endpoint({}, 'loops', fallback)).toBe('https://app.loops.so/api');
    expect(endpoint({ endpoints: {} }, 'loops', fallback)).toBe('https://app.loops.so/api');
    expect(endpoint({ endpoints: { tinybird: 'http://127.0.0.1:1/tb' } }, 'loops', fallback)).toBe('https://app.loops.so/api');
    expect(endpoint({ endpoints: { loops: 'http://127.0.0.1:7181/loops///' } }, 'loops', fallback)).toBe('http://127.0.0.1:7181/loops');
    // Only trailing slashes go: the path and the scheme's keep theirs.
    expect(endpoint({ endpoints: { loops: 'http://h.test//a//b' } }, 'loops', fallback)).toBe('http://h.test//a//b');
    expect(endpoint({}, 'x', 'http://h.test')).toBe('http://h.test');
  });

  it('never reads an inherited member as an endpoint (endpoints may be parsed JSON)', () => {
    const fallback = 'https://real.test';
    expect(endpoint({ endpoints: {} }, 'constructor', fallback)).toBe(fallback);
    expect(endpoint({ endpoints: {} }, 'toString', fallback)).toBe(fallback);
    const parsed = JSON.parse('{"__proto__":"http://own.test/"}') as Record<string, string>;
    expect(endpoint({ endpoints: parsed }, '__proto__', fallback)).toBe('http://own.test');
  });
});
