import { fail } from './errors.js';
import type { LoopsState, PropertyType } from './state.js';

const TYPES: readonly PropertyType[] = ['string', 'number', 'boolean', 'date'];
const RESERVED = ['id', 'listId', 'softDeleteAt', 'teamId', 'updatedAt'];

/** The default properties every team has; they cannot be created or deleted. */
export const DEFAULT_PROPERTIES: { key: string; label: string; type: PropertyType }[] = [
  { key: 'firstName', label: 'First name', type: 'string' },
  { key: 'lastName', label: 'Last name', type: 'string' },
  { key: 'email', label: 'Email', type: 'string' },
  { key: 'notes', label: 'Notes', type: 'string' },
  { key: 'source', label: 'Source', type: 'string' },
  { key: 'userGroup', label: 'User group', type: 'string' },
  { key: 'userId', label: 'User ID', type: 'string' },
  { key: 'subscribed', label: 'Subscribed', type: 'boolean' },
  { key: 'createdAt', label: 'Created at', type: 'date' },
];

export function listProperties(state: LoopsState, list: string | null) {
  if (list !== null && list !== 'all' && list !== 'custom') throw fail(400, 'list must be all or custom.');
  return list === 'custom' ? state.customProperties : [...DEFAULT_PROPERTIES, ...state.customProperties];
}

function labelOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function createProperty(state: LoopsState, body: Record<string, unknown>) {
  const { name, type } = body;
  if (typeof name !== 'string' || !name) throw fail(400, 'name is required.');
  if (typeof type !== 'string' || !TYPES.includes(type as PropertyType)) throw fail(400, `type must be one of ${TYPES.join(', ')}.`);
  if (RESERVED.includes(name)) throw fail(400, `${name} is a reserved property name.`);
  if (!/^[a-z][A-Za-z0-9]*$/.test(name)) throw fail(400, 'Property names must be in camelCase.');
  if (listProperties(state, 'all').some((p) => p.key === name)) throw fail(400, 'Property already exists.');
  state.customProperties.push({ key: name, label: labelOf(name), type: type as PropertyType });
  return { success: true };
}
