import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * The package's version, from its own package.json: the nearest one named `flowblocks` above
 * this module, which finds it from the sources (`src/`), from `dist/src/…` and from a bundled
 * chunk (`dist/chunks/`) alike. A small synchronous read, no JSON module import.
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    try {
      const manifest = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'flowblocks' && typeof manifest.version === 'string') return (cached = manifest.version);
    } catch {
      // No package.json here, or not one to read: look further up.
    }
    if (dir.pathname === '/') return (cached = '0.0.0');
  }
}
