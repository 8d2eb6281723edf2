import { executeTool } from '../../index.js';
import { dictionaryOf } from '../../harness/dictionary.js';
import { paramNames } from '../../harness/define/fields.js';
import { paramIssues, unknownParamIssues } from '../../harness/run/execute.js';
import type { AnyTool, HarnessEvent, ToolError, ToolErrorCode } from '../../harness/types.js';
import { mergeLlmParams } from '../../schema.js';
import { checkAgentOptions } from './check-options.js';
import { errorLine, issueText } from '../shared/params.js';
import { configuredSecrets, DEFAULT_MAX_ITEMS, DEFAULT_MAX_ROWS, selectTools, userSide, type AgentToolOptions, type ServiceSettings } from './options.js';
import { decodePageCursor } from './page-cursor.js';
import { scrubSecrets } from './scrub.js';
import { isQueryTool, shapeListPage, shapeQueryRows, type ShapedOutput, type Truncation } from './shape-result.js';
import { strictView } from './strict-schema.js';
import { boundResult, DEFAULT_MAX_RESULT_BYTES } from './bound-result.js';

/** What a model gets back from a call: the tool's output (bounded), or a readable error. */
export type AgentToolResult =
  | { ok: true; output: unknown; truncated?: Truncation; notes?: string[] }
  | { ok: false; error: AgentToolError };

export interface AgentToolError {
  code: ToolErrorCode;
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  issues?: { path: string; message: string }[];
}

export interface ToolCallOptions {
  signal?: AbortSignal;
  /** The arguments follow the strict schema (default: the executor's `strict` option). */
  strict?: boolean;
  /**
   * This call's user side for the services it names, in place of the executor's (a remote
   * MCP server's per-request credentials). Its secrets are masked too, besides every configured one.
   */
  settings?: Record<string, ServiceSettings>;
  /** Receives this call's harness events (after the executor's own `execute.logger`): a server's progress. */
  logger?: (event: HarnessEvent) => void;
}

export interface ToolExecutor {
  /** The tools offered, after the services and read-only filters. */
  readonly tools: readonly AnyTool[];
  getTool(name: string): AnyTool | undefined;
  /**
   * Runs a model's call: `args` as an object or as JSON text. Values for `user-only` params
   * are dropped and the configured ones used; strict-mode nulls become absent; the result
   * is bounded and scrubbed of secrets. Never throws for a bad call: the result says why.
   */
  execute(name: string, args: unknown, call?: ToolCallOptions): Promise<AgentToolResult>;
}

const failure = (code: ToolErrorCode, message: string, issues?: AgentToolError['issues']): AgentToolResult => ({
  ok: false,
  error: { code, message, retryable: false, ...(issues ? { issues } : {}) },
});

function parseArgs(args: unknown): Record<string, unknown> | string {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = value.trim() === '' ? {} : JSON.parse(value);
    } catch {
      return 'arguments are not valid JSON';
    }
  }
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return 'arguments must be a JSON object';
  // A model names the arguments: kept in a dictionary, `__proto__` is an argument, not a prototype.
  return dictionaryOf(value as Record<string, unknown>);
}

/** A tool error as a model should read it: a missing credential is the user's to fix, not the model's. */
function modelError(tool: AnyTool, error: ToolError, given: Record<string, unknown>): AgentToolError {
  const userOnly = new Set(paramNames(tool.params, (meta) => meta.visibility === 'user-only'));
  const issues = error.issues?.map((issue) => {
    const param = issue.path.split('.')[0] ?? '';
    if (!userOnly.has(param)) return issue;
    // Set but refused is the user's value to fix; absent is the user's value to set. Neither is the model's.
    return given[param] === undefined
      ? { path: issue.path, message: `not configured: the user must set ${tool.service} ${issue.path} in the tool settings; do not pass it` }
      : { path: issue.path, message: `invalid (${issue.message}): the user must fix ${tool.service} ${issue.path} in the tool settings; do not pass it` };
  });
  // The issues, rewritten for the model, are the whole message: the harness's one names the user's params as the model's to fix.
  const message = issues?.length ? errorLine({ code: error.code, message: issues.map(issueText).join('; '), retryable: error.retryable }) : error.message;
  return {
    code: error.code,
    message,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(issues ? { issues } : {}),
  };
}

