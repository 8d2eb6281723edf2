/**
 * `flowblocks/sim`: the blocks and tools as Sim's `BlockConfig` and `ToolConfig`, ready to
 * spread into a Sim fork's `BLOCK_REGISTRY` and `tools` maps. Every adapted tool runs through
 * the flowblocks harness (Sim's `directExecution`), so validation, retries, pacing, idempotency
 * keys and redaction are the same as anywhere else. No runtime dependency on Sim or React: the
 * types below are the subset of Sim's that the adapter fills (test/engines checks them against
 * Sim's own), and the icon is drawn with the `createElement` the fork passes in.
 */
import type { Block } from '../../blocks/define-block.js';
import { callOptions, coerceParams, errorLine, outputRecord, paramInfo } from '../shared/params.js';
import { executeTool } from '../../index.js';
import type { AnyTool, ExecuteOptions } from '../../harness/types.js';
import { listBlocks } from '../../registry.js';
import { simGuardedTransport, type SimOutboundGuard } from './outbound-guard.js';
import { simToolName, withPrefixedIds } from './tool-text.js';
import { DEFAULT_SIM_PREFIX, SIM_PARAM_DEFAULTS, toSimBlockConfig, toSimBlockMaps, toSimBlockMetaOf, type SimBlockConfig, type SimBlockMeta, type SimBlockOptions } from './block-config.js';

export { DEFAULT_SIM_PREFIX, defaultSimBlockName, SIM_PARAM_DEFAULTS } from './block-config.js';
export { simGuardedTransport } from './outbound-guard.js';
export { simIdChanges, simIdSnapshot, type SimIdSnapshot } from './ids.js';
export { simIds } from './blocks.js';
export type { SimGuardedAnswer, SimGuardedInit, SimOutboundGuard, SimUrlCheck } from './outbound-guard.js';
export type { SimBlockConfig, SimBlockMeta, SimBlockOptions, SimBlockSource, SimFieldRule, SimIntegrationTag, SimCanvasClause, SimCanvasPresentation, SimSubBlock, SimValueType } from './block-config.js';

export interface SimToolOptions {
  /** Put before every tool id (`flowblocks_tinybird_query`). Default `flowblocks_`. */
  idPrefix?: string;
  /** Harness options of every call (dispatcher, retry, time limit, logger, endpoints, …); a function is read per call. */
  execute?: ExecuteOptions | (() => ExecuteOptions);
  /** The blocks to adapt (default: every registered block). */
  blocks?: Block[];
  /**
   * Sim's outbound guard (`validateUrlWithDNS` and `createPinnedFetch` from
   * `@/lib/core/security/input-validation.server`): every attempt is checked and sent through it,
   * as Sim's own tools are, instead of through undici. It replaces any `execute.transport`.
   */
  guard?: SimOutboundGuard;
}

/** The block options and the tool options, for `toSimRegistry`. */
export type SimRegistryOptions<E = unknown, I extends string = string, M extends string = never> = SimBlockOptions<E, I, M> & SimToolOptions;

/** The part of Sim's `ToolResponse` the adapter returns. */
export interface SimToolResponse {
  success: boolean;
  output: Record<string, unknown>;
  error?: string;
  statusCode?: number;
  timing?: { startTime: string; endTime: string; duration: number };
}

type SimOutputType = 'string' | 'number' | 'boolean' | 'json' | 'array' | 'object';

/** The part of Sim's `ToolConfig` the adapter fills. */
export interface SimToolConfig {
  id: string;
  name: string;
  description: string;
  version: string;
  params: Record<
    string,
    { type: string; required?: boolean; visibility?: 'user-or-llm' | 'user-only'; default?: unknown; description?: string }
  >;
  outputs?: Record<string, { type: SimOutputType; description?: string; optional?: boolean }>;
  /** Never sent: `directExecution` runs the call. Sim's type asks for a request description. */
  request: { url: string; method: 'POST'; headers: () => Record<string, string> };
  directExecution: (params: Record<string, unknown>, signal?: AbortSignal) => Promise<SimToolResponse>;
}

function blocksOf(options: SimToolOptions): Block[] {
  return options.blocks ?? listBlocks();
}


