/** The byte bound one piece at a time: what a cut keeps, and that it never passes the bound. */
import { describe, expect, it } from 'vitest';
import { boundResult, fitJson } from '../../src/hosts/agents/bound-result.js';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('fitJson', () => {
  it('keeps a value that fits as it is', () => {
    const value = { a: [1, 'two', null, true], b: { c: 'd' } };
    expect(fitJson(value, 1_000)).toEqual({ value, bytes: bytesOf(value), cut: false });
  });

  it('never passes the budget, whatever the value (escapes, multi-byte text, surrogate pairs)', () => {
    const values = ['\u0000'.repeat(5_000), 'é'.repeat(5_000), '😀'.repeat(5_000), { rows: Array.from({ length: 1_000 }, (_, i) => ({ i, s: `row ${i}` })) }];
    for (const value of values) {
      for (const budget of [0, 1, 7, 100, 999, 4_096]) {
        const fitted = fitJson(value, budget);
        if (fitted.value !== undefined) expect(bytesOf(fitted.value)).toBeLessThanOrEqual(budget);
        expect(fitted.cut).toBe(true);
        // A cut string never ends in half a surrogate pair.
        if (typeof fitted.value === 'string') expect(fitted.value).not.toMatch(/[\uD800-\uDBFF]…?$/);
      }
    }
  });

  it('keeps the small fields (a cursor, a count) when the rows are cut, in the key order given', () => {
    const page = { contacts: Array.from({ length: 500 }, (_, i) => ({ id: `c${i}`, email: `user${i}@example.com` })), pagination: { nextCursor: 'abc' }, total: 500 };
    const fitted = fitJson(page, 2_000);
    const kept = fitted.value as typeof page;
    expect(Object.keys(kept)).toEqual(['contacts', 'pagination', 'total']);
    expect(kept.total).toBe(500);
    expect(kept.pagination).toEqual({ nextCursor: 'abc' });
    expect(kept.contacts.length).toBeGreaterThan(0);
    expect(kept.contacts.length).toBeLessThan(500);
  });

  it('walks a deeply nested value in time linear in what it keeps', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 2_000; i++) deep = { a: deep, n: i };
    const started = performance.now();
    const fitted = fitJson(deep, 100_000);
    expect(fitted.cut).toBe(false);
    expect(bytesOf(fitted.value)).toBe(bytesOf(deep));
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('keeps a __proto__ key a key', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "x": "y"}') as Record<string, unknown>;
    const fitted = fitJson(value, 1_000).value as Record<string, unknown>;
    expect(Object.hasOwn(fitted, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(fitted)).toBe(Object.prototype);
  });
});

describe('boundResult', () => {
  it('cuts an output and an error to the bound, saying so', () => {
    const ok = boundResult({ ok: true, output: { data: [{ big: 'x'.repeat(50_000) }] }, notes: ['returned 1 of 1 rows'] }, 10_000);
    expect(bytesOf(ok)).toBeLessThanOrEqual(10_000);
    expect(ok).toMatchObject({ ok: true, truncated: { field: 'output', unit: 'bytes', total: 50_021 }, notes: ['returned 1 of 1 rows', expect.stringContaining('ask for less')] });
    const error = boundResult({ ok: false, error: { code: 'invalid_response', message: 'm'.repeat(100_000), retryable: false, issues: Array.from({ length: 5_000 }, () => ({ path: 'p', message: 'q' })) } }, 10_000);
    expect(bytesOf(error)).toBeLessThanOrEqual(10_000);
    expect(error).toMatchObject({ ok: false, error: { code: 'invalid_response', message: expect.stringMatching(/^m+… \[cut: the error was 100000 characters/) } });
  });
});
