import { ToolFailure } from '../../src/harness/errors.js';
import type { ToolContext } from '../../src/harness/types.js';

/**
 * Runs the tool's one call. When a retry of that call meets `status` — the answer the
 * service gives to a repeat of work already done (409 for a used Idempotency-Key, 404 for
 * a deleted contact) — an earlier attempt did the work, whose answer was lost: that is a
 * success, reported with `output` and a note in `meta.notes`. On the first attempt the
 * same status is a real failure.
 */
export async function doneOnRetry<P, O>(
  ctx: ToolContext<P>,
  params: P,
  rule: { status: number; output: O; note: string },
): Promise<O> {
  try {
    return (await ctx.call(params)) as O;
  } catch (error) {
    if (error instanceof ToolFailure && error.error.status === rule.status && (error.attempt ?? 1) > 1) {
      ctx.note(rule.note);
      return rule.output;
    }
    throw error;
  }
}
