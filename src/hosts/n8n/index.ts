/**
 * `flowblocks/n8n`: a block as an n8n node (an `INodeType` class) and its service's
 * credential type. `execute()` runs each input item through the flowblocks harness, so
 * validation, retries, pacing, idempotency keys and redaction are the same as anywhere else.
 * Only types come from `n8n-workflow`; at run time n8n provides everything the node touches.
 */
import type {
  ICredentialType,
  INode,
  JsonObject,
  IDataObject,
  IExecuteFunctions,
  ILoadOptionsFunctions,
  INodeExecutionData,
  INodeProperties,
  INodePropertyOptions,
  INodeType,
  INodeTypeDescription,
} from 'n8n-workflow';
import type { Block } from '../../blocks/define-block.js';
import type { BlockOperation, FieldManifest } from '../../blocks/manifest.js';
import { callOptions, coerceParams, errorText, outputRecord } from '../shared/params.js';
import { executeTool } from '../../index.js';
import type { Service } from '../../harness/define/service.js';
import type { AnyTool, ExecuteOptions, ToolError, ToolResult } from '../../harness/types.js';
import { getService } from '../../registry.js';
import { credentialAuthenticate, credentialHeaderOf } from './credential-authenticate.js';
import { n8nTransport } from './http-transport.js';
import { runBatched, type BatchEntry, type BatchOutcome } from './batch-items.js';
import { listItems, listProperties, N8N_LIMIT_DEFAULT, pagedParams, type ListChoice, type ListOutcome } from './list-items.js';
import { n8nName, n8nOperationAction, n8nOperationName } from './names.js';
import { recordsShape } from './records.js';
import { asLocator, isExtractedLocator, listersOf, locatorValue, searchMethodName, searchResults, urlFindersOf } from './resource-locators.js';
import { n8nStyled, n8nTitle } from './style.js';

/** What the node takes from the host's own `n8n-workflow` (its errors must be the host's classes to be n8n's errors). */
export type N8nWorkflowModule = Pick<typeof import('n8n-workflow'), 'NodeApiError' | 'NodeOperationError'>;

export interface N8nNodeOptions {
  /** Harness options of every call (dispatcher, retry, time limit, logger, …); a function is read per call. */
  execute?: ExecuteOptions | (() => ExecuteOptions);
  /**
   * The host's `n8n-workflow` (`require('n8n-workflow')` from the node's CommonJS file): failures are
   * thrown as its `NodeApiError` (the service answered) or `NodeOperationError` (anything else).
   * Without it they are plain `Error`s, which n8n reports as unexpected bugs.
   */
  n8nWorkflow?: N8nWorkflowModule;
  /** The block's service, for its credential (default: the registered service of the block's type). */
  service?: Service;
  /**
   * Who sends the requests: `'n8n'` is n8n's own `this.helpers.httpRequest` (its proxy, SSRF
   * rules and tracing; what n8n Cloud requires of a node), `'undici'` (the default) the
   * harness's keep-alive undici Agent, or `execute.dispatcher` when given.
   */
  http?: 'n8n' | 'undici';
}

export interface N8nNode {
  /** The node class: n8n instantiates it (`export class FlowblocksTinybird extends Node {}` in a `.node.js`). */
  Node: new () => INodeType;
  /** The service's credential type (`export class FlowblocksTinybirdApi implements ICredentialType` in a `.credentials.js`). */
  credential: ICredentialType;
  /** The icons the description names (`file:<iconFile>` for n8n's light theme, `file:<iconDarkFile>` for its dark one): write them next to the node's file from `iconSvg`. */
  iconFile: string;
  iconDarkFile: string;
  iconSvg: string;
}

const pascal = (id: string) => id.replace(/(^|[_-])([a-z0-9])/g, (_m, _s: string, c: string) => c.toUpperCase());

/** The node's type name (`flowblocksTinybird`): prefixed, so it cannot meet an n8n node of that service. */
export function n8nNodeName(block: Block): string {
  return `flowblocks${pascal(block.type)}`;
}

