import { ownValue, ToolFailure, type ExecuteOptions } from '../../src/kit.js';

/** The code of Sim's 409 for an `X-Execution-Id` already used (`apps/sim/app/api/workflows/[id]/execute/route.ts`). */
export const EXECUTION_ID_CONFLICT = 'EXECUTION_ID_CONFLICT';

/**
 * The platform honours `X-Execution-Id` (Sim: a used id is refused with 409
 * `EXECUTION_ID_CONFLICT`, whether its run has ended or is still running), so an execute that
 * ends ambiguously (5xx, a time-out, a cut connection) can be sent again with the same id
 * without starting a second run. `flat` is how a Sim deployment reads the body; the spec's
 * platform (`spec`) has no such id, and there a run is never repeated.
 */
export function executionIdsHonoured(p: { inputStyle: 'spec' | 'flat' }): boolean {
  return p.inputStyle === 'flat';
}

/**
 * The execution id of a first attempt that was accepted, when `error` is a retry's 409
 * `EXECUTION_ID_CONFLICT` for the call's own id: its answer was lost, but the workflow ran (or
 * is running) once. On the first attempt the same 409 is the caller's own reused id: a real
 * `conflict`, so undefined (as for every other error).
 */
export function acceptedExecutionId(error: unknown, p: { inputStyle: 'spec' | 'flat' }, options: ExecuteOptions): string | undefined {
  if (!(error instanceof ToolFailure) || error.error.status !== 409 || (error.attempt ?? 1) < 2 || !executionIdsHonoured(p)) return undefined;
  const body = error.response?.body;
  if (typeof body !== 'object' || body === null || ownValue(body, 'code') !== EXECUTION_ID_CONFLICT) return undefined;
  const named = ownValue(body, 'executionId');
  return typeof named === 'string' && named !== '' ? named : options.idempotencyKey;
}

/** What the result's note says of an accepted first attempt: where its result is. */
export function acceptedNote(executionId: string, async: boolean): string {
  const where = async
    ? `The job's id was in the lost answer: find the run with List logs (executionId ${executionId}) once it has started.`
    : `Its result: Get execution (executionId ${executionId}), or List logs (executionId ${executionId}) and Get log for its finalOutput, once the run has ended.`;
  return `A retry of this execute got 409 ${EXECUTION_ID_CONFLICT} for its own X-Execution-Id ${executionId}: the first attempt was accepted and its answer lost, so the workflow ran, or is running, once and was not started again. ${where}`;
}
