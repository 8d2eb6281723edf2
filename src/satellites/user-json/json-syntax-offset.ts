/** Where the scan stopped: the offset of the first character that cannot continue the text. */
class BreaksAt {
  constructor(readonly offset: number) {}
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';
const isHex = (ch: string | undefined) => ch !== undefined && /^[0-9a-fA-F]$/.test(ch);

/**
 * Where JSON text first breaks the grammar JSON.parse follows (RFC 8259): the offset of the
 * first character that cannot continue it, or the text's length when it ends too early;
 * undefined for valid JSON. JSON.parse's own message says where only in some Node versions
 * and quotes the text around it in others, so a user's JSON is located here instead.
 * Iterative: deep nesting cannot overflow the stack.
 */
export function jsonSyntaxOffset(text: string): number | undefined {
  let i = 0;
  const fail = (at: number): never => {
    throw new BreaksAt(Math.min(at, text.length));
  };
  const skipWhitespace = () => {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  };
  const scanString = () => {
    for (i++; ; ) {
      const ch = text[i];
      if (ch === undefined) fail(i);
      else if (ch === '"') return void i++;
      else if (ch.charCodeAt(0) < 0x20) fail(i);
      else if (ch !== '\\') i++;
      else if (SIMPLE_ESCAPES.has(text[i + 1]!)) i += 2;
      else if (text[i + 1] !== 'u') fail(i + 1);
      else {
        for (let k = i + 2; k < i + 6; k++) if (!isHex(text[k])) fail(k);
        i += 6;
      }
    }
  };
  const scanDigits = () => {
    if (!isDigit(text[i])) fail(i);
    while (isDigit(text[i])) i++;
  };
  const scanNumber = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else scanDigits();
    if (text[i] === '.') {
      i++;
      scanDigits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      scanDigits();
    }
  };
  const scanWord = (word: string) => {
    for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) fail(i + k);
    i += word.length;
  };

  // Open containers, innermost last; `expect` is what the grammar allows next.
  const open: ('{' | '[')[] = [];
  let expect: 'value' | 'first-value' | 'key' | 'first-key' | 'after-value' = 'value';
  try {
    for (;;) {
      skipWhitespace();
      const ch = text[i];
      if (expect === 'after-value') {
        const top = open.at(-1);
        if (top === undefined) return i < text.length ? i : undefined;
        if (ch === ',') expect = top === '{' ? 'key' : 'value';
        else if (ch === (top === '{' ? '}' : ']')) open.pop();
        else fail(i);
        i++;
      } else if (expect === 'key' || expect === 'first-key') {
        if (expect === 'first-key' && ch === '}') {
          open.pop();
          i++;
          expect = 'after-value';
          continue;
        }
        if (ch !== '"') fail(i);
        scanString();
        skipWhitespace();
        if (text[i] !== ':') fail(i);
        i++;
        expect = 'value';
      } else if (ch === '{' || ch === '[') {
        open.push(ch);
        i++;
        expect = ch === '{' ? 'first-key' : 'first-value';
      } else {
        if (expect === 'first-value' && ch === ']') {
          open.pop();
          i++;
        } else if (ch === '"') scanString();
        else if (ch === '-' || isDigit(ch)) scanNumber();
        else if (ch === 't') scanWord('true');
        else if (ch === 'f') scanWord('false');
        else if (ch === 'n') scanWord('null');
        else fail(i);
        expect = 'after-value';
      }
    }
  } catch (error) {
    if (error instanceof BreaksAt) return error.offset;
    throw error;
  }
}

/** Line and column (both from 1) of an offset; lines end at `\n`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let nl = text.indexOf('\n'); nl !== -1 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
