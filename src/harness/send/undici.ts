import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);
let loaded: typeof Undici | undefined;

/**
 * undici, loaded on the first request rather than at import: it is the largest module the
 * tools need, and a program that only lists tools or builds schemas never pays for it.
 * (undici is CommonJS, so this is the same instance an `import 'undici'` gets.)
 */
export function undici(): typeof Undici {
  return (loaded ??= require('undici') as typeof Undici);
}
