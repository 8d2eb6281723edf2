/**
 * Our tools' texts as Sim's model and traces read them. In Sim, `loops_send_event` is Sim's own
 * tool: a description that names one of ours by its bare id would send the model to Sim's, so
 * the ids are given with the prefix they have there; and a tool's name says its service,
 * since Sim's traces show the name alone ("Send event" of which service?).
 */
import type { AnyTool } from '../../harness/types.js';

/** `text` with every whole-word mention of one of `ids` prefixed. Our own texts, so a pattern of our own ids. */
export function withPrefixedIds(text: string, ids: readonly string[], prefix: string): string {
  if (ids.length === 0 || prefix === '') return text;
  // Longest first, so `tinybird_query_pipe` is not read as `tinybird_query` followed by `_pipe`.
  const alternatives = [...ids].sort((a, b) => b.length - a.length).map((id) => id.replace(/[^a-z0-9_]/gi, '\\$&'));
  return text.replace(new RegExp(`(?<![\\w])(${alternatives.join('|')})(?![\\w])`, 'g'), `${prefix}$1`);
}

/** The tool's name with its service's: `Loops: Send event`. */
export function simToolName(tool: AnyTool, serviceName: string | undefined): string {
  return serviceName ? `${serviceName}: ${tool.name}` : tool.name;
}
