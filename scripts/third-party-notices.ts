/**
 * THIRD_PARTY_NOTICES.md for a bundle: each package from node_modules that esbuild put into it
 * (read from the build's metafile inputs), with its version, licence and the full text of its
 * LICENSE file, as the MIT and Apache licences ask of a copy that ships their code.
 * Used by scripts/bundle.ts (dist/) and scripts/build-n8n-package.ts (the n8n package's dist/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `node_modules/zod/v4/core/api.js` → `node_modules/zod`; scoped packages keep their scope. */
function packageDirOf(input: string): string | undefined {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const nameParts = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + nameParts).join('/');
}

/** The package's licence file (LICENSE, LICENSE.txt, LICENCE.md, COPYING, …). */
function licenceText(dir: string): string {
  const file = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name));
  if (!file) throw new Error(`${dir}: bundled, but it ships no LICENSE file to copy into the notices`);
  return readFileSync(join(dir, file), 'utf8').trim();
}

/** The notices of every package among a build's inputs (paths relative to `root`), or `undefined` when none was bundled. */
export function thirdPartyNotices(root: string, inputs: string[], product: string): string | undefined {
  const dirs = [...new Set(inputs.map(packageDirOf).filter((dir): dir is string => dir !== undefined))].sort();
  if (!dirs.length) return undefined;
  const sections = dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
    return `## ${pkg.name} ${pkg.version} (${pkg.license ?? 'see below'})\n\n\`\`\`text\n${licenceText(join(root, dir))}\n\`\`\`\n`;
  });
  return `# Third-party notices\n\n${product} bundles the packages below; each is used under the licence that follows its name.\n\n${sections.join('\n')}`;
}
