import loops from '../blocks/loops.js';
import tinybird from '../blocks/tinybird.js';
import workflow from '../blocks/workflow.js';
import type { Block } from './blocks/define-block.js';
import type { AnyTool } from './harness/types.js';

/** Every block, in the order an editor lists them. Add a service's block here. */
const BLOCKS: readonly Block[] = [tinybird, loops, workflow];

const blocksByType = new Map(BLOCKS.map((block) => [block.type, block]));
const toolsById = new Map<string, AnyTool>(BLOCKS.flatMap((block) => block.tools.map((tool) => [tool.id, tool])));

export function listBlocks(): Block[] {
  return [...BLOCKS];
}

export function getBlock(type: string): Block | undefined {
  return blocksByType.get(type);
}

export function listTools(): AnyTool[] {
  return [...toolsById.values()];
}

export function getTool(id: string): AnyTool | undefined {
  return toolsById.get(id);
}
