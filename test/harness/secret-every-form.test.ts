/**
 * Issue 44, item 1: a secret is masked in every form a service can echo it in (raw,
 * percent-encoded, JSON-escaped, base64, base64url), in every place the harness hands
 * something back: the output's values and keys, an error's message, a logged URL. Secrets
 * from `test/helpers/secret-forms.ts`, which every encoding changes.
 */
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/harness/run/execute.js';
import { Redactor } from '../../src/harness/mask/redact.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';
import { echoEveryForm, expectNoSecretForm, secretForms, secretFormsIn, telling, TELLING_SECRETS } from '../helpers/secret-forms.js';
import { echoTool, ORIGIN, validParams } from './fixtures.js';

describe('the shared secret forms (test/helpers/secret-forms.ts)', () => {
  it.each(TELLING_SECRETS)('every encoding changes %s, and each form is found by its name', (secret) => {
    expect(telling(secret)).toBe(true);
    for (const form of secretForms(secret)) expect(secretFormsIn({ k: `x${form.text}y` }, [secret])).toContain(`${form.name} of ${secret}`);
    const base64 = secretForms(secret).find((form) => form.name === 'base64')!.text;
    expect(secretFormsIn(new Error('e', { cause: { [base64]: 1 } }), [secret])).toEqual([`base64 of ${secret}`]);
  });
});

describe('a secret in every form a service can echo it', () => {
  it.each(TELLING_SECRETS)('is masked in each form in an output value, alone and inside text (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    const alone = Object.fromEntries(secretForms(secret).map((form) => [form.name, form.text]));
    svc.on('GET', '/items', { status: 200, body: { alone, inText: echoEveryForm(secret) } });
    const result = await runTool(echoTool, { ...validParams, apiKey: secret }, { dispatcher: svc.agent });
    expect(result.success).toBe(true);
    expectNoSecretForm(result, [secret]);
    // Masked, not dropped: each form left its place, the rest of the text stayed.
    const output = (result as unknown as { output: { alone: Record<string, string>; inText: string } }).output;
    for (const form of secretForms(secret)) expect(output.alone[form.name]).toMatch(/^\[redacted\]={0,2}$/);
    expect(output.inText).toContain('raw=[redacted] | percent-encoded=[redacted] |');
  });

  it.each(TELLING_SECRETS)('is masked in each form as an output key (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { keys: Object.fromEntries(secretForms(secret).map((form, i) => [form.text, i])) } });
    const result = await runTool(echoTool, { ...validParams, apiKey: secret }, { dispatcher: svc.agent });
    expect(result.success).toBe(true);
    expectNoSecretForm(result, [secret]);
  });

  it.each(TELLING_SECRETS)('is masked in each form in an error text (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 403, body: `refused: ${echoEveryForm(secret)}` });
    const result = await runTool(echoTool, { ...validParams, apiKey: secret }, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: false, error: { code: 'forbidden' } });
    expectNoSecretForm(result, [secret]);
  });

  it.each(TELLING_SECRETS)('another credential the caller holds (options.secrets) is masked in each form too (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { other: echoEveryForm(secret) } });
    const result = await runTool(echoTool, validParams, { dispatcher: svc.agent, secrets: [secret] });
    expect(result.success).toBe(true);
    expectNoSecretForm(result, [secret]);
  });

  it.each(TELLING_SECRETS)('is masked in the logged URL of a request that carries it in its query (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: {} });
    const events: HarnessEvent[] = [];
    const base64 = Buffer.from(secret).toString('base64');
    await runTool(echoTool, { ...validParams, apiKey: secret, name: secret, tags: [base64] }, { dispatcher: svc.agent, logger: (e) => events.push(e) });
    expect(svc.requests[0]!.query).toMatchObject({ name: secret, tag: base64 });
    // The query is form-encoded (a space as `+`); base64's padding is no part of the secret.
    const padding = encodeURIComponent(base64.slice(base64.indexOf('=') >>> 0));
    expect(events[0]).toMatchObject({ type: 'request', url: `${ORIGIN}/items?name=[redacted]&tag=[redacted]${base64.includes('=') ? padding : ''}` });
    expectNoSecretForm(events, [secret]);
  });

  it('the base64 forms are masked with the padding left, and a secret of 4 characters is still a secret', () => {
    const redactor = new Redactor(['abcd']);
    // "abcd" is YWJjZA== in base64: masked, the padding is not part of the secret's own bytes.
    expect(redactor.text('t=YWJjZA== u=YWJjZA')).toBe('t=[redacted]== u=[redacted]');
    expect(new Redactor(['abc']).text('YWJj')).toBe('YWJj');
  });
});
