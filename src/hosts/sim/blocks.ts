/**
 * `flowblocks/sim/blocks`: what Sim's editor imports. Sim loads its block registry in
 * `'use client'` components, so this entry is the blocks as `BlockConfig` (pure data and an icon
 * component) and their `BlockMeta`, read from the generated manifests: no tool, no harness, no
 * Node built-in (test/engines/browser-bundle.test.ts bundles it for the browser to check). The
 * tools they call are `flowblocks/sim`'s `toSimTools`, on the server.
 */
import type { BlockManifest } from '../../blocks/manifest.js';
import { blockManifests } from '../../blocks/manifests.generated.js';
import { simIdChanges, simIdSnapshot, type SimIdSnapshot } from './ids.js';
import { toSimBlockConfig, toSimBlockMaps, toSimBlockMetaOf, type SimBlockConfig, type SimBlockMeta, type SimBlockOptions } from './block-config.js';

export { DEFAULT_SIM_PREFIX, defaultSimBlockName } from './block-config.js';
export type { SimBlockConfig, SimBlockMeta, SimBlockOptions, SimBlockSource, SimFieldRule, SimIntegrationTag, SimCanvasClause, SimCanvasPresentation, SimSubBlock, SimValueType } from './block-config.js';

/** The manifests of the package's blocks (those `flowblocks manifest <type>` prints), in editor order. */
export function simBlockManifests(): BlockManifest[] {
  return [...blockManifests];
}

/**
 * Every block as Sim's `BlockConfig` and `BlockMeta`, keyed by adapted type, for `BLOCK_REGISTRY`
 * and `BLOCK_META_REGISTRY`. `manifests` adds or replaces the set (a block of
 * `registerService`, read from its own manifest).
 */
export function toSimBlocks<E, I extends string = string, M extends string = never>(
  options: SimBlockOptions<E, I, M> & { manifests?: readonly BlockManifest[] },
): { blocks: Record<string, SimBlockConfig<E, I, M>>; meta: Record<string, SimBlockMeta> } {
  return toSimBlockMaps(options.manifests ?? blockManifests, options);
}

/**
 * The ids saved workflows store of the adapted blocks (types, operations, sub-blocks, tools),
 * for the snapshot a fork commits and checks with `simIdChanges` on every upgrade.
 */
export function simIds(options: Omit<SimBlockOptions, 'createElement'> & { manifests?: readonly BlockManifest[] } = {}): SimIdSnapshot {
  // The icon is never drawn here: no createElement is needed.
  return simIdSnapshot(toSimBlocks({ ...options, createElement: () => null }).blocks);
}

export { simIdChanges, simIdSnapshot, type SimIdSnapshot };
export { toSimBlockConfig, toSimBlockMetaOf };
export { simNativeBlock, type SimNativeBlock, type SimNativeBlockOptions } from './native-block.js';
