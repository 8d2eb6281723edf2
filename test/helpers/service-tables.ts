/**
 * Which tools a per-service test table must cover, derived from the registry. A table (the
 * fixtures, the reliability cases, the sandbox contract) covers every tool of each registered
 * service it holds anything for, and asks nothing of a service it holds nothing for: a new
 * service touches only the places docs/architecture.md names, and its fixtures, cases and
 * emulator are work of their own. A new tool of a covered service still fails the table.
 */
import { getTool, listTools } from '../../src/registry.js';

/** The ids of every registered tool of these services, sorted. */
export function toolIdsOf(services: Iterable<string>): string[] {
  const wanted = new Set(services);
  return listTools()
    .filter((tool) => wanted.has(tool.service))
    .map((tool) => tool.id)
    .sort();
}

/** The services of these tool ids; an id no registered tool has is an error naming it. */
export function servicesOf(toolIds: Iterable<string>): Set<string> {
  const services = new Set<string>();
  for (const id of toolIds) {
    const tool = getTool(id);
    if (!tool) throw new Error(`a test table names a tool no service has: ${id}`);
    services.add(tool.service);
  }
  return services;
}

/** What a table holding cases for `toolIds` must hold: every tool of their services, sorted. */
export const mustCover = (toolIds: Iterable<string>): string[] => toolIdsOf(servicesOf(toolIds));
