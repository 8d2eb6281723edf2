/**
 * The TypeScript sources of `n8n-nodes-flowblocks` in the `n8n-node` tool's layout, kept in the
 * repository for a reviewer and n8n's lint to read whole: `nodes/<Name>/<Name>.node.ts` (the
 * node's description as a literal; `execute()` runs the operation through the flowblocks bundle),
 * its codex `.node.json` and icon, `credentials/<Name>Api.credentials.ts` and its icon. They are
 * generated from the block definitions (`npm run build:n8n -- --write-sources`) and
 * test/engines/n8n-sources.test.ts fails when one has drifted from what the blocks describe.
 */
import { layout } from '../packages/n8n-nodes-flowblocks/src/index.mjs';

/**
 * A value as TypeScript source, keys unquoted where they can be (the lint rules read identifiers), tabs as n8n's style.
 * A key set to `undefined` is left out unless `keepUndefined` (a credential test rule's `value: undefined`, which n8n's type requires).
 */
function literal(value: unknown, indent = '\t', keepUndefined = false): string {
  if (Array.isArray(value)) return value.length ? `[\n${value.map((v) => `${indent}\t${literal(v, `${indent}\t`, keepUndefined)}`).join(',\n')},\n${indent}]` : '[]';
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => keepUndefined || v !== undefined);
    if (!entries.length) return '{}';
    const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    return `{\n${entries.map(([k, v]) => `${indent}\t${key(k)}: ${literal(v, `${indent}\t`, keepUndefined)}`).join(',\n')},\n${indent}}`;
  }
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** The description's `inputs`/`outputs` of `'main'`: the same value as n8n-workflow's `NodeConnectionTypes.Main`, named as n8n's sources name it. */
function connections(source: string): string {
  return source.replace(/(\n\t\t(?:inputs|outputs): \[\n\t\t\t)"main"(,\n\t\t\])/g, '$1NodeConnectionTypes.Main$2');
}

const HEADER = '// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.\n';

function nodeSource(className: string, type: string, description: unknown, searches: string[]): string {
  // The resource locators' searches: each one page of a list tool through the harness.
  const methods = searches.length
    ? `\n\tmethods = {\n\t\tlistSearch: {\n${searches.map((name) => `\t\t\t${name}: methodsOf(${JSON.stringify(type)}).listSearch!.${name}!,`).join('\n')}\n\t\t},\n\t};\n`
    : '';
  return `${HEADER}import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { executeOf${searches.length ? ', methodsOf' : ''} } from '../../lib/flowblocks';

export class ${className} implements INodeType {
\tdescription: INodeTypeDescription = ${connections(literal(description))};
${methods}
\tasync execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
\t\t// Each item through the flowblocks harness: validated params, retries, pacing, secrets masked.
\t\treturn await executeOf(${JSON.stringify(type)}).call(this);
\t}
}
`;
}

function credentialSource(className: string, credential: Record<string, unknown>): string {
  // Typed as n8n-workflow types them, so tsc (`n8n-node build`) checks each field against ICredentialType.
  const typed: Record<string, string> = { icon: 'Icon', test: 'ICredentialTestRequest', authenticate: 'IAuthenticateGeneric', properties: 'INodeProperties[]' };
  const fields = Object.entries(credential)
    .map(([key, value]) => `\t${key}${typed[key] ? `: ${typed[key]}` : ''} = ${literal(value, '\t', true)};`)
    .join('\n\n');
  const types = ['IAuthenticateGeneric', 'ICredentialTestRequest', 'ICredentialType', 'Icon', 'INodeProperties'].filter((t) => t === 'ICredentialType' || fields.includes(`: ${t}`));
  return `${HEADER}import type { ${types.join(', ')} } from 'n8n-workflow';

export class ${className} implements ICredentialType {
${fields}
}
`;
}

/** The block's icon on its colour: n8n draws icons as they are, and `currentColor` there is black. */
function coloured(svg: string, color: string): string {
  return svg.replace(/^<svg([^>]*)>/, `<svg$1><rect width="24" height="24" rx="5" fill="${color}" stroke="none"/>`).replaceAll('currentColor', '#fff');
}

/**
 * For n8n's dark theme: the glyph alone, in the colour lightened halfway to white (n8n's own
 * dark icons are light lines on no tile; a dark tile would sink into its canvas).
 */
function forDarkTheme(svg: string, color: string): string {
  const lighter = color.replace(/[0-9a-f]{2}/gi, (hex) => Math.round((parseInt(hex, 16) + 255) / 2).toString(16).padStart(2, '0'));
  return svg.replaceAll('currentColor', lighter);
}

/** n8n's panel categories for a service's kind (its catalog entry, shared with Sim's). */
const CATEGORIES: Record<string, string[]> = {
  analytics: ['Analytics', 'Data & Storage'],
  email: ['Marketing', 'Communication'],
  productivity: ['Productivity', 'Development'],
};

/** n8n's codex file: the node's categories and its documentation link. */
function codex(node: string, kind: string | undefined, docsUrl: string) {
  return {
    node: `n8n-nodes-flowblocks.${node}`,
    nodeVersion: '1.0',
    codexVersion: '1.0',
    categories: CATEGORIES[kind ?? ''] ?? ['Development'],
    resources: { primaryDocumentation: [{ url: docsUrl }] },
  };
}

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

export interface SourceEntry {
  type: string;
  nodeClass: string;
  credentialClass: string;
}

/** Every source file of the package, by its path under packages/n8n-nodes-flowblocks/. */
export function n8nNodeSources(): { files: Map<string, string>; entries: SourceEntry[] } {
  const files = new Map<string, string>();
  const entries: SourceEntry[] = [];
  for (const { type, node, credential, adapted, block } of layout()) {
    const nodeClass = pascal(node);
    const credentialClass = pascal(credential);
    const svg = coloured(adapted.iconSvg, block.definition.color);
    const instance = new adapted.Node();
    files.set(`nodes/${nodeClass}/${nodeClass}.node.ts`, nodeSource(nodeClass, type, instance.description, Object.keys(instance.methods?.listSearch ?? {})));
    files.set(`nodes/${nodeClass}/${nodeClass}.node.json`, `${JSON.stringify(codex(node, block.definition.catalog?.kind, block.definition.docsUrl ?? ''), null, 2)}\n`);
    // n8n resolves `file:` icons beside the file that names them: the node's and the credential's.
    const dark = forDarkTheme(adapted.iconSvg, block.definition.color);
    files.set(`nodes/${nodeClass}/${adapted.iconFile}`, svg);
    files.set(`nodes/${nodeClass}/${adapted.iconDarkFile}`, dark);
    files.set(`credentials/${adapted.iconDarkFile}`, dark);
    files.set(`credentials/${credentialClass}.credentials.ts`, credentialSource(credentialClass, { ...adapted.credential }));
    files.set(`credentials/${adapted.iconFile}`, svg);
    entries.push({ type, nodeClass, credentialClass });
  }
  return { files, entries };
}
