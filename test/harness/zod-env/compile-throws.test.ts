import { describe, expect, it, vi } from 'vitest';
import type { z as Z } from 'zod';

/**
 * A zod whose `compile` is broken: it throws for some schemas, and for others returns a
 * schema whose parse throws (generated code calling what that zod lacks). Neither is the
 * caller's fault: the result is the right one (the schema as written parses), or `internal`.
 */
const broken = vi.hoisted(() => ({ parses: 0 }));
vi.mock('zod', async (importOriginal) => {
  const actual = await importOriginal<typeof import('zod')>();
  const compile = (schema: Z.ZodType) => {
    if (schema.meta()?.brokenCompile === 'throws') throw new TypeError('z2.compile is not a function');
    return new Proxy(schema, {
      get: (target, name, receiver) =>
        name === 'safeParse'
          ? () => {
              broken.parses++;
              throw new TypeError('generated code: util.missing is not a function');
            }
          : Reflect.get(target, name, receiver),
    });
  };
  return { ...actual, z: { ...actual.z, compile } };
});

// A setup file may have loaded the harness with the real zod already (test/mutation/setup.ts): load it again.
vi.resetModules();
const { z } = await import('zod');
const { executeTool, runTool } = await import('../../../src/index.js');
const { defineTool } = await import('../../../src/harness/define/define-tool.js');
const { mockService } = await import('../../helpers/mock-service.js');
const { ORIGIN, readParts, readTool, validParams } = await import('../fixtures.js');

describe('a zod whose compile throws', () => {
  it('a compile that throws: the call is made and answered as with a working zod', async () => {
    const tool = defineTool({
      ...readParts,
      id: 'example_compile_throws',
      params: readParts.params.meta({ brokenCompile: 'throws' }),
      output: z.looseObject({ ok: z.boolean() }).meta({ brokenCompile: 'throws' }),
      response: (res) => res.body as { ok: boolean },
    });
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await runTool(tool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { ok: true } });
    expect(svc.requests.map((r) => `${r.method} ${r.path}?name=${String(r.query.name)}`)).toEqual(['GET /items?name=widget']);
    const refused = await runTool(tool, { ...validParams, name: 'x' }, { dispatcher: svc.agent });
    expect(refused).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'name' }] } });
  });

  it('a compiled schema whose parse throws: the schema as written parses instead, and from then on', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } }, { status: 200, body: { ok: true } });
    const before = broken.parses;
    for (let i = 0; i < 2; i++) {
      const result = await executeTool(readTool, validParams, { dispatcher: svc.agent });
      expect(result).toMatchObject({ success: true, output: { ok: true }, meta: { attempts: 1 } });
    }
    expect(svc.requests).toHaveLength(2);
    // The params' and the output's compiled forms threw once each, on the first call only.
    expect(broken.parses - before).toBe(2);
  });

  it('a wire schema that throws is internal, naming the step', async () => {
    const tool = defineTool({
      ...readParts,
      id: 'example_broken_wire',
      output: z.looseObject({}),
      wire: z.looseObject({}).transform((): Record<string, unknown> => {
        throw new TypeError('wire.missing is not a function');
      }),
      response: (res) => res.body,
    });
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await runTool(tool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'internal', message: expect.stringMatching(/^internal error while checking the service's answer: wire\.missing is not a function/) },
    });
  });

  it('a schema that throws however it is parsed, on plain params: internal, naming the cause, nothing sent', async () => {
    const broken = z.string().transform((): string => {
      throw new TypeError('z.util.missing is not a function');
    });
    const tool = defineTool({ ...readParts, id: 'example_broken_schema', params: readParts.params.extend({ name: broken }), output: z.looseObject({}), response: (res) => res.body as Record<string, unknown> });
    const svc = mockService(ORIGIN);
    const result = await runTool(tool, validParams, { dispatcher: svc.agent });
    expect(result).toEqual({
      success: false,
      error: {
        code: 'internal',
        message:
          "internal error while checking the params: z.util.missing is not a function (a fault of flowblocks or of a package it runs with, not of the call's input)",
        retryable: false,
      },
      meta: { attempts: 0, durationMs: expect.any(Number) },
    });
    expect(svc.requests).toHaveLength(0);
  });

  it('an output schema that throws is internal, not invalid_response or invalid_params', async () => {
    const tool = defineTool({
      ...readParts,
      id: 'example_broken_output',
      output: z.looseObject({}).transform(() => {
        throw new TypeError('output.missing is not a function');
      }),
      response: (res) => res.body as Record<string, unknown>,
    });
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await runTool(tool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'internal', message: expect.stringMatching(/^internal error while checking the tool's output: output\.missing is not a function/) },
      meta: { status: 200, attempts: 1 },
    });
  });
});
