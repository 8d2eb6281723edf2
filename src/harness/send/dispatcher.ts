import type { Agent, Dispatcher } from 'undici';
import { undici } from './undici.js';

let shared: Agent | undefined;

/**
 * The one keep-alive Agent every call shares unless `options.dispatcher` is given.
 * Created on first use, so importing the package opens nothing.
 */
export function sharedDispatcher(): Dispatcher {
  shared ??= new (undici().Agent)({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 128 });
  return shared;
}

/** Closes the shared Agent (for programs that want to exit without waiting for idle sockets). */
export async function closeSharedDispatcher(): Promise<void> {
  const agent = shared;
  shared = undefined;
  await agent?.close();
}
