/**
 * The raw-bytes look for secrets (issue 21): a large JSON answer is searched for each secret
 * form as bytes, which is one memchr-fast pass, instead of deep-walking the parsed rows.
 * Only a "certainly none" is trusted; anything doubtful answers "maybe", and the parsed value
 * is then walked as before.
 */

/** Below this a walk of the parsed value costs less than the byte search and the bookkeeping. */
export const RAW_SCAN_MIN_BYTES = 16 * 1024;

const BACKSLASH = 0x5c;
/** Characters a JSON text may spell as an escape (`\"`, `\\`, `\/`, `\n` …), besides `\uXXXX`. */
const ESCAPABLE = /["\\/\u0000-\u001f]/;

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
  if (needles.some((needle) => ESCAPABLE.test(needle))) return false;
  return !bytes.includes('\\u', firstBackslash, 'latin1');
}
