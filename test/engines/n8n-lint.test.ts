/**
 * What `n8n-node lint` asks of the n8n package that its rules cannot see in our sources (they
 * are derived at run time): the author's e-mail, a `limit` of 50 in the editor, actions in
 * the rule's sentence case, and a credential test for every credential. `npm run check:n8n`
 * runs the lint itself; test/n8n/credential-test.n8n.ts runs the credential tests in n8n's code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getBlock, getTool, listBlocks } from '../../src/index.js';
import { n8nAction } from '../../src/hosts/n8n/style.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { n8nWorkflow } from './n8n-context.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('n8n package author', () => {
  it("has a name and the e-mail SECURITY.md gives (the lint's valid-author)", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'packages/n8n-nodes-flowblocks/package.json'), 'utf8')) as { author: { name?: string; email?: string } };
    expect(pkg.author.name).toBeTruthy();
    expect(pkg.author.email).toMatch(/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/);
    expect(readFileSync(join(root, 'SECURITY.md'), 'utf8')).toContain(pkg.author.email);
  });
});

describe('n8n limit', () => {
  it("shows 50 in the editor, n8n's Limit of results, while the tool's page keeps the spec's 100", () => {
    const { description } = new (toN8nNode(getBlock('workflow')!).Node)();
    const limit = description.properties.find((p) => p.name === 'limit')!;
    expect(limit).toMatchObject({ type: 'number', default: 50, typeOptions: { minValue: 1 }, description: 'Max number of results to return' });
    // What n8n stores for a list-logs node whose limit the user left alone: at most 50 entries.
    const stored = n8nWorkflow.NodeHelpers.getNodeParameters(description.properties, { resource: 'log', operation: 'listLogs' }, true, false, { typeVersion: 1 }, description);
    expect(stored).toMatchObject({ operation: 'listLogs', returnAll: false, limit: 50 });
    // Every other caller gets the spec's default.
    const parsed = getTool('workflow_list_logs').params.parse({ base_url: 'https://w.example.com', apiKey: 'k', workspaceId: 'ws' });
    expect(parsed.limit).toBe(100);
  });
});

/**
 * The lint's `node-param-operation-option-action-miscased`: words in capitals are left out,
 * and the rest must survive sentence case, which splits a word at a case change (`IPs` →
 * `i ps`). So: a first word capitalised, the others lower case, or a word all in capitals.
 */
const inRuleSentenceCase = (action: string) =>
  action.split(' ').every((word, i) => word === word.toUpperCase() || (i === 0 ? /^[A-Z][a-z0-9]*$/ : /^[a-z0-9]+$/).test(word));

describe('n8n actions', () => {
  it("writes every operation's action in the sentence case n8n's rule accepts", () => {
    const actions: string[] = [];
    for (const block of listBlocks()) {
      const { properties } = new (toN8nNode(block).Node)().description;
      for (const p of properties.filter((q) => q.name === 'operation')) {
        for (const option of p.options as { action?: string }[]) actions.push(option.action!);
      }
    }
    expect(actions.length).toBeGreaterThan(30);
    expect(actions.filter((a) => !inRuleSentenceCase(a))).toEqual([]);
    expect(actions).toContain('Get many dedicated sending IP addresses');
    expect(actions).toContain('Run SQL query');
  });

  it('spells out plural acronyms and keeps capitals', () => {
    expect(n8nAction('List dedicated sending IPs')).toBe('List dedicated sending IP addresses');
    expect(n8nAction('Get contact IDs')).toBe('Get contact identifiers');
    expect(n8nAction('Run SQL Query')).toBe('Run SQL query');
  });
});

describe('n8n credential tests', () => {
  it('gives every credential a test', () => {
    for (const block of listBlocks()) expect(toN8nNode(block).credential.test, block.type).toBeDefined();
    expect(toN8nNode(getBlock('tinybird')!).credential.test).toEqual({ request: expect.objectContaining({ url: '/v0/pipes', method: 'GET' }), rules: [expect.objectContaining({ type: 'responseSuccessBody' })] });
    expect(toN8nNode(getBlock('loops')!).credential.test).toEqual({ request: expect.objectContaining({ url: '/api-key', method: 'GET' }), rules: [expect.anything(), expect.anything()] });
  });
  // Against the sandbox: test/engines/e2e.test.ts; in n8n's own code: test/n8n/credential-test.n8n.ts.
});
