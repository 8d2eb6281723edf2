/**
 * The README and the docs the tarball ships read the same on npm as in the repository (#42):
 * every link and image they hold points to a file the tarball ships (package.json `files`), or
 * to a guide that is linked rather than shipped (#38: `docs/*.md`, the webhook example,
 * CONTRIBUTING.md), which npm resolves against package.json's `repository` (docs/releasing.md).
 * The shipped ones cite no `src/…`, `test/…` or `scripts/…` file, which a user who installed
 * the package does not have. HTML comments (the docs test's markers) are not shown, so they are not checked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { files: string[] }).files;
const shipped = (path: string) =>
  !files.some((f) => f.startsWith('!') && posix.matchesGlob(path, f.slice(1))) &&
  files.some((f) => !f.startsWith('!') && (path === f || path.startsWith(`${f}/`) || posix.matchesGlob(path, f)));

/** Linked, not shipped: the guides, the webhook example and the contributor's guide, read in the repository. */
const linkedOnly = (path: string) => /^docs\/[\w-]+\.md$/.test(path) || path.startsWith('docs/examples/') || path === 'CONTRIBUTING.md';

/** The Markdown files a user reads on npm. */
const USER_DOCS = ['README.md', 'SECURITY.md', 'CHANGELOG.md', ...files.filter((f) => f.startsWith('docs/') && f.endsWith('.md'))];

/** Paths the guides name that are a user's or Sim's, not this repository's. */
const NOT_OURS = new Set(['test/fixtures/welcome.json', 'scripts/check-block-registry.ts', 'scripts/check-integration-catalog.ts', 'scripts/generate-docs.ts', 'src/integrations.json', 'scripts/check-flowblocks-ids.ts', 'scripts/flowblocks-ids.json']);

/** The text as rendered: fenced blocks and HTML comments left out. */
const shown = (markdown: string) => markdown.replace(/<!--[\s\S]*?-->/g, '').replace(/^```[\s\S]*?^```/gm, '');

describe('the docs a user reads on npm', () => {
  it('ship every file they link to, images included, but the guides linked from the repository', () => {
    const broken: string[] = [];
    for (const doc of USER_DOCS.filter(shipped)) {
      for (const [, target] of shown(readFileSync(`${root}${doc}`, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
        const path = posix.normalize(posix.join(posix.dirname(doc), target!.split('#')[0]!));
        if (!existsSync(`${root}${path}`) || !(shipped(path) || linkedOnly(path))) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  // The guides are read in the repository (#38), where those files are: only what ships is checked.
  it('cite no source, test or script file of the repository', () => {
    const cited: string[] = [];
    for (const doc of USER_DOCS.filter(shipped)) {
      for (const [mention] of shown(readFileSync(`${root}${doc}`, 'utf8')).matchAll(/\b(?:src|test|scripts)\/[\w./-]+/g)) {
        // The user's own file in the record-and-replay example, and Sim's own scripts (docs/engines.md): not ours.
        if (!NOT_OURS.has(mention)) cited.push(`${doc}: ${mention}`);
      }
    }
    expect(cited).toEqual([]);
  });
});
