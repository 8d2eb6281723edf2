/**
 * Sim's canvas card sentences (issue 39, item 2): Sim's CI runs `check:canvas-sentences
 * --require-coverage`, which fails a block with an operation lacking a sentence. The rules
 * below are the ones its validator applies to what the adapter writes
 * (apps/sim/lib/workflows/blocks/canvas-sentence-validation.ts at 0b232eb); the trial runs the
 * check itself.
 */
import { describe, expect, it } from 'vitest';
import { toSimBlocks } from '../../src/hosts/sim/blocks.js';
import type { SimBlockConfig, SimCanvasClause } from '../../src/hosts/sim/index.js';

const createElement = (type: string, props: Record<string, unknown>) => ({ type, props });
const { blocks } = toSimBlocks({ createElement });
const ARTICLE_AT_END = new Set(['a', 'an', 'the']);

function operationIds(block: SimBlockConfig): string[] {
  return (block.subBlocks.find((s) => s.id === 'operation')?.options ?? []).map((o) => o.id);
}

/** The card as Sim paints it before any field is filled: literal copy, and a core chip as its field's title. */
function bareReading(block: SimBlockConfig, sentence: SimCanvasClause[]): string {
  return sentence
    .map((clause) => (typeof clause === 'string' ? clause : `${clause.text ?? ''} ⟨${block.subBlocks.find((s) => s.id === clause.field)?.title}⟩`))
    .join(' ');
}

describe("Sim's canvas sentences", () => {
  it('gives every operation of every block a sentence: full coverage', () => {
    for (const block of Object.values(blocks)) {
      expect(block.canvasPresentation.operationSubBlockId).toBe('operation');
      expect(Object.keys(block.canvasPresentation.sentences.byOperation)).toEqual(operationIds(block));
    }
    expect(Object.values(blocks).flatMap(operationIds)).toHaveLength(40);
  });

  it("reads the operation's label, with the chip of the field it acts on", () => {
    const { flowblocks_tinybird: tinybird, flowblocks_loops: loops, flowblocks_workflow: workflow } = blocks;
    expect(tinybird!.canvasPresentation).toMatchObject({ defaultTitle: 'Tinybird', typeLabel: 'Tinybird' });
    expect(tinybird!.canvasPresentation.sentences.byOperation.query).toEqual([{ text: 'Run SQL query', field: 'query', core: true }]);
    // The first field the operation needs that is not the connection (base URL, token).
    expect(tinybird!.canvasPresentation.sentences.byOperation.get_job).toEqual([{ text: 'Get job', field: 'job_id', core: true }]);
    expect(workflow!.canvasPresentation.sentences.byOperation.execute).toEqual([{ text: 'Execute workflow', field: 'workflowId', core: true }]);
    // Nothing required of its own: literal copy, which always paints.
    expect(loops!.canvasPresentation.sentences.byOperation.list_mailing_lists).toEqual(['List mailing lists']);
  });

  it("keeps the rules of Sim's check: core chips on fields the operation shows, no secret, distinct readings, no dangling article", () => {
    for (const block of Object.values(blocks)) {
      const readings = new Set<string>();
      for (const [op, sentence] of Object.entries(block.canvasPresentation.sentences.byOperation)) {
        expect(sentence.length).toBeGreaterThan(0);
        for (const clause of sentence) {
          if (typeof clause === 'string') continue;
          const sub = block.subBlocks.find((s) => s.id === clause.field);
          expect(sub, `${block.type} ${op}: ${clause.field}`).toBeDefined();
          expect(sub!.password).toBeUndefined();
          const shown = sub!.condition === undefined || [sub!.condition.value].flat().includes(op);
          expect(shown, `${block.type} ${op}: ${clause.field} is shown`).toBe(true);
          const lastWord = (clause.text ?? '').trim().split(/\s+/).at(-1)!.toLowerCase();
          expect(ARTICLE_AT_END.has(lastWord)).toBe(false);
        }
        readings.add(bareReading(block, sentence));
      }
      expect(readings.size).toBe(operationIds(block).length);
    }
  });
});
