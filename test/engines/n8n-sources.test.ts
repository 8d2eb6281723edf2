/**
 * The n8n package's node and credential sources (packages/n8n-nodes-flowblocks/nodes/,
 * credentials/: what a reviewer and `n8n-node lint` read, and what the build compiles) are
 * what the block definitions describe: a change to a block without
 * `npm run build:n8n -- --write-sources` fails here, naming the file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { n8nNodeSources } from '../../scripts/n8n-node-sources.js';

const dir = join(import.meta.dirname, '../../packages/n8n-nodes-flowblocks');
const committed = (sub: string): string[] =>
  readdirSync(join(dir, sub), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));

describe('n8n package sources', () => {
  const { files } = n8nNodeSources();

  it('each generated file is committed as generated', () => {
    for (const [file, text] of files) {
      expect(existsSync(join(dir, file)), `${file} is missing: run npm run build:n8n -- --write-sources`).toBe(true);
      expect(readFileSync(join(dir, file), 'utf8'), `${file} has drifted: run npm run build:n8n -- --write-sources`).toBe(text);
    }
  });

  it('no file is committed that the blocks no longer describe', () => {
    expect([...committed('nodes'), ...committed('credentials')].sort()).toEqual([...files.keys()].sort());
  });

  it('each node is readable TypeScript: its description literal and an execute() through the harness', () => {
    const source = files.get('nodes/FlowblocksTinybird/FlowblocksTinybird.node.ts')!;
    expect(source).toContain("export class FlowblocksTinybird implements INodeType {");
    expect(source).toContain("\t\tdisplayName: \"Tinybird (flowblocks)\",");
    expect(source).toContain("return await executeOf(\"tinybird\").call(this);");
    expect(files.get('credentials/FlowblocksTinybirdApi.credentials.ts')).toContain('export class FlowblocksTinybirdApi implements ICredentialType {');
  });
});
