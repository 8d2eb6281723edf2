/**
 * The runtime `n8n-nodes-flowblocks` loads (`dist/lib/flowblocks.js`, one CommonJS bundle written
 * over tsc's output of lib/flowblocks.ts, which declares what the nodes call): every registered
 * block as an n8n node class and its credential class, from the same definitions as the
 * `flowblocks` package. The compiled nodes call its `executeOf` and `methodsOf`.
 */
import { n8nCredentialName, n8nNodeName, toN8nNode, type N8nNode, type N8nWorkflowModule } from '../../../src/hosts/n8n/index.js';
import { listBlocks } from '../../../src/registry.js';
import { hostWorkflow } from './host-workflow.mjs';

const built = new Map<string, N8nNode>();

/** The host's error classes, read when an error is thrown. */
const host: N8nWorkflowModule = {
  get NodeApiError() {
    return hostWorkflow().NodeApiError;
  },
  get NodeOperationError() {
    return hostWorkflow().NodeOperationError;
  },
};

function adapted(type: string): N8nNode {
  let node = built.get(type);
  if (!node) {
    const block = listBlocks().find((b) => b.type === type);
    if (!block) throw new Error(`n8n-nodes-flowblocks: no block ${type}`);
    // n8n's own HTTP and clock: the bundle holds neither undici nor a timer of its own.
    node = toN8nNode(block, { n8nWorkflow: host, http: 'n8n' });
    built.set(type, node);
  }
  return node;
}

/** The node class of a block (`FlowblocksTinybird`). */
export function nodeClass(type: string): N8nNode['Node'] {
  return adapted(type).Node;
}

/** The `execute()` of a block's node: what each `nodes/<Name>/<Name>.node.ts` calls. */
export function executeOf(type: string): NonNullable<InstanceType<N8nNode['Node']>['execute']> {
  return new (adapted(type).Node)().execute!;
}

/** The `methods` of a block's node (its resource locators' `listSearch`): what each `nodes/<Name>/<Name>.node.ts` holds. */
export function methodsOf(type: string): NonNullable<InstanceType<N8nNode['Node']>['methods']> {
  return new (adapted(type).Node)().methods!;
}

/** The credential class of a block's service (`FlowblocksTinybirdApi`): n8n instantiates it. */
export function credentialClass(type: string): new () => N8nNode['credential'] {
  const { credential } = adapted(type);
  return class {
    constructor() {
      Object.assign(this, credential);
    }
  } as new () => N8nNode['credential'];
}

/** What the build writes: per block its node and credential names. */
export function layout() {
  return listBlocks().map((block) => ({ type: block.type, node: n8nNodeName(block), credential: n8nCredentialName(block), adapted: adapted(block.type), block }));
}
