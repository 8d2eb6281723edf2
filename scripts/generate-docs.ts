/** Writes docs/blocks/<type>.md for every block from its manifest (`npm run docs`). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderBlockMarkdown } from '../src/docs/block-markdown.js';
import { listBlocks } from '../src/registry.js';

const dir = join(import.meta.dirname, '..', 'docs', 'blocks');
mkdirSync(dir, { recursive: true });
for (const block of listBlocks()) {
  const file = join(dir, `${block.type}.md`);
  writeFileSync(file, renderBlockMarkdown(block));
  console.log(`wrote ${file}`);
}
