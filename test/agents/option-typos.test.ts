import { jsonSchema } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createMcpToolHandlers, createToolExecutor, toAiSdkTools, type AgentToolOptions, type ServiceId } from '../../src/hosts/agents/index.js';

const KEY = 'loops-secret-key-typo';

describe('agent options name only what exists (issue 42)', () => {
  it("toAiSdkTools({ services: ['tinybrd'] }) is refused with the name and a did-you-mean, not 0 tools", async () => {
    // @ts-expect-error 'tinybrd' is no service id: services is typed as the services' ids
    await expect(toAiSdkTools({ services: ['tinybrd'], jsonSchema })).rejects.toThrow(
      `invalid agent options: services.0: unknown service "tinybrd" (did you mean 'tinybird'?)`,
    );
  });

  it('a misspelled service or setting in settings is refused, naming the key and never the value', async () => {
    const refused = toAiSdkTools({ jsonSchema, settings: { loops: { apikey: KEY }, tinybrid: { token: KEY } } });
    await expect(refused).rejects.toThrow(
      `invalid agent options: settings.tinybrid: unknown service "tinybrid" (did you mean 'tinybird'?); settings.loops.apikey: unknown setting of loops "apikey" (did you mean 'apiKey'?)`,
    );
    await expect(refused.catch((error: Error) => error.message)).resolves.not.toContain(KEY);
    expect(() => createToolExecutor({ settings: { workflow: { base_ur: 'https://x.example' } } })).toThrow(`unknown setting of workflow "base_ur" (did you mean 'base_url'?)`);
    expect(() => createMcpToolHandlers({ services: ['lops' as ServiceId] })).toThrow(`unknown service "lops" (did you mean 'loops'?)`);
  });

  it('right names pass, and the type of services is the service ids', async () => {
    const tools = await toAiSdkTools({ jsonSchema, services: ['loops'], readOnly: true, settings: { loops: { apiKey: KEY, base_url: 'https://app.loops.so/api/v1' } } });
    expect(Object.keys(tools)).toContain('loops_find_contact');
    expectTypeOf<NonNullable<AgentToolOptions['services']>[number]>().toEqualTypeOf<'tinybird' | 'loops' | 'workflow'>();
  });
});
