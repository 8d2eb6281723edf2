import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldMeta, paramNames, paramShape, secretParam, uiParam, userOnlyParam } from '../../src/harness/define/fields.js';

/** What each declaration promises the agent view, the editor and the redaction, read back through the public helpers. */
describe('param metadata (src/harness/define/fields.ts)', () => {
  it('a secret is user-only, redacted and a password field; nothing else is claimed', () => {
    expect(fieldMeta(secretParam(z.string()))).toEqual({ visibility: 'user-only', secret: true, ui: 'password' });
  });

  it('a user-only param is hidden from models but not a secret, and has no editor hint', () => {
    expect(fieldMeta(userOnlyParam(z.url()))).toEqual({ visibility: 'user-only' });
  });

  it('an editor hint leaves the param to the model, with the hint as given', () => {
    expect(fieldMeta(uiParam(z.string(), { ui: 'code', language: 'sql', placeholder: 'SELECT 1' }))).toEqual({
      visibility: 'user-or-llm',
      ui: 'code',
      language: 'sql',
      placeholder: 'SELECT 1',
    });
  });

  it('a param declared without metadata is open to the model, not secret', () => {
    expect(fieldMeta(z.string())).toEqual({ visibility: 'user-or-llm' });
  });

  it('each declaration annotates its own schema only', () => {
    const plain = z.string();
    secretParam(plain.min(1));
    expect(fieldMeta(plain)).toEqual({ visibility: 'user-or-llm' });
  });

  it('paramShape finds the object through refinements and through pipes (transform), nested too', () => {
    const object = z.object({ token: secretParam(z.string()), q: z.string() });
    expect(Object.keys(paramShape(object))).toEqual(['token', 'q']);
    expect(Object.keys(paramShape(object.refine(() => true)))).toEqual(['token', 'q']);
    const piped = object.transform((p) => p).pipe(z.object({ token: z.string(), q: z.string() }));
    expect(paramShape(piped).token).toBe(object.shape.token);
    expect(paramShape(object.transform((p) => ({ ...p, extra: 1 }))).q).toBe(object.shape.q);
  });

  it('paramShape refuses params that are not a zod object, naming the rule', () => {
    expect(() => paramShape(z.string())).toThrow(new Error('tool params must be a zod object'));
    expect(() => paramShape(z.array(z.object({ a: z.string() })))).toThrow('tool params must be a zod object');
    expect(() => paramShape(z.string().transform((s) => s.length))).toThrow('tool params must be a zod object');
  });

  it('paramNames lists the params whose metadata matches, in declaration order', () => {
    const params = z
      .object({
        base_url: userOnlyParam(z.url()),
        apiKey: secretParam(z.string()),
        query: uiParam(z.string(), { ui: 'code', language: 'sql' }),
        limit: z.number(),
        token: secretParam(z.string()),
      })
      .transform((p) => p);
    expect(paramNames(params, (meta) => meta.visibility === 'user-only')).toEqual(['base_url', 'apiKey', 'token']);
    expect(paramNames(params, (meta) => meta.secret === true)).toEqual(['apiKey', 'token']);
    expect(paramNames(params, (meta) => meta.visibility === 'user-or-llm')).toEqual(['query', 'limit']);
    expect(paramNames(params, () => false)).toEqual([]);
  });
});
