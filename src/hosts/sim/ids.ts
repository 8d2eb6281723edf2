/**
 * The ids a saved Sim workflow stores of an adapted block: its type, its operation ids, its
 * sub-block ids and its tool ids. Renaming or dropping one breaks every workflow that stored
 * it, so it is a major version of the package; `simIdChanges` is the check a fork runs in CI
 * against the ids it committed (docs/engines.md, "Ids are a contract"). Pure data: served by
 * `flowblocks/sim/blocks`, which loads no tool.
 */
import type { SimBlockConfig } from './block-config.js';

/** The stored ids of each adapted block, by block type. */
export type SimIdSnapshot = Record<string, { operations: string[]; subBlocks: string[]; tools: string[] }>;

/** The ids of adapted blocks (`toSimBlocks(...).blocks`), sorted, for a snapshot file. */
export function simIdSnapshot(blocks: Readonly<Record<string, Pick<SimBlockConfig, 'subBlocks' | 'tools'>>>): SimIdSnapshot {
  const snapshot: SimIdSnapshot = {};
  for (const type of Object.keys(blocks).sort()) {
    const block = blocks[type]!;
    const operations = block.subBlocks.find((sub) => sub.id === 'operation')?.options?.map((option) => option.id) ?? [];
    snapshot[type] = {
      operations: [...operations].sort(),
      subBlocks: [...new Set(block.subBlocks.map((sub) => sub.id))].sort(),
      tools: [...block.tools.access].sort(),
    };
  }
  return snapshot;
}

/** Every id of `before` that `after` no longer has, one line each; empty when nothing was dropped or renamed. */
export function simIdChanges(before: SimIdSnapshot, after: SimIdSnapshot): string[] {
  const changes: string[] = [];
  for (const [type, ids] of Object.entries(before)) {
    const now = after[type];
    if (!now) {
      changes.push(`block ${type}: dropped or renamed (saved workflows store its type)`);
      continue;
    }
    for (const kind of ['operations', 'subBlocks', 'tools'] as const) {
      const kept = new Set(now[kind]);
      for (const id of ids[kind] ?? []) if (!kept.has(id)) changes.push(`block ${type}: ${kind} id ${id} dropped or renamed`);
    }
  }
  return changes;
}
