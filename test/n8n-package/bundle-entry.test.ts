/**
 * Issue 44, item 4: the n8n package's bundle entry (`packages/n8n-nodes-flowblocks/src/index.mts`)
 * and its private global (`bundle-globals.mts`) under the unit suite: before, only the build and
 * the real-n8n suite loaded them. The host's n8n-workflow is this repository's copy, handed over
 * through a fake of `host-workflow.mts` that counts when it is asked.
 */
import * as n8nWorkflow from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';
import { listBlocks } from '../../src/registry.js';
import { runN8nNode } from '../engines/n8n-context.js';

const asked = vi.fn(() => n8nWorkflow);
vi.mock('../../packages/n8n-nodes-flowblocks/src/host-workflow.mjs', () => ({ hostWorkflow: () => asked() }));

// A fresh copy: the mutation run's setup file has loaded the entry already, with the real host module.
vi.resetModules();
const entry = await import('../../packages/n8n-nodes-flowblocks/src/index.mjs');

describe('n8n package: the bundle entry', () => {
  it('lays out one node and one credential per registered block, named as n8n lists them', () => {
    const layout = entry.layout();
    expect(layout.map((item) => item.type)).toEqual(listBlocks().map((block) => block.type));
    for (const item of layout) {
      expect(item.node).toMatch(/^flowblocks[A-Z]\w+$/);
      expect(item.credential).toBe(`${item.node}Api`);
      // The same adapted node each time: built once per block.
      expect(entry.nodeClass(item.type)).toBe(item.adapted.Node);
      expect(entry.nodeClass(item.type)).toBe(entry.nodeClass(item.type));
    }
  });

  it('a credential class n8n instantiates carries the credential\'s fields, each instance its own', () => {
    const [first] = entry.layout();
    const Credential = entry.credentialClass(first!.type);
    const a = new Credential() as unknown as { name: string; properties: unknown[] };
    const b = new Credential() as unknown as { name: string; properties: unknown[] };
    expect(a.name).toBe(first!.credential);
    expect(a.properties.length).toBeGreaterThan(0);
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
  });

  it('refuses a block it does not have, by name', () => {
    expect(() => entry.nodeClass('nope')).toThrow('n8n-nodes-flowblocks: no block nope');
  });

  it('reads the host\'s error classes when an error is made, not when it loads, and throws the host\'s own', async () => {
    // Loading the entry and building every node asked nothing of the host.
    expect(asked).not.toHaveBeenCalled();
    const node = new (entry.nodeClass('workflow'))();
    const credentials = { apiKey: 'wf-key-44', baseUrl: 'not a url' };
    const thrown = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'log-1' }, credentials }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(n8nWorkflow.NodeOperationError);
    expect(asked).toHaveBeenCalled();
  });
});

describe('n8n package: a node of the bundle sends through n8n', () => {
  /** n8n's `httpRequest` answering one status and JSON body as a stream, keeping what it was asked. */
  function n8nHttp(status: number, body: unknown) {
    const asked: Record<string, unknown>[] = [];
    const httpRequest = async (options: Record<string, unknown>) => {
      asked.push(options);
      const bytes = new TextEncoder().encode(JSON.stringify(body));
      return { statusCode: status, headers: { 'content-type': 'application/json' }, body: (async function* () { yield bytes; })() };
    };
    return { asked, helpers: { httpRequest } };
  }
  const credentials = { apiKey: 'wf-key-44', baseUrl: 'https://workflows.example.com' };
  /** A node built inside the test (the entry builds each once, and would hand over the one an earlier test built). */
  async function freshWorkflowNode() {
    vi.resetModules();
    const fresh = await import('../../packages/n8n-nodes-flowblocks/src/index.mjs');
    return new (fresh.nodeClass('workflow'))();
  }

  it('hands the request to this.helpers.httpRequest (no undici in the bundle), and maps the answer', async () => {
    const node = await freshWorkflowNode();
    const log = { id: 'log-1', workflowId: 'w', executionId: 'e', level: 'info', trigger: 'api', startedAt: '2026-11-27T10:00:00Z' };
    const http = n8nHttp(200, { data: log });
    const { output } = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'log-1' }, credentials, helpers: http.helpers });
    expect(http.asked).toHaveLength(1);
    expect(http.asked[0]).toMatchObject({ method: 'GET', url: 'https://workflows.example.com/api/v1/logs/log-1', headers: { 'x-api-key': 'wf-key-44' }, returnFullResponse: true });
    expect(output[0]![0]!.json).toMatchObject({ data: { id: 'log-1', workflowId: 'w' } });
  });

  it('a service\'s refusal is the host\'s NodeApiError', async () => {
    const node = await freshWorkflowNode();
    const http = n8nHttp(401, { error: 'Invalid API key' });
    const thrown = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'log-1' }, credentials, helpers: http.helpers }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(n8nWorkflow.NodeApiError);
  });
});

describe('n8n package: the bundle\'s own global object', () => {
  it('is a private empty object, not the host\'s globalThis', async () => {
    const { bundleGlobals } = await import('../../packages/n8n-nodes-flowblocks/src/bundle-globals.mjs');
    expect(bundleGlobals).not.toBe(globalThis);
    expect(Object.keys(bundleGlobals)).toEqual([]);
  });
});