/** Both loggers, the executor's first. */
function withLogger(first: ((event: HarnessEvent) => void) | undefined, second: (event: HarnessEvent) => void) {
  return first ? (event: HarnessEvent) => (first(event), second(event)) : second;
}

export function createToolExecutor(options: AgentToolOptions = {}): ToolExecutor {
  // A mistyped service or setting would offer no tools, or drop a credential, without a word.
  checkAgentOptions(options);
  const tools = selectTools(options);
  const byId = new Map(tools.map((tool) => [tool.id, tool]));
  const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  // Every service's secrets, not only the called one's: masked in each result and error.
  const secrets = configuredSecrets(options.settings);
  const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const bounded = (result: AgentToolResult) => boundResult(result, maxResultBytes);
  const factsByTool = new Map<AnyTool, { known: Set<string>; modelParams: string[] }>();
  const facts = (tool: AnyTool) => {
    let found = factsByTool.get(tool);
    if (!found) {
      found = { known: new Set(paramNames(tool.params, () => true)), modelParams: paramNames(tool.params, (meta) => meta.visibility !== 'user-only') };
      factsByTool.set(tool, found);
    }
    return found;
  };

  async function execute(name: string, rawArgs: unknown, call: ToolCallOptions = {}): Promise<AgentToolResult> {
    const tool = byId.get(name);
    if (!tool) return bounded(failure('unknown_tool', `no tool ${name} here; the tools are ${tools.map((t) => t.id).join(', ')}`));
    const parsed = parseArgs(rawArgs);
    if (typeof parsed === 'string') return failure('invalid_params', `invalid_params: ${parsed}`, [{ path: '', message: parsed }]);
    const args = (call.strict ?? options.strict) ? (strictView(tool).decode(parsed) as Record<string, unknown>) : parsed;

    // A cursor we made for a page handed back in parts: fetch that page again, resume inside it.
    const cursorParam = tool.pagination?.cursorParam;
    const position = cursorParam ? decodePageCursor(args[cursorParam]) : undefined;
    if (cursorParam && position) {
      if (position.cursor === undefined) delete args[cursorParam];
      else args[cursorParam] = position.cursor;
    }

    const own = call.settings && Object.hasOwn(call.settings, tool.service) ? call.settings[tool.service] : undefined;
    const settings = own ?? options.settings?.[tool.service];
    const user = userSide(tool, settings);
    const callSecrets = call.settings ? [...secrets, ...configuredSecrets(call.settings)] : secrets;
    const params = mergeLlmParams(tool, args, user.params);
    // A key the tool has no param for is refused here, where the names a model may set are known:
    // its "did you mean" never points at a credential or another param the model cannot set.
    if (unknownParamIssues(facts(tool).known, args).length) {
      const issues = paramIssues(tool, params, facts(tool).modelParams);
      return bounded(scrubSecrets({ ok: false, error: modelError(tool, { code: 'invalid_params', message: 'invalid params', retryable: false, issues }, user.params) }, callSecrets));
    }
    const result = await executeTool(tool, params, {
      ...options.execute,
      // Bytes cannot be masked, and compressed ones can hide a secret no byte search finds.
      binaryAnswers: 'refused',
      secrets: [...(options.execute?.secrets ?? []), ...callSecrets],
      ...(user.endpoints ? { endpoints: user.endpoints } : {}),
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.logger ? { logger: withLogger(options.execute?.logger, call.logger) } : {}),
    });
    if (!result.success) return bounded(scrubSecrets({ ok: false, error: modelError(tool, result.error, user.params) }, callSecrets));

    let shaped: ShapedOutput = { output: result.output, notes: [] };
    if (tool.pagination) shaped = shapeListPage(tool, result.output, position, maxItems);
    else if (isQueryTool(tool)) shaped = shapeQueryRows(result.output, maxRows);
    const notes = [...(result.meta.notes ?? []), ...shaped.notes];
    // Masked first, then cut: a cut never halves a secret the mask would have matched.
    return bounded(
      scrubSecrets(
        {
          ok: true,
          output: shaped.output,
          ...(shaped.truncated ? { truncated: shaped.truncated } : {}),
          ...(notes.length ? { notes } : {}),
        },
        callSecrets,
      ),
    );
  }

  return { tools, getTool: (name) => byId.get(name), execute };
}
