import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';

/**
 * Files of a directory with one of these extensions, as name (without extension) → text.
 * Null prototype: a file named `__proto__.json` is one more entry, not the object's prototype.
 */
export function readDir(dir: string, extension: string): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const file of readdirSync(dir).sort()) {
    if (extname(file) === extension) out[basename(file, extension)] = readFileSync(join(dir, file), 'utf8');
  }
  return out;
}

/** Workflow definitions from `*.json` files; a file that is not JSON names itself in the error. */
export function readWorkflowFiles(dir: string): unknown[] {
  return Object.entries(readDir(dir, '.json')).map(([name, text]) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new Error(`${join(dir, `${name}.json`)} is not valid JSON: ${(error as Error).message}`);
    }
  });
}

/**
 * An id from a request as one file name part: letters, digits, `_` and `-` stay (so ids
 * such as `ws_sandbox` keep their file names), every other UTF-8 byte becomes `%XX`. No
 * separator, dot or NUL survives, and two ids never share a name.
 */
export function idFileName(id: string): string {
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const char = String.fromCharCode(byte);
    const plain = (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || (char >= '0' && char <= '9') || char === '_' || char === '-';
    out += plain ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `dir/name`, checked to resolve to a file directly in `dir`; anything else throws. */
export function fileIn(dir: string, name: string): string {
  const path = resolve(dir, name);
  if (dirname(path) !== resolve(dir)) throw new Error(`${name} is not a file name inside ${dir}`);
  return path;
}
