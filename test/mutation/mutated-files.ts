/**
 * The mutated set, read from its one place, stryker.config.json's `mutate` list: which files
 * match it (`mutation:ci` picks the changed ones) and every file it names (the mutation runs
 * import them before the tests, test/mutation/setup.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StrykerConfig {
  mutate: string[];
  thresholds: { break: number };
  jsonReporter: { fileName: string };
}

export const STRYKER_CONFIG = 'stryker.config.json';

export function strykerConfig(root = '.'): StrykerConfig {
  return JSON.parse(readFileSync(join(root, STRYKER_CONFIG), 'utf8')) as StrykerConfig;
}

/** `*` within a path segment, `**` across segments: the globs stryker.config.json uses. */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else source += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Whether a path relative to the root is in the set the globs describe (`!` excludes). */
export function matcher(globs: readonly string[]): (file: string) => boolean {
  const include = globs.filter((g) => !g.startsWith('!')).map(globToRegExp);
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => globToRegExp(g.slice(1)));
  return (file) => include.some((re) => re.test(file)) && !exclude.some((re) => re.test(file));
}

/** Every file of the mutated set, relative to `root`: the globs' folders walked, the matches kept. */
export function mutatedFiles(root = '.'): string[] {
  const { mutate } = strykerConfig(root);
  const isMutated = matcher(mutate);
  // A glob's folder is what precedes its first `*`; a plain path is its own file.
  const folders = new Set(mutate.filter((g) => !g.startsWith('!') && g.includes('*')).map((g) => g.slice(0, g.indexOf('*')).replace(/\/$/, '')));
  const walked = [...folders].flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((name) => join(dir, name)));
  const plain = mutate.filter((g) => !g.startsWith('!') && !g.includes('*'));
  return [...new Set([...walked, ...plain])].filter(isMutated).sort();
}
