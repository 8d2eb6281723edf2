/**
 * Built in place of `src/harness/send/undici.ts`: this package sends every request through n8n's
 * `this.helpers.httpRequest` (the nodes are made with `http: 'n8n'`), so undici is not bundled.
 * Reaching here is a bug of the build, said as such.
 */
import type { loadUndici as nodeLoadUndici } from '../../../src/harness/send/undici.js';

export const loadUndici: typeof nodeLoadUndici = () =>
  Promise.reject(new Error("n8n-nodes-flowblocks sends requests through n8n's httpRequest; undici is not part of this build"));
