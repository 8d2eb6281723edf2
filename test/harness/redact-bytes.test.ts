/**
 * The raw-bytes look for secrets, by its contract: "true" (the walk of the parsed answer is
 * skipped) only when the JSON text cannot decode to a string holding a secret; every doubt is
 * "false". A wrong "true" is a secret returned unmasked, so each way a JSON text can spell a
 * character is tried.
 */
import { describe, expect, it } from 'vitest';
import { bytesHoldAnyNeedle, bytesHoldNoNeedle, jsonEscapedForms } from '../../src/harness/mask/redact-bytes.js';

const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
const SECRET = 'sk_live_bytes-secret';

describe('bytesHoldNoNeedle', () => {
  it('clears an answer without the secret and without a backslash', () => {
    expect(bytesHoldNoNeedle(json({ rows: [{ a: 'x', b: 1 }] }), [SECRET])).toBe(true);
    // A secret with characters a short escape spells is still cleared when the text has no escape at all.
    expect(bytesHoldNoNeedle(json({ rows: ['plain'] }), ['a"b/c\\d\te'])).toBe(true);
  });

  it('finds the secret as it stands, in any of the needles', () => {
    expect(bytesHoldNoNeedle(json({ echo: `token ${SECRET} here` }), [SECRET])).toBe(false);
    expect(bytesHoldNoNeedle(json({ echo: encodeURIComponent('a+b/c') }), ['a+b/c', encodeURIComponent('a+b/c')])).toBe(false);
    expect(bytesHoldNoNeedle(json({ ünï: 'çødé-sécret' }), ['çødé-sécret'])).toBe(false);
  });

  it('doubts every secret once the text has a \\u escape, which can spell any character', () => {
    const text = Buffer.from(`{"echo":"${[...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`);
    expect(JSON.parse(text.toString()).echo).toBe(SECRET);
    expect(bytesHoldNoNeedle(text, [SECRET])).toBe(false);
    expect(bytesHoldNoNeedle(Buffer.from('{"a":"\\u00e9"}'), ['unrelated'])).toBe(false);
  });

  it.each([
    ['a quote', 'sk"quoted', '{"echo":"sk\\"quoted"}'],
    ['a backslash', 'sk\\back', '{"echo":"sk\\\\back"}'],
    ['a slash', 'sk/slash', '{"echo":"sk\\/slash"}'],
    ['a tab', 'sk\ttab', '{"echo":"sk\\ttab"}'],
    ['a newline', 'sk\nline', '{"echo":"sk\\nline"}'],
  ])('doubts a secret with %s when the text has a short escape, which may spell it', (_, secret, raw) => {
    const text = Buffer.from(raw);
    expect(text.includes(secret)).toBe(false);
    expect(JSON.parse(raw).echo).toBe(secret);
    expect(bytesHoldNoNeedle(text, [secret])).toBe(false);
  });

  it('clears a secret of plain characters (a space is one) when the only escapes are short ones', () => {
    // `\n` and `\"` cannot spell a plain character: the secret, absent as bytes, is absent.
    expect(bytesHoldNoNeedle(json({ a: 'line\nbreak "quoted"' }), ['sk live plain'])).toBe(true);
  });

  it('never clears a secret holding U+FFFD, which invalid UTF-8 decodes to', () => {
    expect(bytesHoldNoNeedle(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), ['x\ufffdy'])).toBe(false);
    expect(bytesHoldNoNeedle(json({ a: 1 }), ['\ufffd'])).toBe(false);
  });
});

describe('jsonEscapedForms and bytesHoldAnyNeedle (binary answers)', () => {
  it('spells a secret as JSON would, with and without an escaped /, and nothing for a plain one', () => {
    expect(jsonEscapedForms('plain-secret')).toEqual([]);
    expect(jsonEscapedForms('a"b')).toEqual(['a\\"b']);
    expect(jsonEscapedForms('a/b')).toEqual(['a\\/b']);
    expect(jsonEscapedForms('a/"\n')).toEqual(['a/\\"\\n', 'a\\/\\"\\n']);
  });

  it('finds a needle in bytes as UTF-8 or JSON-escaped, anywhere, in a Uint8Array view too', () => {
    const bytes = (text: string) => Buffer.concat([Buffer.from([0, 0xff]), Buffer.from(text), Buffer.from([0x80])]);
    expect(bytesHoldAnyNeedle(bytes(`x${SECRET}y`), [SECRET])).toBe(true);
    expect(bytesHoldAnyNeedle(bytes(JSON.stringify({ k: 'wf/"key' })), ['wf/"key'])).toBe(true);
    expect(bytesHoldAnyNeedle(bytes('wf\\/\\"key'), ['wf/"key'])).toBe(true);
    expect(bytesHoldAnyNeedle(bytes('nothing here'), [SECRET, 'wf/"key'])).toBe(false);
    const backing = Buffer.from(`....${SECRET}....`);
    expect(bytesHoldAnyNeedle(new Uint8Array(backing.buffer, backing.byteOffset + 4, SECRET.length), [SECRET])).toBe(true);
    expect(bytesHoldAnyNeedle(new Uint8Array(backing.buffer, backing.byteOffset, 4), [SECRET])).toBe(false);
  });
});
