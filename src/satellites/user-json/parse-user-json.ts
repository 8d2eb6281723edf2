import { jsonSyntaxOffset, lineAndColumn } from './json-syntax-offset.js';

/** JSON a user gave us that does not parse; says where, never what (the text may hold a token). */
export class UserJsonError extends Error {
  constructor(
    readonly source: string,
    readonly position: number,
    readonly line: number,
    readonly column: number,
    endedEarly: boolean,
  ) {
    super(`${source} is not valid JSON: ${endedEarly ? 'it ends too early' : 'unexpected character'} at line ${line}, column ${column} (position ${position})`);
    this.name = 'UserJsonError';
  }
}

/**
 * JSON.parse for text from a flag or a file. `source` names it in the error ("--params", "the
 * config file x.json"). JSON.parse's own error is dropped, not wrapped: its message can quote
 * the text around the mistake.
 */
export function parseUserJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Both agree on what is valid; the length is only a fallback should they ever not.
    const position = jsonSyntaxOffset(text) ?? text.length;
    const { line, column } = lineAndColumn(text, position);
    throw new UserJsonError(source, position, line, column, position >= text.length);
  }
}
