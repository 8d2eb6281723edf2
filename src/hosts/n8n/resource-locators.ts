/**
 * n8n's resource locators: a field whose values a list tool of the same service gives (`lists`
 * on the tool: Tinybird's Data Sources and pipes, Loops' transactional templates) is chosen
 * "From List", searched through that tool (n8n's `listSearch` method), or typed "By Name" / "By ID";
 * a field whose value a page of the service's app names (`foundInUrl`: a workflow's page in Sim's
 * editor) is also taken "By URL", n8n extracting the value with the tool's pattern.
 */
import type { INodeListSearchItems, INodeListSearchResult, INodeProperties } from 'n8n-workflow';
import type { FieldManifest } from '../../blocks/manifest.js';
import type { AnyTool } from '../../harness/types.js';
import { n8nName } from './names.js';
import { recordsShape } from './records.js';

/** The list tool of each param some tool lists, among the node's tools. */
export function listersOf(tools: Iterable<AnyTool>): Map<string, AnyTool> {
  const listers = new Map<string, AnyTool>();
  for (const tool of tools) if (tool.lists && recordsShape(tool)) listers.set(tool.lists.param, tool);
  return listers;
}

/** The `listSearch` method's name for a field (`searchDatasource`). */
export const searchMethodName = (field: FieldManifest): string => {
  const name = n8nName(field.id);
  return `search${name[0]!.toUpperCase()}${name.slice(1)}`;
};

/** The app page that names each param, among the node's tools. */
export function urlFindersOf(tools: Iterable<AnyTool>): Map<string, NonNullable<AnyTool['foundInUrl']>> {
  const finders = new Map<string, NonNullable<AnyTool['foundInUrl']>>();
  for (const tool of tools) if (tool.foundInUrl) finders.set(tool.foundInUrl.param, tool.foundInUrl);
  return finders;
}

/** What a locator offers: the list tool that lists the field's values, the app page that names one. */
export interface LocatorSources {
  lister?: AnyTool;
  url?: NonNullable<AnyTool['foundInUrl']>;
}

/** A field's property as a resource locator: from the list, typed, or taken from the app page's URL. */
export function asLocator(property: INodeProperties, field: FieldManifest, { lister, url }: LocatorSources): INodeProperties {
  const byId = !lister || lister.lists!.value === 'id';
  const modes: NonNullable<INodeProperties['modes']> = [];
  if (lister) {
    modes.push({
      displayName: 'From List',
      name: 'list',
      type: 'list',
      placeholder: `Select a ${field.title}...`,
      typeOptions: { searchListMethod: searchMethodName(field), searchable: true },
    });
  }
  modes.push({
    displayName: byId ? 'By ID' : 'By Name',
    name: byId ? 'id' : 'name',
    type: 'string',
    placeholder: field.placeholder ?? (byId ? 'e.g. cm1a2b3c4d' : 'e.g. events'),
  });
  if (url) {
    modes.push({
      displayName: 'By URL',
      name: 'url',
      type: 'string',
      placeholder: `e.g. ${url.example}`,
      // n8n checks the whole value against a validation pattern (it adds ^ and $): the page's URL, then any path, query or fragment.
      validation: [{ type: 'regex', properties: { regex: `${url.pattern}(?:[/?#].*)?`, errorMessage: `Paste the URL of its page, like ${url.example}` } }],
      extractValue: { type: 'regex', regex: url.pattern },
    });
  }
  return { ...property, type: 'resourceLocator', default: { mode: modes[0]!.name, value: '' }, modes };
}

/** Whether a stored value is a resource locator's in the mode that n8n must extract from (a URL). */
export function isExtractedLocator(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '__rl' in value && (value as { mode?: unknown }).mode === 'url';
}

/** A resource locator's value as n8n stores it (`{ __rl, mode, value }`), or the value as it is. */
export function locatorValue(value: unknown): unknown {
  return typeof value === 'object' && value !== null && '__rl' in value && 'value' in value ? value.value : value;
}

/** One page of a list tool's output as n8n's search results, filtered by what the user typed. */
export function searchResults(lister: AnyTool, output: unknown, filter: string | undefined): INodeListSearchResult {
  const { value, label } = lister.lists!;
  const shape = recordsShape(lister)!;
  const records = ((output as Record<string, unknown>)[shape.field] ?? []) as Record<string, unknown>[];
  const wanted = filter?.trim().toLowerCase();
  const results: INodeListSearchItems[] = [];
  for (const record of records) {
    const id = record[value];
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    const name = String(record[label ?? value] ?? id);
    if (wanted && !name.toLowerCase().includes(wanted) && !String(id).toLowerCase().includes(wanted)) continue;
    results.push({ name, value: String(id) });
  }
  const next = lister.pagination?.nextCursor(output);
  return next ? { results, paginationToken: next } : { results };
}
