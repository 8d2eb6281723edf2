/**
 * A log line with every character that could end or rewrite a line escaped: C0 controls
 * (CR, LF, ESC, …), DEL, C1 controls and the Unicode line and paragraph separators become
 * `\uXXXX`, and a backslash becomes `\\`, so text from outside (a workflow id, an error
 * message) can never start a line of its own or pass for an escape.
 */
export function escapeLogLine(line: string): string {
  let out = '';
  for (const char of line) {
    const code = char.codePointAt(0)!;
    if (code === 0x5c) out += '\\\\';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return out;
}

/** `sink`, every line escaped first. */
export function escapedLog(sink: ((line: string) => void) | undefined): (line: string) => void {
  if (!sink) return () => {};
  return (line) => sink(escapeLogLine(line));
}
