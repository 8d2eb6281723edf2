/**
 * The release workflow (.github/workflows/release.yml, issue 43 item 1): valid for GitHub's
 * workflow schema (action-validator, from npm), and it publishes both packages from the Action
 * with npm provenance through trusted publishing (the job's OIDC token, no npm token).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const file = join(root, '.github/workflows/release.yml');
const text = readFileSync(file, 'utf8');
const validator = join(root, 'node_modules/.bin/action-validator');

describe('release workflow', () => {
  it('passes action-validator', () => {
    const out = spawnSync(validator, [file], { encoding: 'utf8' });
    expect(`${out.stdout}${out.stderr}`).toBe('');
    expect(out.status).toBe(0);
  });

  it('the validator refuses a broken workflow (it reads the schema, not only YAML)', () => {
    const broken = text.replace(/^ {2}id-token: write$/m, '  id-token: sign');
    const copy = join(mkdtempSync(join(tmpdir(), 'release-yml-')), 'release.yml');
    writeFileSync(copy, broken);
    const out = spawnSync(validator, [copy], { encoding: 'utf8' });
    expect(out.status).toBe(1);
    expect(`${out.stdout}${out.stderr}`).toContain('/permissions/id-token');
  });

  it('publishes flowblocks through changesets and n8n-nodes-flowblocks, both with provenance and an OIDC token', () => {
    expect(text).toMatch(/^ {2}id-token: write$/m);
    expect(text).toContain('uses: changesets/action@v1');
    expect(text).toContain('publish: npm run release');
    expect(text).toMatch(/NPM_CONFIG_PROVENANCE: 'true'/);
    expect(text).toContain('npm publish ./packages/n8n-nodes-flowblocks --provenance --access public');
    // Built as CI builds it (`n8n-node build`, then the runtime bundle), n8n's CLI cached where the runner may write.
    expect(text.indexOf('npm run build:n8n')).toBeGreaterThan(0);
    expect(text.indexOf('npm run build:n8n')).toBeLessThan(text.indexOf('npm publish ./packages/n8n-nodes-flowblocks'));
    expect(text).toContain('FLOWBLOCKS_N8N_CACHE: ${{ runner.temp }}/flowblocks');
    // Trusted publishing: no long-lived npm token anywhere.
    expect(text).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN/);
    // `npm run release` is what publishes flowblocks.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.release).toContain('changeset publish');
  });
});
