/**
 * Issue 44, item 4: the n8n package's stand-in for undici (`no-undici.mts`) under the unit
 * suite: reaching it is a bug of the build, and it says so instead of failing somewhere later.
 */
import { expect, it } from 'vitest';
import { loadUndici } from '../../packages/n8n-nodes-flowblocks/src/no-undici.mjs';

it('n8n package: undici is not part of the build, said as such when reached', async () => {
  await expect(loadUndici()).rejects.toThrow("n8n-nodes-flowblocks sends requests through n8n's httpRequest; undici is not part of this build");
});
