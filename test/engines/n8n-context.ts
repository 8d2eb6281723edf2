/**
 * Runs an n8n node's `execute()` with its parameters resolved by n8n-workflow's own
 * `NodeHelpers.getNodeParameters` (defaults filled, parameters of other operations dropped,
 * as n8n stores a node) and checked with `getNodeParametersIssues` (a required parameter left
 * empty fails here as in the editor). The functions `execute()` calls are a thin stand-in
 * of n8n-core's execute context: why n8n-core itself is not used: docs/decisions.md,
 * "n8n unit tests drive the node with n8n-workflow 2.11.1, not n8n-core".
 */
import { createRequire } from 'node:module';
import type { ICredentialDataDecryptedObject, IExecuteFunctions, INode, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

// n8n loads n8n-workflow as CommonJS (its ESM build has extensionless imports Node refuses).
export const n8nWorkflow = createRequire(import.meta.url)('n8n-workflow') as typeof import('n8n-workflow');
const { NodeHelpers } = n8nWorkflow;

export interface N8nRun {
  node: INodeType;
  parameters: INodeParameters;
  credentials: ICredentialDataDecryptedObject;
  items?: INodeExecutionData[];
  continueOnFail?: boolean;
  /** What n8n's `getExecutionCancelSignal()` hands the node (its time-out or a user's stop aborts it). */
  signal?: AbortSignal;
  /** `this.helpers` (n8n's `httpRequest`, for a node built with `http: 'n8n'`). */
  helpers?: Record<string, unknown>;
  /** A parameter's value per item, as n8n resolves an expression (`={{ $json.data }}`) for each item: objects stay objects. */
  perItem?: Record<string, (itemIndex: number) => unknown>;
}

export async function runN8nNode({ node, parameters, credentials, items = [{ json: {} }], continueOnFail = false, signal, helpers = {}, perItem = {} }: N8nRun) {
  const { description } = node;
  const resolved = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, { typeVersion: 1 }, description) ?? {};
  const nodeData: INode = {
    id: 'node-1',
    name: description.defaults.name ?? description.displayName,
    type: description.name,
    typeVersion: 1,
    position: [0, 0],
    parameters: resolved,
    credentials: Object.fromEntries((description.credentials ?? []).map((c) => [c.name, { id: '1', name: c.name }])),
  };
  const issues = NodeHelpers.getNodeParametersIssues(description.properties, nodeData, description);
  if (issues) throw new Error(`n8n reports parameter issues: ${JSON.stringify(issues)}`);
  const context = {
    getInputData: () => items,
    getNode: () => nodeData,
    getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
      const value = Object.hasOwn(perItem, name) ? perItem[name]!(itemIndex) : resolved[name];
      if (value !== undefined) return value;
      // n8n-core throws for a missing parameter without a fallback.
      if (fallback === undefined) throw new Error(`Could not get parameter "${name}"`);
      return fallback;
    },
    getCredentials: async (type: string) => {
      if (!description.credentials?.some((c) => c.name === type)) throw new Error(`node does not have credential type ${type}`);
      return credentials;
    },
    continueOnFail: () => continueOnFail,
    getExecutionCancelSignal: () => signal,
    helpers,
  };
  if (!node.execute) throw new Error('node has no execute()');
  // A node without engine requests returns items per output.
  const output = (await node.execute.call(context as unknown as IExecuteFunctions)) as INodeExecutionData[][];
  return { resolved, output };
}
