/**
 * The TypeScript sources of `n8n-nodes-flowblocks` in the `n8n-node` tool's layout, kept in the
 * repository for a reviewer and n8n's lint to read whole: `nodes/<Name>/<Name>.node.ts` (the
 * node's description as a literal; `execute()` runs the operation through the flowblocks bundle),
 * its codex `.node.json` and icon, `credentials/<Name>Api.credentials.ts` and its icon. They are
 * generated from the block definitions (`npm run build:n8n -- --write-sources`) and
 * test/engines/n8n-sources.test.ts fails when one has drifted from what the blocks describe.
 */
import { layout } from '../packages/n8n-nodes-flowblocks/src/index.mjs';
import { CREDENTIAL_TEST_TIMEOUT_MS, credentialHeaderOf, type CredentialHeader } from '../src/hosts/n8n/credential-authenticate.js';
import { getService } from '../src/registry.js';

/** An object key as TypeScript source: unquoted where it can be (the lint rules read identifiers). */
const keySource = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));

/**
 * A value as TypeScript source, keys unquoted where they can be, tabs as n8n's style.
 * A key set to `undefined` is left out unless `keepUndefined` (a credential test rule's `value: undefined`, which n8n's type requires).
 */
function literal(value: unknown, indent = '\t', keepUndefined = false): string {
  if (Array.isArray(value)) return value.length ? `[\n${value.map((v) => `${indent}\t${literal(v, `${indent}\t`, keepUndefined)}`).join(',\n')},\n${indent}]` : '[]';
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => keepUndefined || v !== undefined);
    if (!entries.length) return '{}';
    return `{\n${entries.map(([k, v]) => `${indent}\t${keySource(k)}: ${literal(v, `${indent}\t`, keepUndefined)}`).join(',\n')},\n${indent}}`;
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

/**
 * The credential's `authenticate` as a method of its class: the key in the service's header on
 * every request n8n sends with it, and the time limit of "Test credential"
 * (src/hosts/n8n/credential-authenticate.ts is the same function, for `flowblocks/n8n`).
 */
function authenticateSource({ header, scheme, param, testUrl }: CredentialHeader): string {
  const key = `String(credentials.${param})`;
  const value = scheme ? `\`${scheme} \${${key}}\`` : key;
  const headers = `{ ...requestOptions.headers, ${keySource(header)}: ${value} }`;
  const lines = [
    '\t/**',
    '\t * The key on every request n8n sends with this credential (the HTTP Request node\'s too). n8n gives',
    '\t * the "Test credential" request, built from `test` below, 300 s; it waits TEST_TIMEOUT_MS at most.',
    '\t */',
    '\tasync authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {',
    `\t\tconst headers = ${headers};`,
  ];
  if (testUrl !== undefined) {
    lines.push(
      "\t\t// Only n8n's credential tester sends the test's path below a baseURL; other requests carry a whole URL.",
      `\t\tif (requestOptions.baseURL === undefined || requestOptions.url !== ${JSON.stringify(testUrl)}) return { ...requestOptions, headers };`,
      '\t\treturn { ...requestOptions, headers, timeout: Math.min(requestOptions.timeout ?? TEST_TIMEOUT_MS, TEST_TIMEOUT_MS) };',
    );
  } else lines.push('\t\treturn { ...requestOptions, headers };');
  lines.push('\t}');
  return lines.join('\n');
}

function credentialSource(className: string, credential: Record<string, unknown>, authentication: CredentialHeader): string {
  // Typed as n8n-workflow types them, so tsc (`n8n-node build`) checks each field against ICredentialType.
  const typed: Record<string, string> = { icon: 'Icon', test: 'ICredentialTestRequest', properties: 'INodeProperties[]' };
  const fields = Object.entries(credential)
    .map(([key, value]) => (key === 'authenticate' ? authenticateSource(authentication) : `\t${key}${typed[key] ? `: ${typed[key]}` : ''} = ${literal(value, '\t', true)};`))
    .join('\n\n');
  const types = ['ICredentialDataDecryptedObject', 'ICredentialTestRequest', 'ICredentialType', 'Icon', 'IHttpRequestOptions', 'INodeProperties'].filter(
    (t) => t === 'ICredentialType' || fields.includes(`: ${t}`),
  );
  const limit =
    authentication.testUrl === undefined
      ? ''
      : `\n/** How long "Test credential" waits for the service: one cheap GET, with the user at the button. */\nconst TEST_TIMEOUT_MS = ${CREDENTIAL_TEST_TIMEOUT_MS};\n`;
  return `${HEADER}import type { ${types.join(', ')} } from 'n8n-workflow';
${limit}
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
    const service = getService(block.definition.operations[0]!.tool.service)!;
    files.set(`credentials/${credentialClass}.credentials.ts`, credentialSource(credentialClass, { ...adapted.credential }, credentialHeaderOf(service.connection)));
    files.set(`credentials/${adapted.iconFile}`, svg);
    entries.push({ type, nodeClass, credentialClass });
  }
  return { files, entries };
}
