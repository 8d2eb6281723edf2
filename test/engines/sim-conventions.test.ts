/**
 * Sim's conventions for its own blocks and tools (issue 39, item 9): settings under
 * `mode: 'advanced'`, `authMode`, a read as the operation a new block starts on (`value()`),
 * tool names that say the service, descriptions that name our tools by the ids they have in
 * Sim, and the rule between fields in the param descriptions a model reads.
 */
import { describe, expect, it } from 'vitest';
import { toSimBlocks } from '../../src/hosts/sim/blocks.js';
import { toSimTools } from '../../src/hosts/sim/index.js';

const createElement = (type: string, props: Record<string, unknown>) => ({ type, props });
const API_KEY_MEMBER = 'api_key' as const;
const { blocks } = toSimBlocks({ createElement, authMode: API_KEY_MEMBER });
const tools = toSimTools();

/** The sub-blocks a basic card shows for an operation (Sim hides `mode: 'advanced'` until the card is switched). */
function basicCard(type: string, op: string): string[] {
  return blocks[type]!.subBlocks.filter((s) => s.mode !== 'advanced' && (!s.condition || [s.condition.value].flat().includes(op))).map((s) => s.id);
}

describe("Sim's conventions", () => {
  it("keeps settings with a value of their own off the basic card: Tinybird's events card shows what the call needs", () => {
    expect(basicCard('flowblocks_tinybird', 'events')).toEqual(['operation', 'base_url', 'token', 'datasource', 'data']);
    const advanced = blocks.flowblocks_tinybird!.subBlocks.filter((s) => s.mode === 'advanced').map((s) => s.id);
    expect(advanced).toEqual(expect.arrayContaining(['wait', 'format', 'compression', 'max_request_bytes', 'concurrency', 'on_ambiguous']));
    // Content stays on the card even with a default (the workflow's inputs), and so does a field of a rule between fields.
    expect(basicCard('flowblocks_workflow', 'execute')).toContain('inputs');
    expect(basicCard('flowblocks_loops', 'send_event')).toEqual(expect.arrayContaining(['email', 'userId']));
    for (const block of Object.values(blocks)) for (const sub of block.subBlocks) if (sub.mode === 'advanced') expect(sub.required).toBeUndefined();
  });

  it("says how every block is reached (Sim's AuthMode member given), and says nothing when not given", () => {
    for (const block of Object.values(blocks)) expect(block.authMode).toBe('api_key');
    expect(toSimBlocks({ createElement }).blocks.flowblocks_loops!.authMode).toBeUndefined();
  });

  it('starts a new block on a read, never a write, and runs that read when no operation is stored', () => {
    const start = Object.fromEntries(Object.entries(blocks).map(([type, b]) => [type, b.subBlocks.find((s) => s.id === 'operation')!.value?.({})]));
    expect(start).toEqual({ flowblocks_tinybird: 'query', flowblocks_loops: 'find_contact', flowblocks_workflow: 'get_job' });
    expect(blocks.flowblocks_loops!.tools.config.tool({})).toBe('flowblocks_loops_find_contact');
    expect(blocks.flowblocks_tinybird!.tools.config.tool({})).toBe('flowblocks_tinybird_query');
  });

  it("names each tool with its service, as Sim's traces show the name alone", () => {
    expect(tools.flowblocks_loops_send_event!.name).toBe('Loops: Send event');
    expect(tools.flowblocks_tinybird_query!.name).toBe('Tinybird: Run SQL query');
    expect(tools.flowblocks_workflow_list_logs!.name).toBe('Workflow: List logs');
  });

  it("names our other tools by their ids in Sim, never by a bare id that is Sim's own tool there", () => {
    const listPipes = tools.flowblocks_tinybird_list_pipes!.description;
    expect(listPipes).toContain('flowblocks_tinybird_query_pipe');
    expect(listPipes).toContain('flowblocks_tinybird_get_pipe');
    for (const tool of Object.values(tools)) {
      const bare = [tool.description, ...Object.values(tool.params).map((p) => p.description ?? '')].join(' ').match(/(?<![\w])(tinybird|loops|workflow)_[a-z_]+/g);
      expect(bare, tool.id).toBeNull();
    }
  });

  it('states the rule between fields in the param descriptions the model reads', () => {
    expect(tools.flowblocks_loops_send_event!.params.email!.description).toContain('give email or userId');
    expect(tools.flowblocks_loops_send_event!.params.userId!.description).toContain('give email or userId');
    expect(tools.flowblocks_loops_find_contact!.params.email!.description).toContain('exactly one of email or userId');
  });
});
