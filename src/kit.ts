/**
 * Everything a tool file (`tools/<service>/*.ts`) takes from the harness, and nothing else:
 * tools import this module only, never the harness's files one by one. It is the authors'
 * side of the package; `src/index.ts` is the consumers' side (running tools, blocks, schemas).
 */
export { defineTool } from './harness/define/define-tool.js';
export { defineConnection, defineService, type Connection, type ConnectionSpec, type Service, type ServiceCall, type ServiceDefinition, type BlockOptions } from './harness/define/service.js';
export { secretParam, userOnlyParam, uiParam } from './harness/define/fields.js';
export { pathIdParam, pathSegment } from './harness/define/path-segment.js';
export { customApiCall, type CustomCallSpec } from './harness/define/custom-call.js';
export { ownValue } from './harness/dictionary.js';
export { failure, ToolFailure, ToolCallError } from './harness/errors.js';
export { pollJob, type PollSchedule } from './harness/define/poll.js';
export { backoffMs, retrySettings } from './harness/send/retry.js';
export { sleep } from './harness/send/sleep.js';
export { Redactor } from './harness/mask/redact.js';
export { createCallState, sendRequest } from './harness/send/send.js';
export { runTool, zodIssues, parseWire } from './harness/run/execute.js';
export { paginate } from './harness/define/paginate.js';
export { forEachConcurrent } from './harness/run/for-each-concurrent.js';
export { lineIcon } from './blocks/line-icon.js';
export type {
  ExecuteOptions,
  HttpRequestSpec,
  HttpResponse,
  RateLimitInfo,
  RetryOptions,
  ToolContext,
  ToolError,
} from './harness/types.js';
