/**
 * Type test (tsc only, `npm run typecheck`): every adapted block is an n8n `INodeType` and
 * its credential an `ICredentialType`, as the real `n8n-workflow` types say.
 */
import type { ICredentialType, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { listBlocks } from '../../../src/index.js';
import { toN8nNode } from '../../../src/hosts/n8n/index.js';

export const nodes: INodeType[] = listBlocks().map((block) => new (toN8nNode(block).Node)());
export const credentials: ICredentialType[] = listBlocks().map((block) => toN8nNode(block).credential);
export const descriptions: INodeTypeDescription[] = nodes.map((node) => node.description);

// Wrong shapes are refused.
// @ts-expect-error n8n has no `integer` property type
export const integerProperty: INodeProperties = { displayName: 'Limit', name: 'limit', type: 'integer', default: 0 };
// @ts-expect-error every n8n property has a default
export const noDefault: INodeProperties = { displayName: 'Sql', name: 'sql', type: 'string' };
// @ts-expect-error an icon is `file:…svg`, `fa:…` or `node:…`, not markup
export const markupIcon: INodeTypeDescription = { ...descriptions[0]!, icon: '<svg/>' };
