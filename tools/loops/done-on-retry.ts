import { ToolFailure, type ToolContext } from '../../src/kit.js';

/**
 * Runs the tool's one call. When a retry of that call meets `status` — the answer the
 * service gives to a repeat of work already done (409 for a used Idempotency-Key, 404 for
 * a deleted contact) — an earlier attempt did the work, whose answer was lost: that is a
 * success, reported with `output` and a note in `meta.notes`. On the first attempt the
 * same status is a real failure.
 */
export async function doneOnRetry<P, O>(
  ctx: ToolContext<P, O>,
  params: P,
  rule: { status: number; output: O; note: string },
): Promise<O> {
  try {
    return await ctx.call(params);
  } catch (error) {
    if (error instanceof ToolFailure && error.error.status === rule.status && (error.attempt ?? 1) > 1) {
      ctx.note(rule.note);
      return rule.output;
    }
    throw error;
  }
}
