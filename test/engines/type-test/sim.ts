/**
 * Type test (tsc only, `npm run typecheck`): every adapted block and tool is a Sim
 * `BlockConfig` / `ToolConfig` as Sim's own types say (copied in ../sim-types, Apache-2.0).
 * The `@ts-expect-error` lines fail the check if a wrong shape is ever accepted.
 */
import type { BlockConfig, SubBlockConfig } from '../sim-types/sim/blocks-types';
import type { ToolConfig, ToolResponse } from '../sim-types/sim/tools-types';
import { listBlocks } from '../../../src/index.js';
import { toSimBlock, toSimRegistry, toSimTool, toSimTools, type SimBlockConfig, type SimSubBlock, type SimToolConfig } from '../../../src/sim/index.js';

declare const createElement: (type: string, props: Record<string, unknown>) => JSX.Element;

const registry = toSimRegistry({ createElement });
export const blocks: Record<string, BlockConfig> = registry.blocks;
export const tools: Record<string, ToolConfig> = registry.tools;
export const each: BlockConfig[] = listBlocks().map((block) => toSimBlock(block, { createElement }));
export const oneTool: ToolConfig = toSimTool(listBlocks()[0]!.tools[0]!);
export const allTools: Record<string, ToolConfig> = toSimTools({ idPrefix: 'acme_' });
export const subBlock: SubBlockConfig = {} as SimSubBlock;
export const response: Promise<ToolResponse> = registry.tools['flowblocks_tinybird_query']!.directExecution({});
// Spread into Sim's maps as a fork would.
declare const BLOCK_REGISTRY: Record<string, BlockConfig>;
declare const simTools: Record<string, ToolConfig>;
export const merged = { blocks: { ...BLOCK_REGISTRY, ...registry.blocks }, tools: { ...simTools, ...registry.tools } };

// Wrong shapes are refused.
// @ts-expect-error Sim has no number sub-block
export const numberField: SubBlockConfig = { id: 'limit', type: 'number' };
// @ts-expect-error Sim's code languages have no sql
export const sqlField: SubBlockConfig = { id: 'sql', type: 'code', language: 'sql' };
// @ts-expect-error a block output has no `object` type in Sim (it is json)
export const objectOutput: BlockConfig['outputs'][string] = { type: 'object' };
// @ts-expect-error a block's icon is a component, not an SVG string
export const stringIcon: BlockConfig = { ...blocks.x!, icon: '<svg/>' };
// @ts-expect-error a tool needs its request description even when it runs directly
export const noRequest: ToolConfig = { ...oneTool, request: undefined };
// The adapter's own types hold the same line.
// @ts-expect-error the adapter has no number sub-block either
export const ownNumber: SimSubBlock = { id: 'limit', type: 'number' };
export type Check = SimBlockConfig & SimToolConfig;
