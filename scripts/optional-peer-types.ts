/**
 * Marks every type import of an optional peer in dist/'s declaration files with `@ts-ignore`:
 * an app that imports `flowblocks/n8n`, `flowblocks/agents` or `flowblocks/redis`
 * without n8n-workflow, the MCP SDK or ioredis installed compiles with `skipLibCheck: false`;
 * the peer's types are then `any`, and exact once it is installed. tsc drops comments on
 * imports when it writes declarations, so they are added here, after it (`npm run build`).
 * Imports are found with TypeScript's own parser; the comment goes on the line of the module
 * name, where TypeScript reports a module it cannot find.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MARK = '// @ts-ignore -- an optional peer: its types are `any` where it is not installed';

/** The optional peers of package.json, each matching its subpaths too. */
export function optionalPeers(manifest: { peerDependenciesMeta?: Record<string, { optional?: boolean }> }): (specifier: string) => boolean {
  const names = Object.entries(manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta.optional)
    .map(([name]) => name);
  return (specifier) => names.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** The declaration text with a MARK line before each line that names an optional peer's module. */
export function markOptionalPeerImports(text: string, isOptionalPeer: (specifier: string) => boolean): string {
  const file = ts.createSourceFile('x.d.ts', text, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const visit = (node: ts.Node): void => {
    let specifier: ts.Node | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) specifier = node.moduleSpecifier;
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = node.argument.literal;
    if (specifier && ts.isStringLiteral(specifier) && isOptionalPeer(specifier.text)) lines.add(file.getLineAndCharacterOfPosition(specifier.getStart(file)).line);
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (!lines.size) return text;
  const source = text.split('\n');
  return source.flatMap((line, i) => (lines.has(i) && source[i - 1]?.trim() !== MARK ? [`${line.match(/^\s*/)![0]}${MARK}`, line] : [line])).join('\n');
}

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? declarationFiles(path) : entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const isOptionalPeer = optionalPeers(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
  let marked = 0;
  for (const path of declarationFiles(join(ROOT, 'dist'))) {
    const text = readFileSync(path, 'utf8');
    const next = markOptionalPeerImports(text, isOptionalPeer);
    if (next !== text) {
      writeFileSync(path, next);
      marked++;
    }
  }
  console.log(`optional-peer-types: ${marked} declaration files mark their optional peers' imports`);
}
