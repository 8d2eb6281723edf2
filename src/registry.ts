import { service as loops } from '../tools/loops/index.js';
import { service as tinybird } from '../tools/tinybird/index.js';
import { service as workflow } from '../tools/workflow/index.js';
import type { Block } from './blocks/define-block.js';
import { serviceBlock } from './blocks/service-block.js';
import type { Service } from './harness/define/service.js';
import type { AnyTool } from './harness/types.js';

/** The built-in services by id: the source of the type maps below. */
export interface ServiceMap {
  tinybird: typeof tinybird;
  loops: typeof loops;
  workflow: typeof workflow;
}
/** Every built-in tool, as its own type (literal id, params and output schemas). */
export type BuiltinTool = ServiceMap[keyof ServiceMap]['tools'][number];
/** Built-in tools by id: `executeTool('tinybird_query', …)` and `getTool('tinybird_query')` are typed from it. */
export type ToolMap = { [T in BuiltinTool as T['id']]: T };
export type ToolId = keyof ToolMap;
/**
 * `K` when it is a built-in tool's id, or a `string` (an id known only at run time: read from
 * a file, a model's call, a tool registered later); a literal id that is no tool's becomes a
 * type error that names it. Used by every parameter that takes a tool id.
 */
export type KnownToolId<K extends string> = string extends K
  ? K
  : K extends ToolId
    ? K
    : `no tool with id '${K}'; an id known only at run time is passed typed as string`;
/** The tool a built-in id names; any tool, or none, for an id known only at run time. */
export type ToolOf<K extends string> = K extends ToolId ? ToolMap[K] : AnyTool | undefined;
/** Built-in blocks by type: `getBlock('tinybird')` is a `Block` of Tinybird's tools, never undefined. */
export type BlockMap = { [K in keyof ServiceMap]: Block<ServiceMap[K]['tools'][number]> };

const services = new Map<string, Service>();
const blocksByType = new Map<string, Block>();
const toolsById = new Map<string, AnyTool>();

/**
 * Adds a service: its block and its tools become listed, and `executeTool` finds its tools by
 * id. Throws when the service id or one of its tool ids is taken.
 */
export function registerService(service: Service): void {
  if (services.has(service.id)) throw new Error(`a service ${service.id} is already registered`);
  const taken = service.tools.find((tool) => toolsById.has(tool.id));
  if (taken) throw new Error(`a tool ${taken.id} is already registered`);
  services.set(service.id, service);
  blocksByType.set(service.id, serviceBlock(service));
  for (const tool of service.tools) toolsById.set(tool.id, tool);
}

// Every service, in the order an editor lists their blocks. A new service is one line here.
for (const service of [tinybird, loops, workflow]) registerService(service);

export function listServices(): Service[] {
  return [...services.values()];
}

export function getService(id: string): Service | undefined {
  return services.get(id);
}

export function listBlocks(): Block[] {
  return [...blocksByType.values()];
}

export function getBlock<K extends keyof BlockMap>(type: K): BlockMap[K];
export function getBlock(type: string): Block | undefined;
export function getBlock(type: string): Block | undefined {
  return blocksByType.get(type);
}

export function listTools(): AnyTool[] {
  return [...toolsById.values()];
}

export function getTool<K extends string>(id: KnownToolId<K>): ToolOf<K>;
export function getTool(id: string): AnyTool | undefined {
  return toolsById.get(id);
}
