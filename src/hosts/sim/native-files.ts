/**
 * Every file `flowblocks sim-blocks` writes into a Sim checkout, as text: a native block file
 * per block (`apps/sim/blocks/blocks/flowblocks_<service>.ts`), their icons in
 * `apps/sim/components/icons.tsx` and their lines in `apps/sim/blocks/registry-maps.ts`. Pure:
 * it reads Sim's two files through `read` and returns what they become, so the command and
 * the tests share it.
 */
import type { BlockManifest } from '../../blocks/manifest.js';
import type { SimNativeBlockOptions } from './native-block.js';
import { simNativeBlockFile, simNativeNames } from './native-block-file.js';
import { simIconComponent } from './native-icon.js';
import { withSimIcons, withSimRegistryEntries } from './native-registry.js';
import { DEFAULT_SIM_PREFIX } from './block-config.js';

export const SIM_ICONS_FILE = 'apps/sim/components/icons.tsx';
export const SIM_REGISTRY_FILE = 'apps/sim/blocks/registry-maps.ts';

export interface SimNativeFile {
  /** Relative to the Sim checkout's root. */
  path: string;
  text: string;
}

/** The files for `manifests`; `read(path)` gives the current text of Sim's icons and registry files. */
export function simNativeFiles(
  manifests: readonly BlockManifest[],
  read: (path: string) => string,
  version: string,
  options: SimNativeBlockOptions = {},
): SimNativeFile[] {
  const typePrefix = options.blockTypePrefix ?? DEFAULT_SIM_PREFIX;
  const blocks = manifests.map((manifest) => ({ manifest, names: simNativeNames(typePrefix + manifest.type) }));
  const files: SimNativeFile[] = blocks.map(({ manifest }) => simNativeBlockFile(manifest, version, options));
  const icons = blocks.map(({ manifest, names }) => simIconComponent(names.icon, manifest.icon, `block ${manifest.type}`));
  files.push({ path: SIM_ICONS_FILE, text: withSimIcons(read(SIM_ICONS_FILE), icons) });
  const entries = blocks.map(({ manifest, names }) => ({
    type: typePrefix + manifest.type,
    module: names.file.replace(/^apps\/sim\//, '@/').replace(/\.ts$/, ''),
    block: names.block,
    meta: names.meta,
  }));
  files.push({ path: SIM_REGISTRY_FILE, text: withSimRegistryEntries(read(SIM_REGISTRY_FILE), entries) });
  return files;
}
