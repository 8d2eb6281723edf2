/**
 * n8n's own developer tools, installed once into a cache outside the repository
 * (`FLOWBLOCKS_N8N_CACHE`, default /var/cache/flowblocks) with `--ignore-scripts`:
 * `@n8n/node-cli` (`n8n-node build`, `n8n-node lint`), at the version the n8n package's
 * package.json names among its devDependencies, and `@n8n/scan-community-package`.
 * Not root devDependencies: @n8n/node-cli alone installs 599 packages, 697 MB
 * (LangChain, isolated-vm, Sentry through @n8n/ai-node-sdk), for the builds and checks of
 * one package (docs/decisions.md).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where Node 24, each n8n and n8n's tools are kept between runs; `FLOWBLOCKS_N8N_CACHE` moves it. */
export const CACHE_DIR = process.env.FLOWBLOCKS_N8N_CACHE ?? '/var/cache/flowblocks';
export const N8N_TOOLS_DIR = join(CACHE_DIR, 'n8n-tools');
/** `n8n-node` and the tools' other bins: put first on PATH to build or lint the package as its maintainer does. */
export const N8N_TOOLS_BIN = join(N8N_TOOLS_DIR, 'node_modules/.bin');

const PACKAGE_JSON = fileURLToPath(new URL('../packages/n8n-nodes-flowblocks/package.json', import.meta.url));

/** Each tool at its pinned version: the node CLI's from the package's devDependencies, where its maintainer reads it. */
export function n8nTools(): Record<string, string> {
  const { devDependencies } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { devDependencies: Record<string, string> };
  return { '@n8n/node-cli': devDependencies['@n8n/node-cli']!, '@n8n/scan-community-package': '0.32.0' };
}

/** Installs the tools into the cache unless the same versions are there already. */
export function ensureN8nTools(): void {
  const tools = n8nTools();
  const marker = join(N8N_TOOLS_DIR, '.installed');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === `${JSON.stringify(tools)}\n`) return;
  mkdirSync(N8N_TOOLS_DIR, { recursive: true });
  writeFileSync(join(N8N_TOOLS_DIR, 'package.json'), `${JSON.stringify({ name: 'n8n-tools', private: true })}\n`);
  const specs = Object.entries(tools).map(([name, version]) => `${name}@${version}`);
  execFileSync('npm', ['i', ...specs, '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: N8N_TOOLS_DIR, stdio: 'inherit' });
  writeFileSync(marker, `${JSON.stringify(tools)}\n`);
}
