/**
 * The file `blocks/<type>.json` of a block (`npm run docs` writes it, a test keeps it in step):
 * its manifest and, per tool, the JSON Schemas of its params and output, so a registry, a build
 * step or a host in another language reads the block without running this package.
 */
import { z } from 'zod';
import { paramsJsonSchema, type JsonSchema } from '../schema.js';
import type { Block } from './define-block.js';
import type { BlockManifest } from './manifest.js';

export interface BlockManifestFile extends BlockManifest {
  /** Per tool id: what the tool does, and the JSON Schemas (draft 2020-12) of its params and output. */
  toolSchemas: Record<string, { name: string; description: string; params: JsonSchema; output: JsonSchema }>;
}

export function blockManifestFile(block: Block): BlockManifestFile {
  const toolSchemas: BlockManifestFile['toolSchemas'] = {};
  for (const tool of block.tools) {
    toolSchemas[tool.id] = {
      name: tool.name,
      description: tool.description,
      params: paramsJsonSchema(tool),
      output: z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }),
    };
  }
  return { ...block.manifest, toolSchemas };
}

/** The file's text: two-space JSON and a final newline. */
export function renderBlockManifestFile(block: Block): string {
  return `${JSON.stringify(blockManifestFile(block), null, 2)}\n`;
}

/** `src/blocks/manifests.generated.ts`: every manifest as typed data, for entries that load no tool (`flowblocks/sim/blocks`). */
export function renderManifestsModule(blocks: readonly Block[]): string {
  const manifests = JSON.stringify(blocks.map((block) => block.manifest), null, 2);
  return [
    '// Written by `npm run docs` (scripts/generate-docs.ts) from the services; do not edit.',
    "import type { BlockManifest } from './manifest.js';",
    '',
    `export const blockManifests: readonly BlockManifest[] = ${manifests};`,
    '',
  ].join('\n');
}
