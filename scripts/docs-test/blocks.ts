/**
 * The fenced blocks of README.md and docs/*.md, and what the docs test does with each. The
 * line right before a fence says it, in an HTML comment a reader sees in the source:
 *
 * - `<!-- illustrative: <reason> -->`: not run (an output sample, a layout, a file of a Sim fork).
 * - `<!-- file: <name> -->`: written to the test app as that file, for the blocks after it.
 *
 * Any other `ts`, `js` or `sh` block is run as written; a block of another language without
 * a comment is an error: it must be run or say why not. So is a `<!-- preamble: <code> -->`
 * (code run before the block, hidden where GitHub and npm render the page): what a reader
 * sees is what runs, so a block defines what it uses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type BlockKind = 'code' | 'shell' | 'file' | 'illustrative' | 'unmarked' | 'hidden-preamble';

export interface DocBlock {
  /** `README.md`, `docs/sandbox.md`: relative to the repository. */
  file: string;
  /** Line of the opening fence (1-based): what a failure names. */
  line: number;
  lang: string;
  text: string;
  kind: BlockKind;
  /** The illustrative reason, the file name, or a refused preamble's code. */
  note?: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const MARKER = /^<!--\s*(illustrative|preamble|file):\s*([\s\S]*?)\s*-->$/;
const CODE = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);
const SHELL = new Set(['sh', 'bash', 'shell']);

/** The blocks of one Markdown text. */
export function parseBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      const closing = line.trim();
      if (closing.startsWith(fence!) && /^[`~]+$/.test(closing)) break;
      body.push(line.startsWith(indent!) ? line.slice(indent!.length) : line);
    }
    const marker = markerBefore(lines, i);
    const kind: BlockKind = marker
      ? marker.kind === 'preamble'
        ? 'hidden-preamble'
        : marker.kind
      : CODE.has(lang)
        ? 'code'
        : SHELL.has(lang)
          ? 'shell'
          : 'unmarked';
    blocks.push({ file, line: i + 1, lang, text: body.join('\n'), kind, ...(marker ? { note: marker.note } : {}) });
    i = j;
  }
  return blocks;
}

/** The marker comment that ends on the line right before the fence (it may span lines). */
function markerBefore(lines: string[], fence: number): { kind: 'illustrative' | 'preamble' | 'file'; note: string } | undefined {
  const last = lines[fence - 1]?.trim();
  if (!last?.endsWith('-->')) return undefined;
  let start = fence - 1;
  while (start > 0 && !lines[start]!.trim().startsWith('<!--')) start--;
  const comment = lines.slice(start, fence).map((l) => l.trim()).join('\n');
  const match = MARKER.exec(comment);
  return match ? { kind: match[1] as 'illustrative' | 'preamble' | 'file', note: match[2]! } : undefined;
}

/** README.md and docs/*.md of a repository, in that order. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function repoBlocks(root: string): DocBlock[] {
  return docFiles(root).flatMap((file) => parseBlocks(file, readFileSync(join(root, file), 'utf8')));
}

/** `docs/sandbox.md:53`: where a block is. */
export const where = (block: DocBlock) => `${block.file}:${block.line}`;
