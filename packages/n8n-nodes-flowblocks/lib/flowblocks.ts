/**
 * The flowblocks runtime the nodes call: each operation through the flowblocks harness
 * (validated params, retries, pacing, secrets masked), from the same block definitions as the
 * `flowblocks` package.
 *
 * This file declares what the nodes use, and tsc (`n8n-node build`) compiles them against it.
 * Its implementation is src/index.mts: the build's second step (scripts/build-n8n-package.ts)
 * bundles that with esbuild into dist/lib/flowblocks.js, in place of tsc's output of this file.
 * The harness, the services, the n8n adapter and zod are inlined there because a verified
 * community node may have no runtime dependency; n8n-workflow stays the host's.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

/** A node's `execute()`: every input item of a block's operation, through the harness. */
export declare function executeOf(type: string): (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** A node's `methods`: its resource locators' `listSearch`, each one page of a list operation, searched. */
export declare function methodsOf(type: string): NonNullable<INodeType['methods']>;
