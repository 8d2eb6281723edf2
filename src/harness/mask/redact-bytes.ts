/**
 * The raw-bytes look for secrets: a large JSON answer is searched for each secret
 * form as bytes, which is one memchr-fast pass, instead of deep-walking the parsed rows.
 * Only a "certainly none" is trusted; anything doubtful answers "maybe", and the parsed value
 * is then walked as before.
 */

/** Below this a walk of the parsed value costs less than the byte search and the bookkeeping. */
export const RAW_SCAN_MIN_BYTES = 16 * 1024;

const BACKSLASH = 0x5c;
/** Whether `text` holds a character a JSON text may spell as a short escape (`\"`, `\\`, `\/`, `\n` …). */
function hasEscapable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x2f) return true;
  }
  return false;
}

/**
 * True only when the JSON text in `bytes` cannot decode to a string holding any needle:
 * - no needle occurs in the bytes (UTF-8), and
 * - no escape sequence can make one: the text has no backslash at all, or it has no `\u`
 *   escape (which can spell any character) and no needle holds a character the short
 *   escapes spell. A decoded character of a needle then comes from the same bytes verbatim.
 * A needle with U+FFFD (what invalid UTF-8 decodes to) is never cleared by bytes.
 */
export function bytesHoldNoNeedle(bytes: Buffer, needles: readonly string[]): boolean {
  for (const needle of needles) {
    if (needle.includes('\ufffd') || bytes.includes(needle, 0, 'utf8')) return false;
  }
  const firstBackslash = bytes.indexOf(BACKSLASH);
  if (firstBackslash === -1) return true;
  if (needles.some(hasEscapable)) return false;
  return !bytes.includes('\\u', firstBackslash, 'latin1');
}

/**
 * The ways a secret's characters can stand in a JSON string besides themselves: each one
 * escaped as `JSON.stringify` does, and with `/` escaped too (`\/`, which some encoders write).
 */
export function jsonEscapedForms(text: string): string[] {
  const escaped = JSON.stringify(text).slice(1, -1);
  const forms = escaped === text ? [] : [escaped];
  if (text.includes('/')) forms.push(escaped.split('/').join('\\/'));
  return forms;
}

/**
 * True when bytes the harness cannot parse (a binary answer: Parquet, an archive, an image)
 * hold a needle in any form the redactor masks: as UTF-8, and each JSON-escaped. Masking
 * inside such bytes would corrupt them, so a hit is refused, not masked.
 */
export function bytesHoldAnyNeedle(bytes: Uint8Array, needles: readonly string[]): boolean {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const needle of needles) {
    if (buffer.includes(needle, 0, 'utf8')) return true;
    for (const form of jsonEscapedForms(needle)) if (buffer.includes(form, 0, 'utf8')) return true;
  }
  return false;
}
