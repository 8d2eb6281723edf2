import type * as Undici from 'undici';

let loading: Promise<typeof Undici> | undefined;

/**
 * undici, loaded on the first request rather than at import: it is the largest module the
 * tools need, and a program that only lists tools or builds schemas never pays for it.
 * A plain `import()`, so a bundler (esbuild, Next.js, a serverless packager) sees it and
 * bundles this package's own undici 7 instead of leaving a lookup that fails once the bundle
 * runs without node_modules, or picks an app's other major beside it.
 * A failed load is not kept: the next request tries again.
 */
export function loadUndici(): Promise<typeof Undici> {
  loading ??= import('undici').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
