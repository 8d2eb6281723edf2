import { getService, getTool } from '../registry.js';
import type { Service } from '../harness/define/service.js';
import type { AnyTool } from '../harness/types.js';
import loops from './fixtures/loops.json' with { type: 'json' };
import tinybird from './fixtures/tinybird.json' with { type: 'json' };
import workflow from './fixtures/workflow.json' with { type: 'json' };
import { parseFixtureFile, type FailureName, type FixtureAnswer, type FixtureFile, type ToolFixtures } from './fixture-file.js';
import { routesOf, type Route } from './routes.js';

/** One tool as the mock knows it: the tool, its service, its fixtures and its service's failures. */
export interface CatalogEntry {
  tool: AnyTool;
  service: Service;
  fixtures: ToolFixtures;
  serviceFailures: Partial<Record<FailureName, FixtureAnswer>>;
}

export interface Catalog {
  entries: Map<string, CatalogEntry>;
  /** Built on the first request (composed tools are run to see their other calls). */
  routes(): Promise<Route[]>;
}

let builtin: Catalog | undefined;

/** The package's own fixture files, checked, by service. */
export function builtinFixtureFiles(): FixtureFile[] {
  return [parseFixtureFile(tinybird, 'tinybird.json'), parseFixtureFile(loops, 'loops.json'), parseFixtureFile(workflow, 'workflow.json')];
}

/** The tool a fixture file names; an id no registered tool has is an error naming it. */
export function knownTool(id: string, file: string): { tool: AnyTool; service: Service } {
  const tool = getTool(id);
  const service = tool ? getService(tool.service) : undefined;
  if (!tool || !service) throw new Error(`fixture file ${file} names a tool no service has: ${JSON.stringify(id)}`);
  return { tool, service };
}

/** Built-in fixtures of every tool and the routes made from their example params, built once. */
export function builtinCatalog(): Catalog {
  if (builtin) return builtin;
  const entries = new Map<string, CatalogEntry>();
  for (const file of builtinFixtureFiles()) {
    const name = `${file.service ?? 'unnamed'}.json`;
    for (const [id, fixtures] of Object.entries(file.tools)) {
      const { tool, service } = knownTool(id, name);
      entries.set(id, { tool, service, fixtures, serviceFailures: file.failures ?? {} });
    }
  }
  let routes: Promise<Route[]> | undefined;
  const buildRoutes = async () => {
    const all: Route[] = [];
    for (const { tool, service, fixtures } of entries.values()) {
      for (const example of [...(fixtures.params ? [fixtures.params] : []), ...(fixtures.moreParams ?? [])]) {
        all.push(...(await routesOf(tool, service.connection, example)));
      }
    }
    return all;
  };
  builtin = { entries, routes: () => (routes ??= buildRoutes()) };
  return builtin;
}