/** The credential type's name (`flowblocksTinybirdApi`). */
export function n8nCredentialName(block: Block): string {
  return `${n8nNodeName(block)}Api`;
}

/** n8n's themed icon: one file for its light theme, one for its dark one. */
type ThemedIcon = { light: `file:${string}.svg`; dark: `file:${string}.svg` };

function credentialOf(block: Block, service: Service, icon: ThemedIcon): ICredentialType {
  const { connection } = service;
  const properties: INodeProperties[] = [
    {
      displayName: connection.credential.param === 'token' ? 'Token' : 'API Key',
      name: connection.credential.param,
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
    },
  ];
  // The base URL: the service's own param when it has one, else its default, which a user may point elsewhere.
  properties.push({
    displayName: 'Base URL',
    name: 'baseUrl',
    type: 'string',
    default: connection.baseUrl.default ?? '',
    required: connection.baseUrl.default === undefined,
    placeholder: connection.baseUrl.default ?? 'https://…',
  });
  const { check, checkAcceptedField, checkAnswer } = connection.credential;
  const credential: ICredentialType = {
    name: n8nCredentialName(block),
    displayName: n8nTitle(`${block.definition.name} (flowblocks) API`),
    icon,
    // The service's API docs; a service without any has no link rather than one that answers 404.
    ...(block.definition.docsUrl ? { documentationUrl: block.definition.docsUrl } : {}),
    properties,
    // How n8n sends the credential on its own requests (the "Test credential" button's below, time-limited there).
    authenticate: credentialAuthenticate(credentialHeaderOf(connection)),
  };
  // No `timeout` here: n8n's RoutingNode (1.x and 2.x) replaces the test request's with 300 s;
  // `authenticate` sees the request after that and bounds it (credential-authenticate.ts).
  if (check) credential.test = { request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}', url: check, method: 'GET' } };
  const notTheApi = `The answer is not the ${block.definition.name} API's: check the base URL.`;
  // A 2xx from anything but the service (the n8n editor itself, a web page) must fail: n8n fails the
  // test when a rule's key holds the rule's value, so a missing field (undefined) and a refusal fail.
  if (credential.test && checkAnswer) {
    credential.test.rules = [
      { type: 'responseSuccessBody', properties: { key: checkAnswer.field, value: undefined, message: notTheApi } },
      ...(checkAnswer.refused === undefined
        ? []
        : [{ type: 'responseSuccessBody' as const, properties: { key: checkAnswer.field, value: checkAnswer.refused, message: `The ${block.definition.name} API did not accept the credential.` } }]),
    ];
  }
  // A check refused once the credential is accepted: n8n reads every status, and its rule fails
  // the test when the body lacks the field only that refusal has (a 401's body, a web page).
  if (credential.test && checkAcceptedField) {
    credential.test.request.ignoreHttpStatusErrors = true;
    credential.test.rules = [
      {
        type: 'responseSuccessBody',
        properties: {
          key: checkAcceptedField,
          value: undefined,
          message: `The ${block.definition.name} API did not accept the credential, or the base URL is not its API (an accepted key gets an answer with "${checkAcceptedField}"). Check both.`,
        },
      },
    ];
  }
  return credential;
}

function defaultOf(field: FieldManifest): INodeProperties['default'] {
  const value = field.default;
  if (field.type === 'code' && field.language === 'json') return value === undefined ? '' : JSON.stringify(value, null, 2);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  // An options parameter's value is always one of its options (n8n shows "" as an invalid choice).
  if (field.type === 'dropdown') return field.options?.[0]?.id ?? '';
  if (field.type === 'number') return 0;
  if (field.type === 'switch') return false;
  return '';
}

