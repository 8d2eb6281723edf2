/**
 * Writes docs/blocks/<type>.md and blocks/<type>.json (the manifest with its tools' JSON
 * Schemas, what `flowblocks manifest <type>` prints; kept in the repository) for every block, and the manifests as
 * typed data for `flowblocks/sim/blocks` (src/blocks/manifests.generated.ts) (`npm run docs`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderBlockManifestFile, renderManifestsModule } from '../src/blocks/manifest-file.js';
import { renderBlockMarkdown } from '../src/docs/block-markdown.js';
import { listBlocks } from '../src/registry.js';

const root = join(import.meta.dirname, '..');
const docs = join(root, 'docs', 'blocks');
const manifests = join(root, 'blocks');
mkdirSync(docs, { recursive: true });
mkdirSync(manifests, { recursive: true });
for (const block of listBlocks()) {
  for (const [file, text] of [
    [join(docs, `${block.type}.md`), renderBlockMarkdown(block)],
    [join(manifests, `${block.type}.json`), renderBlockManifestFile(block)],
  ] as const) {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
const module = join(root, 'src', 'blocks', 'manifests.generated.ts');
writeFileSync(module, renderManifestsModule(listBlocks()));
console.log(`wrote ${module}`);
