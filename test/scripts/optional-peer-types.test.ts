import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MARK, markOptionalPeerImports, optionalPeers } from '../../scripts/optional-peer-types.js';

const isPeer = optionalPeers({ peerDependenciesMeta: { 'n8n-workflow': { optional: true }, '@modelcontextprotocol/sdk': { optional: true }, zod: { optional: false } } });

const DTS = `import type { z } from 'zod';
import type {
  ICredentialType,
  INodeType,
} from 'n8n-workflow';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
export type Errors = Pick<typeof import('n8n-workflow'), 'NodeApiError'>;
export interface N { Node: new () => INodeType; credential: ICredentialType; server: Server; schema: z.ZodType }
`;

describe('scripts/optional-peer-types.ts (issue 42)', () => {
  it("marks the line of each optional peer's module name, import or import type, and nothing else", () => {
    const marked = markOptionalPeerImports(DTS, isPeer);
    expect(marked.split('\n')).toEqual([
      "import type { z } from 'zod';",
      'import type {',
      '  ICredentialType,',
      '  INodeType,',
      MARK,
      "} from 'n8n-workflow';",
      MARK,
      "import type { Server } from '@modelcontextprotocol/sdk/server/index.js';",
      MARK,
      "export type Errors = Pick<typeof import('n8n-workflow'), 'NodeApiError'>;",
      "export interface N { Node: new () => INodeType; credential: ICredentialType; server: Server; schema: z.ZodType }",
      '',
    ]);
    // Run twice (a build again over dist/): nothing more.
    expect(markOptionalPeerImports(marked, isPeer)).toBe(marked);
  });

  it('the marked declarations compile with skipLibCheck: false where the peers are not installed; unmarked, they do not', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowblocks-peer-types-'));
    try {
      const compile = (dts: string) => {
        writeFileSync(join(dir, 'lib.d.ts'), dts.replace("import type { z } from 'zod';\n", '').replace('; schema: z.ZodType', ''));
        writeFileSync(join(dir, 'app.ts'), "import type { N } from './lib.js';\nexport const n: N | undefined = undefined;\n");
        const program = ts.createProgram([join(dir, 'app.ts')], { strict: true, noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true, lib: ['lib.es2022.d.ts'], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [], typeRoots: [] });
        return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      };
      expect(compile(markOptionalPeerImports(DTS, isPeer))).toEqual([]);
      expect(compile(DTS)).toEqual(expect.arrayContaining([expect.stringContaining("Cannot find module 'n8n-workflow'")]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