/** One n8n property for a field, shown for `ops`. */
function fieldProperty(field: FieldManifest, ops: string[], required: boolean): INodeProperties {
  const property: INodeProperties = {
    displayName: field.title,
    name: n8nName(field.id),
    type: 'string',
    default: defaultOf(field),
    displayOptions: { show: { operation: ops.map(n8nName) } },
  };
  if (field.type === 'dropdown') {
    property.type = 'options';
    property.options = (field.options ?? []).map((o): INodePropertyOptions => ({ name: o.label, value: o.id }));
  } else if (field.type === 'number') property.type = 'number';
  else if (field.type === 'switch') property.type = 'boolean';
  else if (field.type === 'code' && field.language === 'json') property.type = 'json';
  else if (field.type === 'code' && field.language === 'sql') property.typeOptions = { editor: 'sqlEditor', rows: 6 };
  else if (field.type === 'code' || field.type === 'long-input') property.typeOptions = { rows: 5 };
  if (required) property.required = true;
  if (field.description) property.description = field.description;
  if (field.placeholder) property.placeholder = field.placeholder;
  return property;
}

/** A resource's value: its name in lower camel case (`Data Source` → `dataSource`, `API` → `api`), as n8n's nodes spell them. */
const resourceValue = (name: string) =>
  name
    .split(/\s+/)
    .map((word, i) => (i === 0 ? word.toLowerCase() : `${word[0]!.toUpperCase()}${word.slice(1)}`))
    .join('');

/**
 * The operation choice. When the tools name their resources (`resource` in `defineTool`), as
 * n8n's own nodes do: a Resource choice, then the operations of the chosen resource.
 */
function operationProperties(operations: BlockOperation[]): INodeProperties[] {
  const option = (op: BlockOperation): INodePropertyOptions => ({
    name: n8nOperationName(op.label, op.tool.resource),
    value: n8nName(op.id),
    description: op.tool.description.split('. ')[0],
    action: n8nOperationAction(op.label),
  });
  const operation = (ops: BlockOperation[], show?: string): INodeProperties => ({
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    default: ops[0] ? n8nName(ops[0].id) : '',
    options: ops.map(option),
    ...(show ? { displayOptions: { show: { resource: [show] } } } : {}),
  });
  const byResource = new Map<string, BlockOperation[]>();
  for (const op of operations) {
    const resource = op.tool.resource;
    if (resource === undefined) return [operation(operations)];
    byResource.set(resource, [...(byResource.get(resource) ?? []), op]);
  }
  if (byResource.size < 2) return [operation(operations)];
  const resources = [...byResource.keys()];
  return [
    {
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      default: resourceValue(resources[0]!),
      options: resources.map((name) => ({ name, value: resourceValue(name) })),
    },
    ...resources.map((name) => operation(byResource.get(name)!, resourceValue(name))),
  ];
}

function properties(block: Block, operations: BlockOperation[], secretParams: Set<string>): INodeProperties[] {
  const { manifest } = block;
  const tools = new Map(operations.map((op) => [op.id, op.tool]));
  const allOps = [...tools.keys()];
  const listers = listersOf(tools.values());
  const urlFinders = urlFindersOf(tools.values());
  // A field some list tool lists, or an app page names, is a resource locator: chosen from that list, typed, or its page's URL.
  const propertyOf = (field: FieldManifest, ops: string[], required: boolean) => {
    const property = fieldProperty(field, ops, required);
    const sources = { lister: listers.get(field.param), url: urlFinders.get(field.param) };
    return sources.lister || sources.url ? asLocator(property, field, sources) : property;
  };
  const result: INodeProperties[] = operationProperties(operations);
  const optional = new Map<string, INodeProperties[]>();
  for (const field of manifest.fields) {
    if (field.id === 'operation' || secretParams.has(field.param)) continue;
    // Only the node's operations, less the params its "Return All" and "Limit" stand for.
    const shownFor = (field.condition?.value ?? allOps).filter((op) => tools.has(op) && !pagedParams(tools.get(op)!).includes(field.param));
    if (!shownFor.length) continue;
    const required = shownFor.filter((op) => field.requiredFor.includes(op));
    if (required.length) result.push(propertyOf(field, required, true));
    const rest = shownFor.filter((op) => !field.requiredFor.includes(op));
    if (!rest.length) continue;
    if (field.default !== undefined) {
      result.push(propertyOf(field, rest, false));
      continue;
    }
    // Optional fields without a default go in the operation's "Additional Fields", n8n's idiom:
    // an n8n property always has a value, and these must stay unset unless given.
    for (const op of rest) {
      const { displayOptions: _shown, ...inner } = propertyOf(field, [op], false);
      optional.set(op, [...(optional.get(op) ?? []), inner]);
    }
  }
  result.push(...listProperties(tools));
  for (const [op, options] of optional) {
    result.push({
      displayName: 'Additional Fields',
      name: 'additionalFields',
      type: 'collection',
      placeholder: 'Add Field',
      default: {},
      displayOptions: { show: { operation: [n8nName(op)] } },
      options,
    });
  }
  return result;
}


