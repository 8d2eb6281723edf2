/**
 * What ends an attempt early, for both ways of sending (undici's dispatch and a host's
 * transport): its time limit, the caller's abort, a body over the cap. One rule, one place.
 */
import { aborted, bodyTooLarge, DEFAULT_MAX_RESPONSE_BYTES, timedOut, type Fault } from './answer.js';
import type { ToolFailure } from '../errors.js';
import { onAbort } from './on-abort.js';
import { MAX_TIMER_MS } from './sleep.js';
import { startTimer, type Timer } from './timers.js';

export interface GuardSettings {
  timeoutMs: number;
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

export type StopReason = Fault | ToolFailure;

export class AttemptGuard {
  /** Why the attempt was stopped: the first reason only (an abort its own time-out set off is still a time-out). */
  reason?: StopReason;
  /** Bytes of the body counted so far. */
  size = 0;
  private readonly maxBytes: number;
  private readonly timer: Timer;
  private readonly stopListening?: () => void;

  constructor(
    settings: GuardSettings,
    private readonly onStop: (reason: StopReason) => void,
  ) {
    this.maxBytes = settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    // A limit past a timer's range would fire after 1 ms instead.
    this.timer = startTimer(() => this.stop(timedOut(settings.timeoutMs)), Math.min(settings.timeoutMs, MAX_TIMER_MS));
    if (settings.signal) this.stopListening = onAbort(settings.signal, () => this.stop(aborted()));
  }

  /** A response's declared length over the cap stops it before any byte is read; an absent or unreadable one is NaN, never over. */
  declared(contentLength: string | undefined): void {
    if (Number(contentLength) > this.maxBytes) this.stop(bodyTooLarge(this.maxBytes));
  }

  /** Counts a chunk of the body: false, and stopped, once the body passes the cap. */
  received(bytes: number): boolean {
    this.size += bytes;
    if (this.size <= this.maxBytes) return true;
    this.stop(bodyTooLarge(this.maxBytes));
    return false;
  }

  /** Ends the attempt for `reason` unless it was already stopped. */
  stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.release();
    this.onStop(reason);
  }

  /** The attempt is over: its timer and its abort listener go. */
  release(): void {
    this.timer.cancel();
    this.stopListening?.();
  }
}
