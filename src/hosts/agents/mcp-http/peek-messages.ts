/**
 * What a request's JSON-RPC messages ask, read before the SDK's server gets them: how many
 * tool calls (each takes a place under the concurrency bounds) and whether any asked for
 * progress (which needs an event stream; otherwise the answer is one JSON body). A malformed
 * message counts as nothing here.
 */
export function peekMessages(body: unknown): { calls: number; progress: boolean } {
  let calls = 0;
  let progress = false;
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!message || typeof message !== 'object') continue;
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { _meta?: { progressToken?: unknown } } };
    if (method !== 'tools/call' || id === undefined || id === null) continue;
    calls += 1;
    if (params?._meta?.progressToken !== undefined) progress = true;
  }
  return { calls, progress };
}
