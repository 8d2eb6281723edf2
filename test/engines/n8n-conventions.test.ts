/**
 * Issue 43 item 9: the nodes follow n8n's own conventions. "Get Many" for lists, operation
 * names without their resource's words, one case style (camel) for parameter names and
 * operation values, error texts without a `not_found:` code in front, one "Custom API Call"
 * (n8n's own, which these nodes no longer duplicate and answer per item), codex categories
 * that fit the service, and icons for n8n's light and dark themes.
 */
import { describe, expect, it } from 'vitest';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { n8nNodeSources } from '../../scripts/n8n-node-sources.js';
import { getBlock, listBlocks } from '../../src/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { mockService } from '../helpers/mock-service.js';
import { n8nWorkflow, runN8nNode } from './n8n-context.js';

const describeNode = (type: string) => new (toN8nNode(getBlock(type)!).Node)().description;
const operationsOf = (type: string, resource: string) =>
  (describeNode(type).properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === resource)!.options as INodePropertyOptions[]).map((o) => o.name);

/** Every property name, collections' options included. */
const namesOf = (properties: INodeProperties[]): string[] =>
  properties.flatMap((p) => [p.name, ...(p.type === 'collection' ? namesOf(p.options as INodeProperties[]) : [])]);

/** What n8n's loader does to a node whose credential can authenticate the HTTP Request node (load-nodes-and-credentials.js, injectCustomApiCallOptions). */
function withN8nCustomApiCall(properties: INodeProperties[]): INodeProperties[] {
  return properties.map((p) =>
    ['resource', 'operation'].includes(p.name) && Array.isArray(p.options) && (p.options.at(-1) as INodePropertyOptions).name !== 'Custom API Call'
      ? { ...p, options: [...p.options, { name: 'Custom API Call', value: '__CUSTOM_API_CALL__' }] }
      : p,
  );
}

describe('n8n conventions', () => {
  it('names lists "Get Many" and leaves the resource out of operation names', () => {
    expect(operationsOf('loops', 'contact')).toEqual(['Check Suppression', 'Create', 'Delete', 'Find', 'Remove Suppression', 'Update']);
    expect(operationsOf('tinybird', 'pipe')).toEqual(['Call an Endpoint', 'Get', 'Get Many']);
    expect(operationsOf('loops', 'transactionalEmail')).toEqual(['Get', 'Get Many', 'Send']);
    expect(operationsOf('workflow', 'log')).toEqual(['Get', 'Get Many']);
    for (const block of listBlocks()) {
      const { properties } = describeNode(block.type);
      const resources = (properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]).map((o) => [o.value, o.name] as const);
      for (const [value, name] of resources) {
        for (const op of operationsOf(block.type, String(value))) {
          expect(op, `${block.type} ${name}`).not.toMatch(/^List\b/);
          expect(op.toLowerCase(), `${block.type} ${name}`).not.toContain(name.toLowerCase());
        }
      }
    }
  });

  it('spells every parameter name and operation value in camel case', () => {
    for (const block of listBlocks()) {
      const { properties } = describeNode(block.type);
      for (const name of namesOf(properties)) expect(name, block.type).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      const values = properties.filter((p) => p.name === 'operation').flatMap((p) => (p.options as INodePropertyOptions[]).map((o) => String(o.value)));
      for (const value of values) expect(value, block.type).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    }
    expect(namesOf(describeNode('tinybird').properties)).toEqual(expect.arrayContaining(['deleteCondition', 'maxRequestBytes', 'jobId']));
  });

  it('fails with the service\'s message, the code only in the details', async () => {
    const workflow = mockService('https://sim.example.com');
    workflow.on('GET', '/api/v1/logs/log_missing', { status: 404, body: { error: 'Log not found' } }, { status: 404, body: { error: 'Log not found' } });
    const { Node } = toN8nNode(getBlock('workflow')!, { execute: { dispatcher: workflow.agent }, n8nWorkflow });
    const credentials = { apiKey: 'sk-sim-conventions-0001', baseUrl: 'https://sim.example.com' } as never;
    const parameters = { resource: 'log', operation: 'getLog', id: 'log_missing' } as never;
    const thrown = await runN8nNode({ node: new Node(), parameters, credentials }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(n8nWorkflow.NodeApiError);
    expect((thrown as Error).message).toBe('Log not found');
    expect(thrown).toMatchObject({ description: 'Log not found (not_found)', httpCode: '404' });
    const { output } = await runN8nNode({ node: new Node(), parameters, credentials, continueOnFail: true });
    expect(output[0]![0]!.json).toEqual({ error: 'Log not found', message: 'Log not found' });
    expect(workflow.requests.map((r) => [r.method, r.path, r.headers['x-api-key']])).toEqual([
      ['GET', '/api/v1/logs/log_missing', 'sk-sim-conventions-0001'],
      ['GET', '/api/v1/logs/log_missing', 'sk-sim-conventions-0001'],
    ]);
  });

  it('offers one "Custom API Call", n8n\'s own, and answers it per item', async () => {
    for (const block of listBlocks()) {
      const { properties } = describeNode(block.type);
      const choices = withN8nCustomApiCall(properties)
        .filter((p) => p.name === 'resource' || p.name === 'operation')
        .map((p) => (p.options as INodePropertyOptions[]).filter((o) => /custom/i.test(o.name)).map((o) => o.name));
      for (const found of choices) expect(found, block.type).toEqual(['Custom API Call']);
    }
    const { Node, credential } = toN8nNode(getBlock('loops')!, { n8nWorkflow });
    const node = new Node();
    node.description = { ...node.description, properties: withN8nCustomApiCall(node.description.properties) };
    const run = (continueOnFail: boolean) =>
      runN8nNode({ node, parameters: { resource: 'contact', operation: '__CUSTOM_API_CALL__' } as never, credentials: { apiKey: 'lk_conventions_key' } as never, continueOnFail });
    const { output } = await run(true);
    expect(output[0]).toEqual([
      expect.objectContaining({ json: { error: expect.stringContaining('HTTP Request node'), message: expect.stringContaining(credential.displayName) }, pairedItem: { item: 0 } }),
    ]);
    await expect(run(false)).rejects.toBeInstanceOf(n8nWorkflow.NodeOperationError);
  });

  it('files each node under categories that fit its service', () => {
    const { files } = n8nNodeSources();
    const categories = (node: string) => (JSON.parse(files.get(`nodes/${node}/${node}.node.json`)!) as { categories: string[] }).categories;
    expect(categories('FlowblocksTinybird')).toContain('Analytics');
    expect(categories('FlowblocksLoops')).toContain('Marketing');
    expect(categories('FlowblocksWorkflow')).toContain('Productivity');
  });

  it("has icons for n8n's light and dark themes, beside the node and the credential", () => {
    const { files } = n8nNodeSources();
    for (const block of listBlocks()) {
      const { Node, credential, iconFile, iconDarkFile } = toN8nNode(block);
      const icon = { light: `file:${iconFile}`, dark: `file:${iconDarkFile}` };
      expect(new Node().description.icon).toEqual(icon);
      expect(credential.icon).toEqual(icon);
      const node = [...files.keys()].find((f) => f.endsWith(`/${iconFile}`) && f.startsWith('nodes/'))!;
      const dark = files.get(node.replace(iconFile, iconDarkFile))!;
      expect(dark).toMatch(/^<svg/);
      expect(dark).not.toBe(files.get(node));
      expect(files.get(`credentials/${iconDarkFile}`)).toBe(dark);
    }
  });
});
