import type { Block } from '../../blocks/define-block.js';
import { getService } from '../../registry.js';
import type { Sandbox } from '../sandbox/index.js';
import { datasources, pipes } from '../sandbox/fixtures/tinybird.js';
import { templates } from '../sandbox/fixtures/loops.js';
import { workflows } from '../sandbox/fixtures/workflows.js';

/**
 * What the preview page starts with: editor values per block (base URLs, credentials) and
 * base-URL overrides for services whose tools take no `base_url` (Loops).
 */
export interface PreviewConnection {
  /** Shown in the page's header: where Run sends its calls. */
  label: string;
  /** Field values per block type, keyed by the manifest's field ids. */
  values: Record<string, Record<string, string>>;
  /** `executeTool`'s `endpoints`, e.g. `{ loops: 'http://127.0.0.1:4100/loops/api/v1' }`. */
  endpoints: Record<string, string>;
  /** Values to pick from per block type and field id (the sandbox's Data Sources, pipes, workflows, templates). */
  choices?: Record<string, Record<string, string[]>>;
}

/**
 * Where a service's base URL goes: the field of its base-URL param when its tools take one
 * (Tinybird, Workflow), else `executeTool`'s `endpoints` (Loops). Fills `values` or `endpoints`.
 */
function placeBaseUrl(connection: Pick<PreviewConnection, 'values' | 'endpoints'>, service: string, url: string): void {
  const placed = getService(service)?.connection.placeBaseUrl(url) ?? { endpoints: { [service]: url } };
  if (placed.params) connection.values[service] = { ...connection.values[service], ...placed.params };
  Object.assign(connection.endpoints, placed.endpoints);
}

/** Everything prefilled from a running sandbox: its URLs and its ready demo credentials. */
export function sandboxConnection(sb: Pick<Sandbox, 'urls' | 'credentials'>): PreviewConnection {
  const c = sb.credentials;
  const connection: PreviewConnection = {
    label: `sandbox at ${new URL(sb.urls.tinybird).origin}`,
    // Working examples from the sandbox's own fixtures: a first Run answers with data.
    values: {
      tinybird: {
        token: c.tinybird.adminToken,
        datasource: 'events',
        pipe: 'top_events',
        query: 'SELECT event, count() AS n FROM events GROUP BY event ORDER BY n DESC FORMAT JSON',
        parameters: '{"limit": 5}',
        data: '{"timestamp": "2026-01-01 12:00:00", "event": "page_view", "user_id": "user_001"}',
        delete_condition: "event = 'test'",
      },
      loops: { apiKey: c.loops.apiKey, email: 'ada@example.com', transactionalId: 'tx_welcome', dataVariables: '{"firstName": "Ada", "confirmationUrl": "https://example.com/confirm"}', eventName: 'signup' },
      workflow: { apiKey: c.workflow.apiKey, workspaceId: c.workflow.workspaceId, workflowId: 'wf_signup_pipeline', inputs: '{"email": "grace@example.com", "firstName": "Grace", "userId": "user_grace"}' },
    },
    endpoints: {},
    // What the sandbox's fixtures hold: the page offers them as suggestions in those fields.
    choices: {
      tinybird: { datasource: Object.keys(datasources), pipe: Object.keys(pipes) },
      loops: { transactionalId: templates.map((t) => t.id) },
      workflow: { workflowId: workflows.map((w) => w.id) },
    },
  };
  for (const [service, url] of Object.entries(sb.urls)) placeBaseUrl(connection, service, url);
  return connection;
}

/** The service a block's tools call when no block field takes its base URL (Loops), else undefined. */
export function endpointServiceOf(block: Block): string | undefined {
  const service = getService(block.type);
  if (service) return service.connection.baseUrl.param ? undefined : service.id;
  // A block of one's own (`defineBlock`), of no registered service.
  if (block.manifest.fields.some((f) => f.id === 'base_url')) return undefined;
  return block.tools[0]?.service;
}

/**
 * Endpoints the user gave (`service=url`): a block whose tools take a base URL param gets it
 * as that field's value, the others are passed on as `endpoints`. Credentials are typed in the page.
 */
export function endpointConnection(endpoints: Record<string, string>, blocks: Block[]): PreviewConnection {
  const connection: PreviewConnection = { label: '', values: {}, endpoints: {} };
  for (const [service, url] of Object.entries(endpoints)) {
    if (blocks.some((b) => b.type === service)) placeBaseUrl(connection, service, url);
    else connection.endpoints[service] = url;
  }
  const shown = Object.entries(endpoints).map(([service, url]) => `${service} ${url}`).join(', ');
  connection.label = shown ? `your endpoints: ${shown}` : 'no sandbox: enter base URLs and credentials';
  return connection;
}
