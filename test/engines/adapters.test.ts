import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getBlock, listBlocks, listTools } from '../../src/index.js';
import { n8nCredentialName, n8nNodeName, toN8nNode } from '../../src/hosts/n8n/index.js';
import { n8nName } from '../../src/hosts/n8n/names.js';
import { errorLine } from '../../src/hosts/shared/params.js';
import { n8nWorkflow } from './n8n-context.js';
import { toSimBlocks } from '../../src/hosts/sim/blocks.js';
import { DEFAULT_SIM_PREFIX, toSimBlock, toSimBlockMeta, toSimRegistry, toSimTools } from '../../src/hosts/sim/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const builtin = JSON.parse(readFileSync(join(here, 'sim-builtin-ids.json'), 'utf8')) as { blockTypes: string[]; blockNames: string[]; toolIds: string[] };
const stripUndefined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const createElement = (type: string, props: Record<string, unknown>) => ({ type, props });

describe('Sim ids', () => {
  it("no adapted tool id or block type is one of Sim's built-in ids", () => {
    expect(builtin.toolIds.length).toBeGreaterThan(5000);
    expect(builtin.toolIds).toContain('tinybird_query');
    expect(builtin.blockTypes).toContain('workflow');
    const { blocks, tools } = toSimRegistry({ createElement });
    const toolIds = new Set(builtin.toolIds);
    const blockTypes = new Set(builtin.blockTypes);
    expect(Object.keys(tools).filter((id) => toolIds.has(id))).toEqual([]);
    expect(Object.keys(blocks).filter((type) => blockTypes.has(type))).toEqual([]);
    expect(Object.keys(blocks)).toEqual(['flowblocks_tinybird', 'flowblocks_loops', 'flowblocks_workflow']);
    // No built-in id starts with the default prefix at all.
    expect([...builtin.toolIds, ...builtin.blockTypes].filter((id) => id.startsWith(DEFAULT_SIM_PREFIX))).toEqual([]);
  });

  it("docs/engines.md counts Sim's tinybird_* and loops_* tools as Sim's list has them, each also one of ours", () => {
    const ours = new Set(listTools().map((tool) => tool.id));
    const docs = readFileSync(join(here, '../../docs/engines.md'), 'utf8').replace(/\s+/g, ' ');
    for (const service of ['tinybird', 'loops']) {
      const sims = builtin.toolIds.filter((id) => id.startsWith(`${service}_`));
      expect(sims.filter((id) => ours.has(id))).toEqual(sims);
      expect(docs).toContain(`\`${service}_*\` (${sims.length}, every one also a name of ours)`);
    }
  });

  it('takes other prefixes', () => {
    expect(Object.keys(toSimTools({ idPrefix: 'acme_' }))).toContain('acme_loops_send_event');
    expect(toSimBlock(getBlock('loops')!, { createElement, blockTypePrefix: 'acme_', idPrefix: 'acme_' })).toMatchObject({
      type: 'acme_loops',
      tools: { access: expect.arrayContaining(['acme_loops_send_event']) },
    });
  });
});

/** Sim's slug of a block name (scripts/check-integration-catalog.ts, scripts/generate-docs.ts). */
const simSlug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

describe('Sim names', () => {
  it("no adapted block's name or slug is one of Sim's: no two Tinybird in its toolbar", () => {
    expect(builtin.blockNames).toHaveLength(builtin.blockTypes.length);
    expect(builtin.blockNames).toEqual(expect.arrayContaining(['Tinybird', 'Loops', 'Workflow']));
    const { blocks } = toSimRegistry({ createElement });
    const names = Object.values(blocks).map((b) => b.name);
    expect(names).toEqual(['Tinybird (flowblocks)', 'Loops (flowblocks)', 'Workflow (flowblocks)']);
    const simNames = new Set(builtin.blockNames.map((n) => n.toLowerCase()));
    const simSlugs = new Set(builtin.blockNames.map(simSlug));
    expect(names.filter((n) => simNames.has(n.toLowerCase()))).toEqual([]);
    expect(names.map(simSlug).filter((slug) => simSlugs.has(slug))).toEqual([]);
    expect(names.map(simSlug)).toEqual(['tinybird-flowblocks', 'loops-flowblocks', 'workflow-flowblocks']);
  });

  it('takes a naming function', () => {
    const loops = toSimBlock(getBlock('loops')!, { createElement, name: (name) => `Acme ${name}` });
    expect(loops.name).toBe('Acme Loops');
    expect(loops.subBlocks.find((s) => s.id === 'operation')).toBeDefined();
  });
});

