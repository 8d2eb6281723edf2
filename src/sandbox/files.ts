import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

/** Files of a directory with one of these extensions, as name (without extension) → text. */
export function readDir(dir: string, extension: string): Record<string, string> {
  const out: Record<string, string> = {};
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
