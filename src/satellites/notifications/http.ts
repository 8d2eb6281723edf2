import { request, type Dispatcher } from 'undici';
import { sharedDispatcher } from '../../harness/send/dispatcher.js';
import type { DispatcherLike } from '../../harness/types.js';
import type { DeliveryOutcome } from './delivery-retry.js';

/**
 * One POST with a time limit, reduced to what the retry rule needs. The response body is
 * drained and ignored: any 2xx acknowledges. Error text names no URL (it may hold a token).
 */
export async function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { dispatcher: DispatcherLike | undefined; timeoutMs: number },
): Promise<DeliveryOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      // Absent: the harness's shared keep-alive Agent, as the e-mail channel's calls use.
      // undici 7's and 8's dispatchers both take request(); typed here with 7's (DispatcherLike says why).
      dispatcher: (options.dispatcher as Dispatcher | undefined) ?? (await sharedDispatcher()),
      signal: controller.signal,
    });
    await res.body.dump();
    return { kind: 'status', status: res.statusCode };
  } catch (cause) {
    if (controller.signal.aborted) return { kind: 'timeout', afterMs: options.timeoutMs };
    const code = (cause as { code?: string }).code;
    return { kind: 'network', message: `connection failed${code ? ` (${code})` : ''}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The part of a URL that is safe to log: Slack-style webhook URLs carry their secret in the path. */
export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid url)';
  }
}
