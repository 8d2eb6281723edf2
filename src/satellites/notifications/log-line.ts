/** The escapes JSON writes short. */
const SHORT: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

/**
 * A log line as written: ids and messages from outside (workflow and execution ids, a
 * service's error text) can hold CR, LF and other control characters, which would forge or
 * split lines in a log file or a terminal. Each is written as its escape (`\r`, `\n`, `\u001b`),
 * as JSON would write it.
 */
export function logLine(line: string): string {
  // Output encoding of C0, DEL, C1 and the Unicode line separators, not a filter on input.
  // eslint-disable-next-line no-control-regex
  return line.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `log`, writing every line through `logLine`. */
export function escapedLog(log: ((line: string) => void) | undefined): (line: string) => void {
  return log ? (line) => log(logLine(line)) : () => {};
}
