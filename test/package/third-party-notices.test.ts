/**
 * What a bundle inlines ships with its licence (issue 41 item 15, issue 43 item 3): dist/ inlines
 * title-case, the n8n package's dist/lib/flowblocks.js holds zod and title-case. Each bundled
 * package's LICENSE text is in the THIRD_PARTY_NOTICES.md beside the bundle, in the tarball.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleN8nRuntime, PACKAGE_DIR } from '../../scripts/build-n8n-package.js';
import { noticesOf, options } from '../../scripts/bundle.js';

const root = join(import.meta.dirname, '../..');
const licence = (pkg: string) => readFileSync(join(root, 'node_modules', pkg, 'LICENSE'), 'utf8').trim();

describe('third-party notices', () => {
  it('dist/ lists every package it inlines with its licence text', async () => {
    const { metafile } = await build({ ...options, write: false, sourcemap: false, logLevel: 'silent' });
    const inlined = new Set(Object.keys(metafile.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
    expect([...inlined]).toContain('title-case');
    const notices = noticesOf(metafile)!;
    for (const pkg of inlined) expect(notices).toContain(`## ${pkg} `);
    expect(notices).toContain(licence('title-case'));
  });

  it('the n8n package ships its LICENSE, README and the notices of zod and title-case in its tarball', async () => {
    // The bundle step alone (the package's tsc build needs n8n's CLI, which the n8n tests install).
    const dir = PACKAGE_DIR;
    const { notices: noticesFile } = await bundleN8nRuntime();
    expect(noticesFile).toBe(join(dir, 'dist/lib/THIRD_PARTY_NOTICES.md'));
    const notices = readFileSync(noticesFile, 'utf8');
    expect(notices).toMatch(/^## zod 4\.\d+\.\d+ \(MIT\)$/m);
    expect(notices).toMatch(/^## title-case \d+\.\d+\.\d+ \(MIT\)$/m);
    expect(notices).toContain(licence('zod'));
    expect(notices).toContain(licence('title-case'));
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' })) as { files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'dist/lib/THIRD_PARTY_NOTICES.md']));
    // The package's licence is the project's.
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
  }, 180_000);
});
