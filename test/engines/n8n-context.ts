/**
 * Runs an n8n node's `execute()` with its parameters resolved by n8n-workflow's own
 * `NodeHelpers.getNodeParameters` (defaults filled, parameters of other operations dropped,
 * as n8n stores a node) and checked with `getNodeParametersIssues` (a required parameter left
 * empty fails here as in the editor). The functions `execute()` calls are a thin stand-in
 * of n8n-core's execute context: why n8n-core itself is not used: docs/decisions.md,
 * "n8n unit tests drive the node with n8n-workflow 2.11.1, not n8n-core".
 */
import { createRequire } from 'node:module';
import type { ICredentialDataDecryptedObject, IExecuteFunctions, INode, INodeExecutionData, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

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
    getNodeParameter: (name: string, itemIndex: number, fallback?: unknown, options?: { extractValue?: boolean }) => {
      const value = Object.hasOwn(perItem, name) ? perItem[name]!(itemIndex) : name.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], resolved);
      if (value !== undefined) return options?.extractValue ? extractLocatorValue(description.properties, name, value) : value;
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

/**
 * n8n-core's `extractValue` for a resource locator (utils/extract-value.js): the mode's regex
 * over the value, its one group the result, and n8n's own error when the value does not match.
 */
function extractLocatorValue(properties: readonly INodeProperties[], path: string, value: unknown): unknown {
  const property = path.split('.').reduce<INodeProperties | undefined>((at, part) => (at ? (at.options as INodeProperties[] | undefined) : properties)?.find((p) => p.name === part), undefined);
  if (property?.type !== 'resourceLocator' || typeof value !== 'object' || value === null || !('mode' in value)) return value;
  const { mode, value: raw } = value as { mode: string; value: unknown };
  const extract = property.modes?.find((m) => m.name === mode)?.extractValue;
  if (!extract) return raw;
  const found = new RegExp(extract.regex as string).exec(String(raw));
  if (!found) throw new Error(`ERROR: ${property.displayName} parameter's value is invalid. This is likely because the URL entered is incorrect`);
  return found[1];
}
