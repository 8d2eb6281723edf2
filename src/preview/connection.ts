import type { Block } from '../blocks/define-block.js';
import type { Sandbox } from '../sandbox/index.js';

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
}

/** Everything prefilled from a running sandbox: its URLs and its ready demo credentials. */
export function sandboxConnection(sb: Pick<Sandbox, 'urls' | 'credentials'>): PreviewConnection {
  const c = sb.credentials;
  return {
    label: `sandbox at ${new URL(sb.urls.tinybird).origin}`,
    values: {
      tinybird: { base_url: sb.urls.tinybird, token: c.tinybird.adminToken },
      loops: { apiKey: c.loops.apiKey },
      workflow: { base_url: sb.urls.workflow, apiKey: c.workflow.apiKey, workspaceId: c.workflow.workspaceId },
    },
    endpoints: { loops: sb.urls.loops },
  };
}

/** The service a block's tools call when no block field takes its base URL (Loops), else undefined. */
export function endpointServiceOf(block: Block): string | undefined {
  if (block.manifest.fields.some((f) => f.id === 'base_url')) return undefined;
  return block.tools[0]?.service;
}

/**
 * Endpoints the user gave (`service=url`): a block whose tools take `base_url` gets it as
 * that field's value, the others are passed on as `endpoints`. Credentials are typed in the page.
 */
export function endpointConnection(endpoints: Record<string, string>, blocks: Block[]): PreviewConnection {
  const values: PreviewConnection['values'] = {};
  const overrides: Record<string, string> = {};
  for (const [service, url] of Object.entries(endpoints)) {
    const block = blocks.find((b) => b.tools.some((t) => t.service === service));
    if (block && !endpointServiceOf(block)) values[block.type] = { base_url: url };
    else overrides[service] = url;
  }
  const shown = Object.entries(endpoints).map(([service, url]) => `${service} ${url}`).join(', ');
  return { label: shown ? `your endpoints: ${shown}` : 'no sandbox: enter base URLs and credentials', values, endpoints: overrides };
}
