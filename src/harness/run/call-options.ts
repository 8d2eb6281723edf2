import { randomUUID } from 'node:crypto';
import type { DispatcherLike, ExecuteOptions, HarnessEvent, PacerLike, RetryOptions, Transport } from '../types.js';

/**
 * The options a tool sees when the caller gave no idempotency key: the caller's options field
 * by field, and a key made on first read and kept for the whole call (every retry sends the
 * same one). A class with the key as a prototype getter, not an object literal with a spread
 * and a getter, which cost far more per call (docs/benchmarks.md).
 */
export class CallOptions implements ExecuteOptions {
  readonly endpoints?: Record<string, string>;
  readonly dispatcher?: DispatcherLike;
  readonly transport?: Transport;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly retry?: false | RetryOptions;
  readonly pacer?: PacerLike | false;
  readonly logger?: (event: HarnessEvent) => void;
  readonly secrets?: readonly string[];
  readonly binaryAnswers?: 'searched' | 'refused';
  private key?: string;

  constructor(options: ExecuteOptions) {
    this.endpoints = options.endpoints;
    this.dispatcher = options.dispatcher;
    this.transport = options.transport;
    this.signal = options.signal;
    this.timeoutMs = options.timeoutMs;
    this.maxResponseBytes = options.maxResponseBytes;
    this.retry = options.retry;
    this.pacer = options.pacer;
    this.logger = options.logger;
    this.secrets = options.secrets;
    this.binaryAnswers = options.binaryAnswers;
  }

  get idempotencyKey(): string {
    return (this.key ??= randomUUID());
  }
}

// Every option must be carried: a field added to ExecuteOptions and not here fails to compile.
type Missing = Exclude<keyof ExecuteOptions, keyof CallOptions>;
const everyOptionCarried: [Missing] extends [never] ? true : Missing = true;
void everyOptionCarried;

/** The caller's options when they carry a key; else the same options with a lazily made one. */
export function withIdempotencyKey(options: ExecuteOptions): ExecuteOptions {
  return options.idempotencyKey !== undefined ? options : new CallOptions(options);
}
