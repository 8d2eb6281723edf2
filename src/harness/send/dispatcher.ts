import type { Agent, Dispatcher } from 'undici';
import { internalFailure } from '../errors.js';
import type { DispatcherLike } from '../types.js';
import { loadUndici } from './undici.js';

let shared: Agent | undefined;
/** A dispatcher put in the shared Agent's place (the testing kit's `mock.install()`); undefined when none is. */
let installed: DispatcherLike | undefined;

/** What a call that names no `dispatcher` sends through when one is installed (else the shared Agent). */
export function installedDispatcher(): DispatcherLike | undefined {
  return installed;
}

/**
 * Puts `dispatcher` in the shared Agent's place for every call of this package that names none
 * (`undefined`: back to the Agent); returns the one it replaced. Only our calls: undici's
 * global dispatcher, `fetch` and other libraries are left as they were.
 */
export function installDefaultDispatcher(dispatcher: DispatcherLike | undefined): DispatcherLike | undefined {
  const replaced = installed;
  installed = dispatcher;
  return replaced;
}

/**
 * The one keep-alive Agent every call shares unless `options.dispatcher` is given, once it is
 * made: undefined before the first request that needs it (see `sharedDispatcher`).
 */
export function readySharedDispatcher(): Dispatcher | undefined {
  return shared;
}

/**
 * The shared keep-alive Agent, made on first use (undici is loaded then), so importing the
 * package opens nothing. undici that cannot be loaded is an `internal` failure, never retried:
 * no later attempt of the call would find it.
 */
export async function sharedDispatcher(): Promise<Dispatcher> {
  if (shared) return shared;
  try {
    const undici = await loadUndici();
    shared ??= new undici.Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 128 });
  } catch (error) {
    throw internalFailure('loading undici, the HTTP client', error);
  }
  return shared;
}

/** Closes the shared Agent (for programs that want to exit without waiting for idle sockets). */
export async function closeSharedDispatcher(): Promise<void> {
  const agent = shared;
  shared = undefined;
  await agent?.close();
}