describe('Sim catalog', () => {
  const IntegrationType = { Analytics: 'analytics', Email: 'email', Productivity: 'productivity', Marketing: 'marketing' } as const;

  it("stays out of Sim's integration catalog by default: category blocks, the service's docs as help link", () => {
    for (const block of listBlocks()) {
      const config = toSimBlock(block, { createElement });
      expect(config.category).toBe('blocks');
      expect(config.integrationType).toBeUndefined();
      expect(config.docsLink).toBe(block.manifest.docsUrl);
    }
  });

  it("is listed on request, with Sim's integration type (its enum's member) and Sim's page as docs link", () => {
    const listed = toSimRegistry({ createElement, catalog: 'listed', integrationTypes: IntegrationType, docsLink: 'sim' }).blocks;
    expect(Object.values(listed).map((b) => [b.type, b.category, b.integrationType, b.docsLink])).toEqual([
      ['flowblocks_tinybird', 'tools', 'analytics', 'https://docs.sim.ai/integrations/flowblocks_tinybird'],
      ['flowblocks_loops', 'tools', 'email', 'https://docs.sim.ai/integrations/flowblocks_loops'],
      ['flowblocks_workflow', 'tools', 'productivity', 'https://docs.sim.ai/integrations/flowblocks_workflow'],
    ]);
    expect(toSimBlock(getBlock('loops')!, { createElement, docsLink: 'none' }).docsLink).toBeUndefined();
  });

  it('names the block and the kinds known when the integration types lack its kind', () => {
    expect(() => toSimBlock(getBlock('loops')!, { createElement, integrationTypes: { Analytics: 'analytics' } })).toThrow(
      'block loops: its catalog kind "email" is not one of the integrationTypes given (analytics)',
    );
  });

  it("gives every block a BlockMeta: Sim's tags and the service's page", () => {
    const { meta } = toSimRegistry({ createElement });
    expect(meta).toEqual({
      flowblocks_tinybird: { tags: ['data-warehouse', 'data-analytics'], url: 'https://www.tinybird.co/docs/api-reference' },
      flowblocks_loops: { tags: ['email-marketing', 'marketing'], url: 'https://loops.so/docs/api-reference' },
      flowblocks_workflow: { tags: ['automation'], url: 'https://docs.sim.ai/execution/api' },
    });
    expect(toSimBlockMeta(getBlock('tinybird')!)).toEqual(meta.flowblocks_tinybird);
  });
});

describe('Sim editor entry (flowblocks/sim/blocks)', () => {
  const data = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

  it('gives the blocks and metas the server entry gives, from the generated manifests', () => {
    const server = toSimRegistry({ createElement, name: (n) => `${n}!`, catalog: 'listed' });
    const editor = toSimBlocks({ createElement, name: (n) => `${n}!`, catalog: 'listed' });
    expect(Object.keys(editor.blocks)).toEqual(Object.keys(server.blocks));
    expect(data(editor.blocks)).toEqual(data(server.blocks));
    expect(editor.meta).toEqual(server.meta);
    const values = { operation: 'query', query: 'SELECT 1', datasource: 'x' };
    const tinybird = 'flowblocks_tinybird';
    expect(editor.blocks[tinybird]!.tools.config.tool(values)).toBe(server.blocks[tinybird]!.tools.config.tool(values));
    expect(editor.blocks[tinybird]!.tools.config.params(values)).toEqual(server.blocks[tinybird]!.tools.config.params(values));
  });
});

