/**
 * What `globalThis` is inside the bundle (esbuild's `define`): a private object. zod keeps its
 * registry and config on the global object to share them between copies of zod; here that would
 * reach into n8n's own global (and its own zod's), which n8n Cloud refuses of a node.
 */
export const bundleGlobals: Record<string, unknown> = {};
