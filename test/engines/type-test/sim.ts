/**
 * Type test (tsc only, `npm run typecheck`): every adapted block, its meta and every tool is a Sim
 * `BlockConfig` / `BlockMeta` / `ToolConfig` as Sim's own types say (copied in ../sim-types,
 * Apache-2.0), with the real `@types/react` (no stub: a stub made `SVGProps` an index type and
 * hid an icon Sim's type refuses). The `@ts-expect-error` lines fail the check if a wrong shape
 * is ever accepted.
 */
import { createElement } from 'react';
import { AuthMode, IntegrationType, type BlockConfig, type BlockIcon, type BlockMeta, type SubBlockConfig } from '../sim-types/sim/blocks-types';
import type { ToolConfig, ToolResponse } from '../sim-types/sim/tools-types';
import { listBlocks } from '../../../src/index.js';
import { toSimBlock, toSimBlockMeta, toSimRegistry, toSimTool, toSimTools, type SimBlockConfig, type SimSubBlock, type SimToolConfig } from '../../../src/hosts/sim/index.js';
import { simBlockManifests, simNativeBlock, toSimBlocks } from '../../../src/hosts/sim/blocks.js';

// React's own createElement, as the fork passes it.
const registry = toSimRegistry({ createElement, integrationTypes: IntegrationType, catalog: 'listed' });
export const blocks: Record<string, BlockConfig> = registry.blocks;
export const meta: Record<string, BlockMeta> = registry.meta;
export const tools: Record<string, ToolConfig> = registry.tools;
// Each adapted block, one by one, is a BlockConfig (not only through a spread, where TypeScript checks less).
export const each: BlockConfig[] = listBlocks().map((block) => toSimBlock(block, { createElement }));
export const eachMeta: BlockMeta[] = listBlocks().map((block) => toSimBlockMeta(block));
export const icons: BlockIcon[] = listBlocks().map((block) => toSimBlock(block, { createElement }).icon);
export const listed: BlockConfig[] = listBlocks().map((block) => toSimBlock(block, { createElement, integrationTypes: IntegrationType, catalog: 'listed' }));
// The editor's entry gives the same types.
const editor = toSimBlocks({ createElement, integrationTypes: IntegrationType, authMode: AuthMode.ApiKey });
export const editorBlocks: Record<string, BlockConfig> = editor.blocks;
export const editorEach: BlockConfig[] = Object.values(editor.blocks);
export const editorMeta: Record<string, BlockMeta> = editor.meta;
export const fromManifests = toSimBlocks({ createElement, manifests: simBlockManifests() });
export const oneTool: ToolConfig = toSimTool(listBlocks()[0]!.tools[0]!);
export const allTools: Record<string, ToolConfig> = toSimTools({ idPrefix: 'acme_' });
export const subBlock: SubBlockConfig = {} as SimSubBlock;
export const response: Promise<ToolResponse> = registry.tools['flowblocks_tinybird_query']!.directExecution({});
// Spread into Sim's maps as a fork would.
declare const BLOCK_REGISTRY: Record<string, BlockConfig>;
declare const BLOCK_META_REGISTRY: Record<string, BlockMeta>;
declare const simTools: Record<string, ToolConfig>;
export const merged: { blocks: Record<string, BlockConfig>; meta: Record<string, BlockMeta>; tools: Record<string, ToolConfig> } = {
  blocks: { ...BLOCK_REGISTRY, ...editor.blocks },
  meta: { ...BLOCK_META_REGISTRY, ...editor.meta },
  tools: { ...simTools, ...registry.tools },
};

// Wrong shapes are refused.
// @ts-expect-error Sim has no number sub-block
export const numberField: SubBlockConfig = { id: 'limit', type: 'number' };
// @ts-expect-error Sim's code languages have no sql
export const sqlField: SubBlockConfig = { id: 'sql', type: 'code', language: 'sql' };
// @ts-expect-error a block output has no `object` type in Sim (it is json)
export const objectOutput: BlockConfig['outputs'][string] = { type: 'object' };
// @ts-expect-error a block's icon is a component, not an SVG string
export const stringIcon: BlockConfig = { ...blocks.x!, icon: '<svg/>' };
// @ts-expect-error an icon that wants an index type of props is not Sim's BlockIcon (SVGProps has none)
export const indexIcon: BlockIcon = (props: Record<string, unknown>) => createElement('svg', props);
// @ts-expect-error an integration type is Sim's enum, not any string
export const stringType: BlockConfig = { ...blocks.x!, integrationType: 'analytics' };
// @ts-expect-error an auth mode is Sim's enum member, not any string
export const stringAuth: BlockConfig = { ...blocks.x!, authMode: 'api_key' };
// @ts-expect-error a meta's tags are Sim's IntegrationTag
export const anyTag: BlockMeta = { tags: ['not-a-tag'] };
// @ts-expect-error a tool needs its request description even when it runs directly
export const noRequest: ToolConfig = { ...oneTool, request: undefined };
// The adapter's own types hold the same line.
// @ts-expect-error the adapter has no number sub-block either
export const ownNumber: SimSubBlock = { id: 'limit', type: 'number' };
export type Check = SimBlockConfig & SimToolConfig;

// A native block file of `flowblocks sim-blocks` (apps/sim/blocks/blocks/flowblocks_tinybird.ts), as it
// reads: its literal fields and simNativeBlock's parts make a Sim `BlockConfig` with no cast.
const nativeParts = simNativeBlock('tinybird');
export const nativeBlock: BlockConfig = {
  type: 'flowblocks_tinybird',
  name: 'Tinybird (flowblocks)',
  description: 'Tinybird',
  authMode: AuthMode.ApiKey,
  longDescription: 'Tinybird through flowblocks',
  docsLink: 'https://docs.sim.ai/integrations/flowblocks_tinybird',
  category: 'tools',
  integrationType: IntegrationType.Analytics,
  bgColor: '#2D27F7',
  icon: icons[0]!,
  canvasPresentation: nativeParts.canvasPresentation,
  subBlocks: [{ ...nativeParts.operation, id: 'operation', options: [{ label: 'Run SQL query', id: 'query' }] }, ...nativeParts.fields],
  tools: { access: ['flowblocks_tinybird_query'], config: nativeParts.tools.config },
  inputs: nativeParts.inputs,
  outputs: nativeParts.outputs,
};