/**
 * Every secret an n8n credential holds, to mask in each result and error whichever field the
 * tool sends: each string field but the base URL, and the user name and password a base URL may
 * carry, decoded and in their base64 `Basic` form.
 */
function credentialSecrets(credential: IDataObject): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(credential)) {
    if (typeof value !== 'string' || value === '') continue;
    if (name !== 'baseUrl') {
      secrets.push(value);
      continue;
    }
    const url = URL.parse(value);
    if (!url || (!url.username && !url.password)) continue;
    const [user, password] = [decodeURIComponent(url.username), decodeURIComponent(url.password)];
    for (const part of [user, password]) if (part) secrets.push(part);
    // The userinfo as an HTTP client sends it: `Authorization: Basic base64(user:password)`.
    secrets.push(Buffer.from(`${user}:${password}`).toString('base64'));
  }
  return secrets;
}

/** The subtitle under the node: the operation's label, not its id. */
function subtitleOf(operations: BlockOperation[]): string {
  const labels = Object.fromEntries(operations.map((op) => [n8nName(op.id), op.label]));
  // Spaces keep the object literal's braces apart from the expression's own `{{ }}`.
  return `={{ (${JSON.stringify(labels)})[$parameter["operation"]] }}`;
}

/**
 * A failed item as every supported n8n's error output takes it. n8n 1.x routes an item there only
 * when its json holds `error` alone or with `message`; 2.x also reads `item.error`. So the json is
 * those two keys, and the code, status and issues travel on `item.error`, n8n's own error class.
 */
function errorItem(error: ToolError, thrown: Error, itemIndex: number): INodeExecutionData {
  return { json: { error: errorText(error), message: error.message }, error: thrown as INodeExecutionData['error'], pairedItem: { item: itemIndex } };
}

/**
 * A failure as n8n's own error: `NodeApiError` when the service answered, `NodeOperationError`
 * otherwise. Its message reads as n8n's own do, without the code (`not_found: `); the code is in
 * its details: the API error's response, the description's end.
 */
function n8nError(host: N8nWorkflowModule | undefined, node: INode, error: ToolError, itemIndex: number): Error {
  const line = errorText(error);
  const description = `${error.message} (${error.code})`;
  if (!host) return Object.assign(new Error(line), { description, itemIndex, code: error.code });
  if (error.status !== undefined) {
    const response: JsonObject = { code: error.code, message: error.message, status: error.status };
    if (error.issues?.length) response.issues = error.issues as unknown as JsonObject[];
    return new host.NodeApiError(node, response, { message: line, description, httpCode: String(error.status), itemIndex });
  }
  return new host.NodeOperationError(node, line, { description, itemIndex });
}

