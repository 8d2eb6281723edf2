/**
 * The host's own n8n-workflow, required when first needed: `require` from this CommonJS bundle
 * finds n8n's copy at run time, and the build (which loads the bundle to list its nodes) needs none.
 * Kept once found: every attempt's timer asks for it.
 */
let found: typeof import('n8n-workflow') | undefined;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the host's module, resolved from n8n's side at run time
export const hostWorkflow = () => (found ??= require('n8n-workflow') as typeof import('n8n-workflow'));
