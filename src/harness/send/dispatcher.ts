import type { Agent, Dispatcher } from 'undici';
import { undici } from './undici.js';

let shared: Agent | undefined;
/** A dispatcher put in the shared Agent's place (the testing kit's `mock.install()`); undefined when none is. */
let installed: Dispatcher | undefined;

/** What a call that names no `dispatcher` sends through: the installed one, else the shared Agent. */
export function defaultDispatcher(): Dispatcher {
  return installed ?? sharedDispatcher();
}

/**
 * Puts `dispatcher` in the shared Agent's place for every call of this package that names none
 * (`undefined`: back to the Agent); returns the one it replaced. Only our calls: undici's
 * global dispatcher, `fetch` and other libraries are left as they were.
 */
export function installDefaultDispatcher(dispatcher: Dispatcher | undefined): Dispatcher | undefined {
  const replaced = installed;
  installed = dispatcher;
  return replaced;
}

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
