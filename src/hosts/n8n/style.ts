/**
 * n8n's house style for node descriptions, as its own lint (`n8n-node lint`, the rules of
 * `eslint-plugin-n8n-nodes-base`) checks it: title-cased names, "ID", boolean descriptions that
 * start with "Whether", one sentence without a final period (several with one), options in
 * alphabetical order. Applied to what the adapter derives, so the blocks' own labels (shared
 * with Sim, the agents and the docs) stay as written.
 */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import { titleCase } from 'title-case';

/** The title case n8n's lint asks for: the same library and version its rule uses. */
export const n8nTitle = (text: string): string => titleCase(text);

/**
 * What an acronym's plural stands for. n8n's action rule keeps a word in capitals (`SQL`) as
 * written, but sentence-cases any other, and its sentence case splits a plural acronym at the
 * case change (`IPs` → `i ps`): the action spells the plural out instead.
 */
const ACRONYM_PLURALS = new Map([
  ['IPs', 'IP addresses'],
  ['IDs', 'identifiers'],
]);

/** Sentence case for an operation's action: words after the first lower-cased unless written in capitals (`SQL`); plural acronyms spelled out. */
export function n8nAction(text: string): string {
  return text
    .split(' ')
    .map((word, i) => ACRONYM_PLURALS.get(word) ?? (i > 0 && /^[A-Z][a-z]+$/.test(word) ? word.toLowerCase() : word))
    .join(' ');
}

/** A description in n8n's style; `boolean` descriptions start with "Whether". */
export function n8nDescription(text: string, kind?: string): string {
  let out = text.trim().replace(/\b(i|I)d(s?)\b/g, (_m, _i: string, s: string) => `ID${s}`);
  if (kind === 'boolean' && !/^whether\b/i.test(out)) out = `Whether to ${out[0]!.toLowerCase()}${out.slice(1)}`;
  out = `${out[0]!.toUpperCase()}${out.slice(1)}`;
  // The rules count sentences by ". " (after taking out "e.g."): one has no final period, several end with one.
  const sentences = out.replace('e.g.', '').split('. ').length;
  if (sentences === 1 && out.endsWith('.')) out = out.slice(0, -1);
  if (sentences === 2 && !out.endsWith('.')) out = `${out}.`;
  return out;
}

type Item = INodeProperties | INodePropertyOptions | INodePropertyCollection;
const label = (item: Item) => ('displayName' in item ? item.displayName : item.name);

/** A property (and what it holds) in n8n's style. */
export function n8nStyled(property: INodeProperties): INodeProperties {
  const out: INodeProperties = { ...property, displayName: n8nTitle(property.displayName) };
  if (out.description !== undefined) {
    out.description = n8nDescription(out.description, out.type);
    // A description that only repeats the name is left out.
    if (out.description.toLowerCase() === out.displayName.toLowerCase()) delete out.description;
  }
  if (/^email$/i.test(out.name) && out.type === 'string' && !out.placeholder) out.placeholder = 'name@email.com';
  if (out.options) {
    const options = out.options.map((option): Item => {
      if ('type' in option) return n8nStyled(option as INodeProperties);
      const styled = { ...option } as INodePropertyOptions;
      if (out.type === 'options' || out.type === 'multiOptions') {
        styled.name = n8nTitle(styled.name);
        if (styled.description) styled.description = n8nDescription(styled.description);
        if (styled.action) styled.action = n8nAction(styled.action);
      }
      return styled;
    });
    out.options = options.sort((a, b) => label(a).localeCompare(label(b))) as INodeProperties['options'];
  }
  return out;
}