/** The value of the "Custom API Call" n8n adds to a node's resources and operations. */
const N8N_CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** n8n's "Custom API Call" chosen in the node itself: it is made in n8n's HTTP Request node with this credential. */
function customCallElsewhere(credential: ICredentialType): ToolError {
  return {
    code: 'invalid_params',
    message: `A custom API call is made with n8n's HTTP Request node: set its Authentication to "Predefined Credential Type" and choose ${credential.displayName}`,
    retryable: false,
  };
}

/** What the editor asked of a records operation: "Return All", "Limit", "Simplify" (each shown only where it applies). */
function listChoice(context: IExecuteFunctions, itemIndex: number): ListChoice {
  return {
    returnAll: context.getNodeParameter('returnAll', itemIndex, false) as boolean,
    limit: context.getNodeParameter('limit', itemIndex, N8N_LIMIT_DEFAULT) as number,
    simplify: context.getNodeParameter('simplify', itemIndex, false) as boolean,
  };
}

/** A block as an n8n node class and its service's credential type. */
export function toN8nNode(block: Block, options: N8nNodeOptions = {}): N8nNode {
  const service = options.service ?? getService(block.definition.operations[0]?.tool.service ?? block.type);
  if (!service) throw new Error(`block ${block.type}: no registered service; pass options.service`);
  const { connection } = service;
  const secretParams = new Set(connection.credentialParams);
  const iconFile = `${n8nNodeName(block)}.svg` as const;
  const iconDarkFile = `${n8nNodeName(block)}.dark.svg` as const;
  const icon: ThemedIcon = { light: `file:${iconFile}`, dark: `file:${iconDarkFile}` };
  const credential = credentialOf(block, service, icon);
  const { manifest } = block;
  const fields = manifest.fields;
  // The service's own custom call is left to n8n's "Custom API Call", which n8n adds to every
  // node whose credential can authenticate its HTTP Request node: one such choice, not two.
  const operations = block.definition.operations.filter((op) => !op.tool.customCall);
  const byValue = new Map(operations.map((op) => [n8nName(op.id), op]));

  const description: INodeTypeDescription = {
    displayName: `${manifest.name} (flowblocks)`,
    name: n8nNodeName(block),
    icon,
    group: ['transform'],
    version: 1,
    subtitle: subtitleOf(operations),
    description: manifest.description,
    defaults: { name: manifest.name },
    inputs: ['main'],
    outputs: ['main'],
    usableAsTool: true,
    credentials: [{ name: credential.name, required: true }],
    properties: properties(block, operations, secretParams).map(n8nStyled),
  };
  if (manifest.docsUrl) description.documentationUrl = manifest.docsUrl;

  /** A call's params and options from the credential: its key, its base URL, its secrets to mask, n8n's HTTP when asked. */
  function withCredential(secret: IDataObject, params: Record<string, unknown>, helpers: IExecuteFunctions['helpers'], signal: AbortSignal | undefined): ExecuteOptions {
    const baseUrl = typeof secret.baseUrl === 'string' && secret.baseUrl !== '' ? secret.baseUrl : undefined;
    params[connection.credential.param] = secret[connection.credential.param];
    const runOptions = callOptions(options.execute, signal);
    runOptions.secrets = [...(runOptions.secrets ?? []), ...credentialSecrets(secret)];
    if (options.http === 'n8n') runOptions.transport = n8nTransport(helpers);
    if (!baseUrl) return runOptions;
    const placed = connection.placeBaseUrl(baseUrl);
    Object.assign(params, placed.params);
    if (placed.endpoints) runOptions.endpoints = { ...runOptions.endpoints, ...placed.endpoints };
    return runOptions;
  }

  // n8n's `listSearch` methods of the resource locators: one page of the list tool, searched.
  const listSearch: NonNullable<NonNullable<INodeType['methods']>['listSearch']> = {};
  const listers = listersOf(operations.map((op) => op.tool));
  for (const field of fields) {
    const lister = listers.get(field.param);
    if (!lister || field.id === 'operation') continue;
    listSearch[searchMethodName(field)] = async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
      const secret = await this.getCredentials(credential.name);
      const params: Record<string, unknown> = paginationToken && lister.pagination ? { [lister.pagination.cursorParam]: paginationToken } : {};
      const result = await executeTool(lister, params, withCredential(secret, params, this.helpers as IExecuteFunctions['helpers'], undefined));
      if (!result.success) throw n8nError(options.n8nWorkflow, this.getNode(), result.error, 0);
      return searchResults(lister, result.output, filter);
    };
  }

  async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const secret = await this.getCredentials(credential.name);
    // Each input item's output items, in input order (a batched tool answers after the loop).
    const outputs: INodeExecutionData[][] = items.map(() => []);
    const batched = new Map<AnyTool, BatchEntry[]>();
    const settle = (result: ToolResult | ListOutcome | BatchOutcome, i: number, signal: AbortSignal | undefined) => {
      if (result.success) {
        outputs[i] = 'items' in result ? result.items : [{ json: ('meta' in result ? outputRecord(result) : result.output) as IDataObject, pairedItem: { item: i } }];
        return;
      }
      // n8n ends a cancelled run (its time-out, a user's stop) itself: the signal's reason is its own cancellation error.
      if (signal?.aborted && result.error.code === 'aborted') throw signal.reason;
      // n8n's convention: with "continue on fail" the error is the item's output, else the run stops.
      const thrown = n8nError(options.n8nWorkflow, this.getNode(), result.error, i);
      if (!this.continueOnFail()) throw thrown;
      outputs[i] = [errorItem(result.error, thrown, i)];
    };
    for (let i = 0; i < items.length; i++) {
      const value = this.getNodeParameter('operation', i, '') as string;
      if ([value, this.getNodeParameter('resource', i, '')].includes(N8N_CUSTOM_API_CALL)) {
        settle({ success: false, error: customCallElsewhere(credential) }, i, undefined);
        continue;
      }
      const op = byValue.get(value);
      if (!op) throw n8nError(options.n8nWorkflow, this.getNode(), { code: 'invalid_params', message: `${manifest.name} has no operation ${value}`, retryable: false }, i);
      const { tool } = op;
      const extra = (this.getNodeParameter('additionalFields', i, {}) ?? {}) as IDataObject;
      const params: Record<string, unknown> = {};
      const hidden = pagedParams(tool);
      for (const field of fields) {
        if (field.id === 'operation' || secretParams.has(field.param) || hidden.includes(field.param)) continue;
        if (field.condition && !field.condition.value.includes(op.id)) continue;
        const name = n8nName(field.id);
        const path = name in extra ? `additionalFields.${name}` : name;
        const raw = name in extra ? extra[name] : this.getNodeParameter(name, i, null);
        // A URL is n8n's to read: its own extraction, with the mode's pattern, names a URL that does not fit.
        params[field.param] = isExtractedLocator(raw) ? this.getNodeParameter(path, i, null, { extractValue: true }) : locatorValue(raw);
      }
      const runOptions = withCredential(secret, params, this.helpers, this.getExecutionCancelSignal());
      if (tool.batch) {
        batched.set(tool, [...(batched.get(tool) ?? []), { itemIndex: i, params: coerceParams(tool, params), options: runOptions }]);
        continue;
      }
      const result = recordsShape(tool)
        ? await listItems(tool, coerceParams(tool, params), runOptions, listChoice(this, i), i)
        : await executeTool(tool, coerceParams(tool, params), runOptions);
      settle(result, i, runOptions.signal);
    }
    for (const [tool, entries] of batched) {
      const outcomes = await runBatched(tool, entries);
      for (const { itemIndex, options: runOptions } of entries) settle(outcomes.get(itemIndex)!, itemIndex, runOptions.signal);
    }
    return [outputs.flat()];
  }

  class Node implements INodeType {
    description = description;
    methods = { listSearch };
    execute = execute;
  }
  return { Node, credential, iconFile, iconDarkFile, iconSvg: manifest.icon };
}