describe('Sim block', () => {
  const tinybird = toSimBlock(getBlock('tinybird')!, { createElement });
  const workflow = toSimBlock(getBlock('workflow')!, { createElement });
  const sub = (block: typeof tinybird, id: string) => block.subBlocks.find((s) => s.id === id)!;

  it('maps fields to sub-blocks', () => {
    expect(sub(tinybird, 'operation')).toMatchObject({ type: 'dropdown', required: true });
    expect(sub(tinybird, 'operation').value?.({})).toBe('query');
    expect(sub(tinybird, 'token')).toMatchObject({ type: 'short-input', password: true, paramVisibility: 'user-only', required: true });
    expect(sub(tinybird, 'query')).toMatchObject({ type: 'code', generationType: 'sql-query', condition: { field: 'operation', value: ['query'] }, required: true });
    expect(sub(tinybird, 'query').language).toBeUndefined();
    expect(sub(tinybird, 'data')).toMatchObject({ type: 'code', condition: { field: 'operation', value: ['events', 'append_data'] } });
    expect(sub(tinybird, 'concurrency')).toMatchObject({ type: 'short-input', defaultValue: '2' });
    // Required wherever shown: `true` under its condition; required in some of its operations: a rule.
    expect(sub(tinybird, 'datasource').required).toBe(true);
    const loops = toSimBlock(getBlock('loops')!, { createElement });
    expect(sub(loops, 'email').required).toEqual({ field: 'operation', value: ['create_contact', 'send_transactional_email'] });
    expect(sub(workflow, 'inputs')).toMatchObject({ type: 'code', language: 'json', defaultValue: '{}' });
    expect(sub(workflow, 'inputStyle')).toMatchObject({ type: 'dropdown', mode: 'advanced', paramVisibility: 'user-only' });
    expect(sub(workflow, 'inputStyle').value?.({})).toBe('flat');
    expect(tinybird.subBlocks.map((s) => s.type)).not.toContain('number');
  });

  it('lists outputs flat with the operations that produce them, objects as json', () => {
    expect(workflow.outputs.taskId).toMatchObject({ type: 'string', condition: { field: 'operation', value: expect.arrayContaining(['execute', 'get_job']) } });
    expect(Object.values(workflow.outputs).map((o) => o.type)).not.toContain('object');
    expect(tinybird).toMatchObject({ category: 'blocks', bgColor: getBlock('tinybird')!.manifest.color, docsLink: expect.stringMatching(/^https:/) });
  });

  it('maps editor values to the chosen tool and its params', () => {
    const values = { operation: 'append_datasource', datasource: 'events', url: 'https://x', append_datasource_format: 'ndjson', query: 'ignored' };
    expect(tinybird.tools.config.tool(values)).toBe('flowblocks_tinybird_append_datasource');
    expect(stripUndefined(tinybird.tools.config.params(values))).toEqual({ datasource: 'events', url: 'https://x', format: 'ndjson' });
  });

  it("keeps another operation's stored value from reaching the tool when Sim merges params over the inputs", () => {
    const loops = toSimBlock(getBlock('loops')!, { createElement });
    // Sim stores every sub-block's value (create_contact's `subscribed` defaults to true) and runs `{ ...inputs, ...params(inputs) }`.
    const inputs = { operation: 'update_contact', email: 'a@example.com', subscribed: true, eventName: 'signup' };
    const merged = { ...inputs, ...loops.tools.config.params(inputs) };
    expect(stripUndefined(merged)).toEqual({ operation: 'update_contact', email: 'a@example.com' });
  });

  it("draws the block's SVG with the editor's createElement", () => {
    const icon = tinybird.icon({ className: 'h-4 w-4' }) as { type: string; props: Record<string, unknown> };
    expect(icon.type).toBe('svg');
    expect(icon.props).toMatchObject({ viewBox: '0 0 24 24', strokeWidth: '1.8', className: 'h-4 w-4', stroke: 'currentColor' });
    expect((icon.props.dangerouslySetInnerHTML as { __html: string }).__html).not.toContain('<svg');
  });
});