/** A tool as Sim's `ToolConfig`, run by the harness. */
export function toSimTool(tool: AnyTool, options: SimToolOptions = {}): SimToolConfig {
  const transport = options.guard && simGuardedTransport(options.guard);
  const prefix = options.idPrefix ?? DEFAULT_SIM_PREFIX;
  const blocks = blocksOf(options);
  const ids = blocks.flatMap((b) => b.tools.map((t) => t.id));
  const block = blocks.find((b) => b.tools.includes(tool));
  const simDefaults = SIM_PARAM_DEFAULTS[tool.id] ?? {};
  const params: SimToolConfig['params'] = {};
  for (const p of paramInfo(tool)) {
    const fallback = simDefaults[p.name] ?? p.default;
    params[p.name] = {
      type: p.type,
      required: p.required,
      visibility: p.visibility,
      ...(p.description ? { description: withPrefixedIds(p.description, ids, prefix) } : {}),
      ...(fallback !== undefined ? { default: fallback } : {}),
    };
  }
  return {
    id: prefix + tool.id,
    name: simToolName(tool, block?.manifest.name),
    description: withPrefixedIds(tool.description, ids, prefix),
    version: '1.0.0',
    params,
    outputs: outputsOf(tool, blocks),
    request: { url: 'flowblocks://direct-execution', method: 'POST', headers: () => ({}) },
    async directExecution(values, signal) {
      const startTime = new Date();
      const call = callOptions(options.execute, signal);
      const result = await executeTool(tool, withSimDefaults(coerceParams(tool, values), simDefaults), transport ? { ...call, transport } : call);
      const endTime = new Date();
      const timing = { startTime: startTime.toISOString(), endTime: endTime.toISOString(), duration: endTime.getTime() - startTime.getTime() };
      if (result.success) return { success: true, output: outputRecord(result), statusCode: result.meta.status, timing };
      // Sim shows `error` as text and keeps `output` beside it: the code and issues stay readable there.
      const { code, message, status, issues, retryable } = result.error;
      return {
        success: false,
        output: { error: { code, message, status, retryable, issues: issues ?? [] } },
        error: errorLine(result.error),
        statusCode: status,
        timing,
      };
    },
  };
}

/** Sim's defaults under the call's values (`coerceParams` has dropped empty ones): a param left unset takes Sim's. */
function withSimDefaults(values: Record<string, unknown>, defaults: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged = { ...values };
  for (const [name, value] of Object.entries(defaults)) merged[name] ??= value;
  return merged;
}

function outputsOf(tool: AnyTool, blocks: Block[]): SimToolConfig['outputs'] {
  const block = blocks.find((b) => b.tools.includes(tool));
  const op = block && Object.entries(block.manifest.tools.byOperation).find(([, id]) => id === tool.id)?.[0];
  const outputs = op ? block.manifest.outputs[op] : undefined;
  if (!outputs) return undefined;
  return Object.fromEntries(
    Object.entries(outputs).map(([name, o]) => [name, { type: o.type, ...(o.description ? { description: o.description } : {}), ...(o.optional ? { optional: true } : {}) }]),
  );
}

/** Every adapted tool, keyed by its prefixed id, for Sim's `tools` map. */
export function toSimTools(options: SimToolOptions = {}): Record<string, SimToolConfig> {
  const tools: Record<string, SimToolConfig> = {};
  for (const block of blocksOf(options)) {
    for (const tool of block.tools) {
      const config = toSimTool(tool, options);
      tools[config.id] = config;
    }
  }
  return tools;
}

/** A block as Sim's `BlockConfig`: its fields as sub-blocks, its operations as tools. */
export function toSimBlock<E, I extends string = string, M extends string = never>(block: Block, options: SimBlockOptions<E, I, M>): SimBlockConfig<E, I, M> {
  return toSimBlockConfig(block.manifest, options);
}

/** A block's `BlockMeta`, for Sim's `BLOCK_META_REGISTRY`. */
export function toSimBlockMeta(block: Block): SimBlockMeta {
  return toSimBlockMetaOf(block.manifest);
}

/**
 * Every block, its `BlockMeta` and every tool, for `BLOCK_REGISTRY`, `BLOCK_META_REGISTRY` and
 * `tools`. Server side: the editor's `BLOCK_REGISTRY` takes its blocks from `flowblocks/sim/blocks`,
 * which loads no tool.
 */
export function toSimRegistry<E, I extends string = string, M extends string = never>(
  options: SimRegistryOptions<E, I, M>,
): { blocks: Record<string, SimBlockConfig<E, I, M>>; meta: Record<string, SimBlockMeta>; tools: Record<string, SimToolConfig> } {
  return { ...toSimBlockMaps(blocksOf(options).map((block) => block.manifest), options), tools: toSimTools(options) };
}
