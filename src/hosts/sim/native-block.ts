/**
 * What a Sim-native block file (`apps/sim/blocks/blocks/flowblocks_<service>.ts`, written by
 * `flowblocks sim-blocks`) takes from the package when Sim loads it: the operation dropdown, the
 * other fields, the tools' selection and param mapping, inputs, outputs and canvas sentences.
 * The file spells out only what Sim's docs and catalog generators read from its text, so the
 * rest is never written twice. Pure data, served by `flowblocks/sim/blocks` (Sim's client bundle).
 */
import { blockManifests } from '../../blocks/manifests.generated.js';
import { toSimBlockConfig, type SimBlockConfig, type SimBlockOptions, type SimSubBlock } from './block-config.js';

/** The options a native file may pass: the prefixes it was written with. */
export type SimNativeBlockOptions = Pick<SimBlockOptions, 'idPrefix' | 'blockTypePrefix'>;

export interface SimNativeBlock {
  /** The `operation` dropdown (its options and first value included). */
  operation: SimSubBlock;
  /** Every other field, in the block's order. */
  fields: SimSubBlock[];
  tools: SimBlockConfig['tools'];
  inputs: SimBlockConfig['inputs'];
  outputs: SimBlockConfig['outputs'];
  canvasPresentation: SimBlockConfig['canvasPresentation'];
}

/** The run-time parts of the package's block `type` (`tinybird`, not the adapted `flowblocks_tinybird`) for Sim. */
export function simNativeBlock(type: string, options: SimNativeBlockOptions = {}): SimNativeBlock {
  const source = blockManifests.find((manifest) => manifest.type === type);
  if (!source) throw new Error(`flowblocks has no block ${type} (known: ${blockManifests.map((m) => m.type).join(', ')}); run flowblocks sim-blocks again after an upgrade`);
  // The icon is Sim's own component in a native file: nothing is drawn here.
  const config = toSimBlockConfig(source, { ...options, catalog: 'listed', createElement: () => null });
  const operation = config.subBlocks.find((sub) => sub.id === 'operation');
  if (!operation) throw new Error(`block ${type} has no operation field`);
  return {
    operation,
    fields: config.subBlocks.filter((sub) => sub !== operation),
    tools: config.tools,
    inputs: config.inputs,
    outputs: config.outputs,
    canvasPresentation: config.canvasPresentation,
  };
}
