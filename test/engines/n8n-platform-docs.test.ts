/**
 * Issue 43 item 8: the Workflow node says which platform it calls (Sim: spec 000 is Sim's
 * external API), no help text speaks of "spec 000", and every documentation link of the n8n
 * package leads to a page that exists: the services' own API references, none into a package
 * that is not published (`flowblocks` on npm or unpkg).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { n8nNodeSources } from '../../scripts/n8n-node-sources.js';
import { getBlock, listBlocks } from '../../src/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';

/** The API references the services name (`docsUrl`), each a published page. */
const API_REFERENCES = ['https://www.tinybird.co/docs/api-reference', 'https://loops.so/docs/api-reference', 'https://docs.sim.ai/execution/api'];

describe('n8n: the platform named, links that exist', () => {
  it('the Workflow node names Sim, whose external API it calls', () => {
    const { description } = new (toN8nNode(getBlock('workflow')!).Node)();
    expect(description.description).toMatch(/\bSim\b/);
    expect(description.documentationUrl).toBe('https://docs.sim.ai/execution/api');
  });

  it('no text of a node or credential speaks of "spec 000"', () => {
    for (const [file, text] of n8nNodeSources().files) expect(text, file).not.toMatch(/spec 0\d\d/i);
  });

  it("every node's, codex's and credential's link is a service's API reference", () => {
    const links: string[] = [];
    for (const block of listBlocks()) {
      const { Node, credential } = toN8nNode(block);
      links.push(new Node().description.documentationUrl!, credential.documentationUrl!);
    }
    for (const [file, text] of n8nNodeSources().files) {
      if (file.endsWith('.node.json')) links.push(...(JSON.parse(text) as { resources: { primaryDocumentation: { url: string }[] } }).resources.primaryDocumentation.map((d) => d.url));
    }
    expect(links).toHaveLength(9);
    for (const link of links) expect(API_REFERENCES, link).toContain(link);
  });

  it("the package README links no unpublished package", () => {
    const readme = readFileSync(join(import.meta.dirname, '../../packages/n8n-nodes-flowblocks/README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\((https?:[^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(link).not.toMatch(/npmjs\.com\/package\/flowblocks|unpkg\.com/);
    expect(links).toContain('https://docs.sim.ai/execution/api');
  });
});
