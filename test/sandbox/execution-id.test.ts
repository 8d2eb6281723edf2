import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';

/** The sandbox as a Sim deployment (flat bodies), for workflow_execute's retries with the same X-Execution-Id. */
let flat: Sandbox;
beforeAll(async () => {
  flat = await startSandbox({ workflow: { inputStyle: 'flat', jobStepMs: 60 } });
});
afterAll(async () => {
  await flat?.close();
});

describe('workflow_execute against the sandbox as Sim', () => {
  it('workflow_execute (flat) against it: the first answer lost on the way back, the retry meets the used id: accepted, run once', async () => {
    // The first request reaches the platform and runs; its answer is cut before it arrives.
    const sent: string[] = [];
    const dispatcher = new Agent().compose((dispatch) => (opts, handler) => {
      const headers = Object.entries(opts.headers as Record<string, string>);
      sent.push(String(headers.find(([name]) => name.toLowerCase() === 'x-execution-id')?.[1]));
      if (sent.length > 1) return dispatch(opts, handler);
      return dispatch(opts, {
        onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
        onResponseEnd: (controller) => handler.onResponseError?.(controller, Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
        onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      });
    });
    try {
      const params = { base_url: flat.urls.workflow, apiKey: flat.credentials.workflow.apiKey, workflowId: 'wf_daily_report', inputs: { email: 'once@example.com' }, inputStyle: 'flat' as const };
      const result = await executeTool('workflow_execute', params, { dispatcher, idempotencyKey: 'exec-sandbox-1', retry: { baseDelayMs: 1, maxDelayMs: 4 } });
      expect(sent).toEqual(['exec-sandbox-1', 'exec-sandbox-1']);
      expect(result).toMatchObject({ success: true, output: { success: true, status: 'accepted', executionId: 'exec-sandbox-1' }, meta: { status: 409, attempts: 2 } });
      const logs = await executeTool('workflow_list_logs', { base_url: flat.urls.workflow, apiKey: flat.credentials.workflow.apiKey, workspaceId: 'ws_sandbox', executionId: 'exec-sandbox-1' }, { dispatcher });
      expect(logs.success && logs.output.data.map((entry) => [entry.executionId, entry.trigger])).toEqual([['exec-sandbox-1', 'api']]);
    } finally {
      await dispatcher.close();
    }
  });
});
