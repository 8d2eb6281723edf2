import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderBlockManifestFile, renderManifestsModule, type BlockManifestFile } from '../../src/blocks/manifest-file.js';
import { blockManifests } from '../../src/blocks/manifests.generated.js';
import { renderBlockMarkdown } from '../../src/docs/block-markdown.js';
import { getBlock, listBlocks } from '../../src/index.js';

const tinybird = getBlock('tinybird')!;

describe('tinybird block manifest', () => {
  const { manifest } = tinybird;
  const field = (id: string) => manifest.fields.find((f) => f.id === id)!;

  it('has an operation dropdown over the sixteen tools', () => {
    expect(field('operation')).toMatchObject({
      type: 'dropdown',
      default: 'events',
      options: [
        { id: 'events', label: 'Send events' },
        { id: 'query', label: 'Run SQL query' },
        { id: 'query_pipe', label: 'Call a pipe endpoint' },
        { id: 'append_datasource', label: 'Append from URL' },
        { id: 'append_data', label: 'Append data' },
        { id: 'truncate_datasource', label: 'Truncate Data Source' },
        { id: 'delete_datasource_rows', label: 'Delete rows by condition' },
        { id: 'get_job', label: 'Get job' },
        { id: 'list_datasources', label: 'List Data Sources' },
        { id: 'get_datasource', label: 'Get Data Source' },
        { id: 'list_pipes', label: 'List pipes' },
        { id: 'get_pipe', label: 'Get pipe' },
        { id: 'list_jobs', label: 'List jobs' },
        { id: 'cancel_job', label: 'Cancel job' },
        { id: 'create_token', label: 'Create token' },
        { id: 'api_call', label: 'Custom API call' },
      ],
    });
    expect(manifest.tools.byOperation.query).toBe('tinybird_query');
    expect(manifest.tools.access).toHaveLength(16);
  });

  it('derives one field per param with per-operation conditions and UI hints', () => {
    expect(field('token')).toMatchObject({ type: 'short-input', password: true, visibility: 'user-only' });
    expect(field('token').condition).toBeUndefined();
    expect(field('token').requiredFor).toHaveLength(16);
    expect(field('query')).toMatchObject({ type: 'code', language: 'sql', condition: { value: ['query'] }, requiredFor: ['query'] });
    expect(field('data')).toMatchObject({ type: 'code', language: 'ndjson', condition: { value: ['events', 'append_data'] } });
    expect(field('parameters')).toMatchObject({ type: 'code', language: 'json' });
    expect(field('wait')).toMatchObject({ type: 'switch', default: false });
    expect(field('datasource').condition?.value).toEqual(['events', 'append_datasource', 'append_data', 'truncate_datasource', 'delete_datasource_rows', 'get_datasource']);
    // Same name, other values: the append format gets a field of its own.
    expect(field('format')).toMatchObject({ type: 'dropdown', options: [{ id: 'ndjson' }, { id: 'json' }], condition: { value: ['events'] } });
    expect(field('append_datasource_format')).toMatchObject({
      param: 'format',
      options: [{ id: 'csv' }, { id: 'ndjson' }, { id: 'parquet' }],
      condition: { value: ['append_datasource'] },
    });
    expect(manifest.inputs.parameters).toMatchObject({ type: 'json' });
    expect(manifest.inputs.wait).toMatchObject({ type: 'boolean' });
  });

  it('derives per-operation outputs from the output schemas', () => {
    expect(manifest.outputs.events).toEqual({
      successful_rows: { type: 'number', description: 'Rows ingested' },
      quarantined_rows: { type: 'number', description: expect.any(String) },
    });
    expect(manifest.outputs.query!.data!.type).toBe('json');
    expect(manifest.outputs.query!.rows).toMatchObject({ type: 'number', optional: true });
    expect(manifest.outputs.query_pipe!.data).toMatchObject({ type: 'array' });
    expect(manifest.outputs.truncate_datasource!.truncated).toMatchObject({ type: 'boolean' });
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
  });

  it('resolves editor values to a tool and its params', () => {
    const { tool, params } = tinybird.resolve({
      operation: 'append_datasource',
      base_url: 'https://api.tinybird.co',
      token: 't',
      datasource: 'events',
      url: 'https://f/e.csv',
      append_datasource_format: 'ndjson',
      format: 'json',
      query: 'ignored for this operation',
      wait: '',
    });
    expect(tool.id).toBe('tinybird_append_datasource');
    expect(params).toEqual({ base_url: 'https://api.tinybird.co', token: 't', datasource: 'events', url: 'https://f/e.csv', format: 'ndjson' });
    expect(tinybird.resolve({ operation: 'query_pipe', pipe: 'p', parameters: '{"a":1}' }).params).toEqual({ pipe: 'p', parameters: { a: 1 } });
    expect(() => tinybird.resolve({ operation: 'nope' as string })).toThrow(/no operation nope/);
    // No operation is an error, never the first operation (Tinybird's first writes: events).
    expect(() => tinybird.resolve({ datasource: 'events', data: '{}' })).toThrow(/^block tinybird: values.operation is required \(one of events, query, /);
    expect(() => tinybird.resolve({})).toThrow(/values.operation is required/);
  });
});

describe('generated block manifests', () => {
  const root = join(import.meta.dirname, '..', '..');
  it.each(listBlocks().map((b) => b.type))('blocks/%s.json matches the manifest and its tools (run npm run docs)', (type) => {
    const block = getBlock(type)!;
    const committed = readFileSync(join(root, 'blocks', `${type}.json`), 'utf8');
    expect(committed).toBe(renderBlockManifestFile(block));
    const file = JSON.parse(committed) as BlockManifestFile;
    expect(file.tools.access).toEqual(Object.keys(file.toolSchemas));
    expect(file.toolSchemas[block.tools[0]!.id]!.params).toMatchObject({ type: 'object', properties: expect.any(Object) });
  });

  it('src/blocks/manifests.generated.ts holds the same manifests (run npm run docs)', () => {
    expect(readFileSync(join(root, 'src', 'blocks', 'manifests.generated.ts'), 'utf8')).toBe(renderManifestsModule(listBlocks()));
    expect(blockManifests).toEqual(listBlocks().map((b) => JSON.parse(JSON.stringify(b.manifest)) as unknown));
  });

  it('ships one copy, the typed module: blocks/*.json stay in the repository (flowblocks manifest prints them)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(pkg.files.filter((entry) => entry === 'blocks' || entry.startsWith('blocks/'))).toEqual([]);
    expect(Object.keys(pkg.exports).filter((subpath) => subpath.startsWith('./blocks/'))).toEqual([]);
    expect(readdirSync(join(root, 'blocks')).sort()).toEqual(listBlocks().map((b) => `${b.type}.json`).sort());
  });
});

describe('generated block docs', () => {
  it.each(listBlocks().map((b) => b.type))('docs/blocks/%s.md matches the manifest (run npm run docs)', (type) => {
    const committed = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'blocks', `${type}.md`), 'utf8');
    expect(committed).toBe(renderBlockMarkdown(getBlock(type)!));
  });
});
