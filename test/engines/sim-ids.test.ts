/**
 * Sub-block and operation ids are a contract with every saved Sim workflow (issue 39, item 7).
 * `sim-ids.json` is the snapshot of the ids this package ships: a change to it is reviewed, and
 * a dropped or renamed id is a major version (docs/engines.md, "Ids are a contract").
 * `simIdChanges` is the check a fork runs in its CI against the ids it committed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getBlock } from '../../src/index.js';
import { simIdChanges, simIds } from '../../src/hosts/sim/blocks.js';
import { simIds as serverSimIds } from '../../src/hosts/sim/index.js';

const snapshotFile = join(import.meta.dirname, 'sim-ids.json');

describe('the ids saved Sim workflows store', () => {
  it('are the committed snapshot: none dropped or renamed since (a major version), additions reviewed', async () => {
    const committed = JSON.parse(readFileSync(snapshotFile, 'utf8'));
    expect(simIdChanges(committed, simIds())).toEqual([]);
    await expect(`${JSON.stringify(simIds(), null, 2)}\n`).toMatchFileSnapshot(snapshotFile);
  });

  it('cover every block: its type, operations, sub-blocks and tools, with the prefixes a fork uses', () => {
    const ids = simIds();
    expect(Object.keys(ids)).toEqual(['flowblocks_loops', 'flowblocks_tinybird', 'flowblocks_workflow']);
    expect(ids.flowblocks_loops!.operations).toContain('send_event');
    expect(ids.flowblocks_loops!.subBlocks).toEqual(expect.arrayContaining(['operation', 'apiKey', 'email', 'eventName']));
    expect(ids.flowblocks_loops!.tools).toContain('flowblocks_loops_send_event');
    expect(ids.flowblocks_loops!.operations).toHaveLength(getBlock('loops')!.tools.length);
    expect(Object.keys(simIds({ blockTypePrefix: 'acme_', idPrefix: 'acme_' }))).toEqual(['acme_loops', 'acme_tinybird', 'acme_workflow']);
    expect(serverSimIds()).toEqual(ids);
  });

  it('name each id an upgrade dropped or renamed, and accept additions', () => {
    const before = simIds();
    const after = structuredClone(before);
    const loops = after.flowblocks_loops!;
    loops.operations = loops.operations.map((op) => (op === 'send_event' ? 'track_event' : op));
    loops.subBlocks = loops.subBlocks.filter((id) => id !== 'eventName');
    loops.tools.push('flowblocks_loops_new_tool');
    delete after.flowblocks_workflow;
    expect(simIdChanges(before, after)).toEqual([
      'block flowblocks_loops: operations id send_event dropped or renamed',
      'block flowblocks_loops: subBlocks id eventName dropped or renamed',
      'block flowblocks_workflow: dropped or renamed (saved workflows store its type)',
    ]);
    expect(simIdChanges(after, { ...after, extra: { operations: [], subBlocks: [], tools: [] } })).toEqual([]);
  });
});