describe('n8n node', () => {
  it('describes each block as a node usable as an AI tool, with its credential', () => {
    for (const block of listBlocks()) {
      const { Node, credential, iconFile, iconDarkFile, iconSvg } = toN8nNode(block);
      const { description } = new Node();
      expect(description).toMatchObject({
        name: n8nNodeName(block),
        usableAsTool: true,
        version: 1,
        group: ['transform'],
        icon: { light: `file:${iconFile}`, dark: `file:${iconDarkFile}` },
        inputs: ['main'],
        outputs: ['main'],
        credentials: [{ name: n8nCredentialName(block), required: true }],
      });
      expect(iconSvg).toMatch(/^<svg/);
      expect(credential.properties.map((p) => p.name)).toEqual([expect.stringMatching(/^(token|apiKey)$/), 'baseUrl']);
      expect(credential.properties[0]).toMatchObject({ typeOptions: { password: true } });
      expect(credential.documentationUrl, block.type).toMatch(/^https:\/\//);
      // Credentials and base URLs are in the credential, not on the node.
      const names = description.properties.map((p) => p.name);
      expect(names).not.toContain('token');
      expect(names).not.toContain('apiKey');
      expect(names).not.toContain('base_url');
    }
    expect(toN8nNode(getBlock('loops')!).credential.properties[1]).toMatchObject({ default: 'https://app.loops.so/api/v1', required: false });
  });

  it('"Test credential" sends one GET below the base URL and, for Tinybird and Loops, checks the answer is the API\'s', () => {
    const tests = Object.fromEntries(listBlocks().map((block) => [block.type, toN8nNode(block).credential.test]));
    // No `timeout`: n8n's RoutingNode replaces it with 300 s; `authenticate` bounds it (n8n-credential-time-limit.test.ts).
    const baseURL = '={{$credentials.baseUrl.replace(/\\/+$/, "")}}';
    expect(tests.tinybird?.request).toEqual({ baseURL, url: '/v0/pipes', method: 'GET' });
    expect(tests.loops?.request).toEqual({ baseURL, url: '/api-key', method: 'GET' });
    // n8n fails the test when a rule's key holds its value: a missing `pipes` / `success`, or `success: false`.
    expect(tests.tinybird?.rules).toEqual([{ type: 'responseSuccessBody', properties: { key: 'pipes', value: undefined, message: "The answer is not the Tinybird API's: check the base URL." } }]);
    expect(tests.loops?.rules).toEqual([
      { type: 'responseSuccessBody', properties: { key: 'success', value: undefined, message: "The answer is not the Loops API's: check the base URL." } },
      { type: 'responseSuccessBody', properties: { key: 'success', value: false, message: 'The Loops API did not accept the credential.' } },
    ]);
  });

  it('shows each property for its operations; optional fields without a default in Additional Fields', () => {
    const { description } = new (toN8nNode(getBlock('tinybird')!).Node)();
    const query = description.properties.find((p) => p.name === 'query')!;
    expect(query).toMatchObject({ required: true, typeOptions: { editor: 'sqlEditor' }, displayOptions: { show: { operation: ['query'] } } });
    expect(description.properties.find((p) => p.name === 'concurrency')).toMatchObject({ type: 'number', default: 2 });
    const extra = description.properties.find((p) => p.name === 'additionalFields' && p.displayOptions?.show?.operation?.[0] === 'query');
    expect(extra).toMatchObject({ type: 'collection', default: {} });
    expect((extra!.options as { name: string }[]).map((o) => o.name)).toEqual(['pipeline']);
  });

  it('defaults every options parameter to one of its options', () => {
    const seen: string[] = [];
    for (const block of listBlocks()) {
      const all = new (toN8nNode(block).Node)().description.properties.flatMap((p) => [p, ...((p.options ?? []) as typeof p[])]);
      for (const p of all.filter((q) => q.type === 'options')) {
        expect((p.options as { value: unknown }[]).map((o) => o.value), `${block.type}.${p.name}`).toContain(p.default);
        seen.push(`${block.type}.${p.name}`);
      }
    }
    expect(seen).toEqual(expect.arrayContaining(['loops.type', 'tinybird.status', 'workflow.level']));
  });

  it("shows the operation's label as the subtitle, as n8n evaluates it", () => {
    const { description } = new (toN8nNode(getBlock('loops')!).Node)();
    const { Workflow } = n8nWorkflow;
    const node = { id: '1', name: 'Loops', type: description.name, typeVersion: 1, position: [0, 0] as [number, number], parameters: { operation: 'findContact' } };
    const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) } as never });
    const shown = workflow.expression.getSimpleParameterValue(node, description.subtitle!, 'manual', {});
    expect(shown).toBe('Find contact');
  });
});

describe('n8n resources', () => {
  it("groups each block's operations under the resources its tools name, every operation once", () => {
    for (const block of listBlocks()) {
      const { properties } = new (toN8nNode(block).Node)().description;
      const resource = properties.find((p) => p.name === 'resource')!;
      const values = (resource.options as { value: string }[]).map((o) => o.value);
      expect(values).toContain(resource.default);
      const operations = properties.filter((p) => p.name === 'operation');
      expect(operations.map((p) => p.displayOptions?.show?.resource?.[0]).sort()).toEqual([...values].sort());
      const ids = operations.flatMap((p) => (p.options as { value: string }[]).map((o) => o.value));
      // Every operation but the custom API call, which n8n's own "Custom API Call" stands for.
      expect(ids.sort()).toEqual(block.definition.operations.filter((op) => !op.tool.customCall).map((op) => n8nName(op.id)).sort());
      for (const p of operations) expect((p.options as { value: string }[]).map((o) => o.value)).toContain(p.default);
    }
    const loops = new (toN8nNode(getBlock('loops')!).Node)().description.properties;
    const contact = loops.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'contact')!;
    expect((contact.options as { value: string }[]).map((o) => o.value)).toContain('findContact');
    expect(loops[0]!.options).toContainEqual({ name: 'Transactional Email', value: 'transactionalEmail' });
    expect(loops[0]!.options).not.toContainEqual({ name: 'API', value: 'api' });
  });
});

describe('errorLine', () => {
  it('names the code once when the message already spells it', () => {
    expect(errorLine({ code: 'invalid_params', message: 'invalid params: email: is required', retryable: false })).toBe('invalid_params: email: is required');
    expect(errorLine({ code: 'not_found', message: 'Not found', retryable: false, status: 404 })).toBe('not_found: Not found');
  });
});
