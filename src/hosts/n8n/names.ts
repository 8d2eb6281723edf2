/**
 * Names as n8n's own nodes spell them: parameter names and operation values in camel case,
 * and an operation's name without its resource's words, a list as "Get Many" (Contact →
 * Create, Get Many). The blocks' own ids and labels, shared with Sim, the agents and the
 * docs, stay as written; these are read from them.
 */

/** A field id or operation id in n8n's camel case (`delete_condition` → `deleteCondition`); camel case stays. */
export const n8nName = (id: string): string => id.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The ways a resource's words appear in a label: as written, and its last word in the plural. */
function resourceForms(resource: string): string[][] {
  const words = resource.toLowerCase().split(/\s+/);
  const last = words.at(-1)!;
  const plural = last.endsWith('y') ? `${last.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(last) ? `${last}es` : `${last}s`;
  return [words, [...words.slice(0, -1), plural]];
}

/** The label's words without the resource's words (`Check contact suppression` → `Check suppression`). */
function withoutResource(label: string, resource: string): string[] {
  const words = label.split(/\s+/);
  const lower = words.map((w) => w.toLowerCase());
  for (const form of resourceForms(resource)) {
    const at = lower.findIndex((_w, i) => form.every((f, j) => lower[i + j] === f));
    if (at < 0) continue;
    const rest = [...words.slice(0, at), ...words.slice(at + form.length)];
    // "Call a pipe endpoint" → "Call an endpoint": the article agrees with the word now after it.
    const article = at - 1;
    if (/^an?$/i.test(rest[article] ?? '') && rest[article + 1]) rest[article] = /^[aeiou]/i.test(rest[article + 1]!) ? 'an' : 'a';
    return rest;
  }
  return words;
}

/** An operation's name under its resource: the resource's words left out, "List" as n8n's "Get Many". */
export function n8nOperationName(label: string, resource: string | undefined): string {
  const words = resource ? withoutResource(label, resource) : label.split(/\s+/);
  if (words[0]?.toLowerCase() === 'list') words.splice(0, 1, 'Get', 'Many');
  return words.join(' ');
}

/** An operation's action (the nodes panel's line): the label, a list as "Get many …" as n8n writes it. */
export const n8nOperationAction = (label: string): string => label.replace(/^List\b/, 'Get many');
