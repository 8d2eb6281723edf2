import { expect, it } from 'vitest';
import { titleOf } from '../../src/blocks/manifest.js';
import { listBlocks } from '../../src/registry.js';

it('labels read as words, not split param names', () => {
  expect(titleOf('base_url')).toBe('Base URL');
  expect(titleOf('apiKey')).toBe('API key');
  expect(titleOf('workflowId')).toBe('Workflow ID');
  expect(titleOf('workflowIds')).toBe('Workflow IDs');
  expect(titleOf('datasource')).toBe('Data Source');
  expect(titleOf('minDurationMs')).toBe('Min duration (ms)');
  const titles = listBlocks().flatMap((b) => b.manifest.fields.map((f) => f.title));
  for (const bad of ['Base url', 'Api key', 'Workflow id', 'Datasource', 'Job id']) expect(titles).not.toContain(bad);
});
