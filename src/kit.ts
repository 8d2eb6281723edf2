/**
 * Everything a tool file (`tools/<service>/*.ts`) takes from the harness, and nothing else:
 * tools import this module only, never the harness's files one by one. It is the authors'
 * side of the package; `src/index.ts` is the consumers' side (running tools, blocks, schemas).
 */
export { defineTool } from './harness/define-tool.js';
export { defineConnection, defineService, type Connection, type ConnectionSpec, type Service, type ServiceCall, type ServiceDefinition, type BlockOptions } from './harness/service.js';
export { secretParam, userOnlyParam, uiParam } from './harness/fields.js';
export { pathIdParam, pathSegment } from './harness/path-segment.js';
export { customApiCall, type CustomCallSpec } from './harness/custom-call.js';
export { ownValue } from './harness/dictionary.js';
export { failure, ToolFailure, ToolCallError } from './harness/errors.js';
export { pollJob, type PollSchedule } from './harness/poll.js';
export { backoffMs, retrySettings } from './harness/retry.js';
export { sleep } from './harness/sleep.js';
export { Redactor } from './harness/redact.js';
export { createCallState, sendRequest } from './harness/send.js';
export { runTool, zodIssues, parseWire } from './harness/execute.js';
export { paginate } from './harness/paginate.js';
export { forEachConcurrent } from './harness/for-each-concurrent.js';
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
