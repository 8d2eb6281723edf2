import type { AnyTool } from '../../harness/types.js';
import { isQueryTool } from './shape-result.js';

/** What calling the tool does, in the words a model reads before choosing it. */
function effect(tool: AnyTool): string {
  const { readOnly, destructive, idempotent } = tool.annotations;
  if (readOnly) return 'Read-only.';
  const parts = [destructive ? 'Destructive: changes or removes existing data.' : 'Writes data.'];
  parts.push(idempotent ? 'Safe to repeat with the same arguments.' : 'Not idempotent: a repeat acts again.');
  return parts.join(' ');
}

/**
 * A tool's description for a model: what it does, the scopes its credential needs (the
 * credential itself is configured by the user, never passed by the model), its effect,
 * and how results are bounded.
 */
export function agentDescription(tool: AnyTool, bounds: { maxItems: number; maxRows: number }): string {
  const scopes = tool.scopes.length
    ? `Token scopes: ${tool.scopes.join(', ')} (the credential is configured by the user).`
    : 'Needs the service API key, configured by the user (no scopes).';
  const lines = [tool.description, `${effect(tool)} ${scopes}`];
  if (tool.pagination) {
    lines.push(`Returns at most ${bounds.maxItems} items per call; pass the returned next cursor as ${tool.pagination.cursorParam} to continue.`);
  }
  if (isQueryTool(tool)) {
    lines.push(`Returns at most ${bounds.maxRows} rows; the result says how many there were. Prefer aggregates and LIMIT.`);
  }
  return lines.join('\n');
}
