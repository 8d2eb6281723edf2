/**
 * Schema discovery and jobs: the Data Sources API (`GET /v0/datasources`, `/v0/datasources/<name>`),
 * the Pipes API (`GET /v0/pipes`, `/v0/pipes/<name>`) and the Jobs API (`GET /v0/jobs`,
 * `POST /v0/jobs/<id>/cancel`), with answers shaped as the service sends them.
 */
import { describe, expect, it } from 'vitest';
import { BASE, JOB_ID, TOKEN, tinybird } from './setup.js';

/** A Data Source as the Data Sources API describes it (trimmed; unknown fields are kept). */
const EVENTS_DS = {
  id: 't_caf95c54174e48f488ea65d181eb5b75',
  name: 'events',
  cluster: 'tinybird',
  tags: {},
  created_at: '2026-11-01 10:00:00.000000',
  updated_at: '2026-11-20 10:00:00.000000',
  replicated: true,
  version: 0,
  project: null,
  headers: {},
  shared_with: [],
  engine: { engine: 'MergeTree', engine_sorting_key: 'timestamp', engine_partition_key: 'toYYYYMM(timestamp)' },
  description: '',
  used_by: [],
  type: 'ndjson',
  columns: [
    { name: 'timestamp', type: 'DateTime', codec: null, default_value: null, jsonpath: '$.timestamp', nullable: false, normalized_name: 'timestamp' },
    { name: 'event', type: 'LowCardinality(String)', codec: null, default_value: null, jsonpath: '$.event', nullable: false, normalized_name: 'event' },
    { name: 'email', type: 'Nullable(String)', codec: null, default_value: null, jsonpath: '$.email', nullable: true, normalized_name: 'email' },
  ],
  statistics: { bytes: 1048576, row_count: 12345 },
  new_columns_detected: {},
  quarantine_rows: 0,
};

const TOP_PIPE = {
  id: 't_3e5b2d8b19a74d0a',
  name: 'top_events',
  description: 'Event counts',
  created_at: '2026-11-01 10:00:00.000000',
  updated_at: '2026-11-20 10:00:00.000000',
  endpoint: 't_node_endpoint',
  type: 'endpoint',
  parent: null,
  nodes: [
    { id: 't_node_counted', name: 'counted', sql: 'SELECT event, count() AS total FROM events GROUP BY event', description: null, materialized: null, params: [] },
    {
      id: 't_node_endpoint',
      name: 'endpoint',
      sql: '%\nSELECT * FROM counted LIMIT {{Int32(limit, 10)}}',
      description: null,
      materialized: null,
      params: [{ name: 'limit', type: 'Int32', default: 10, required: false, description: '' }],
    },
  ],
};

describe('tinybird_list_datasources', () => {
  it('GETs /v0/datasources with the Bearer token and returns the columns and row counts', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/datasources', { status: 200, body: { datasources: [EVENTS_DS] } });
    const result = await tb.run('tinybird_list_datasources', {});
    expect(tb.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/v0/datasources', query: {}, body: undefined })]);
    expect(tb.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(result).toMatchObject({
      success: true,
      output: {
        datasources: [
          {
            name: 'events',
            engine: { engine: 'MergeTree', engine_sorting_key: 'timestamp' },
            columns: [{ name: 'timestamp', type: 'DateTime' }, { name: 'event', type: 'LowCardinality(String)' }, { name: 'email', type: 'Nullable(String)', nullable: true }],
            statistics: { row_count: 12345 },
          },
        ],
      },
    });
  });

  it('names the service field of an answer of another shape', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/datasources', { status: 200, body: { datasources: [{ columns: [] }] } });
    const result = await tb.run('tinybird_list_datasources', {});
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', issues: [{ path: 'datasources.0.name' }] } });
  });
});

describe('tinybird_get_datasource', () => {
  it('GETs /v0/datasources/<name>', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/datasources/events', { status: 200, body: EVENTS_DS });
    const result = await tb.run('tinybird_get_datasource', { datasource: 'events' });
    expect(tb.requests[0]).toMatchObject({ method: 'GET', path: '/v0/datasources/events', query: {} });
    expect(result).toMatchObject({ success: true, output: { id: EVENTS_DS.id, name: 'events', statistics: { row_count: 12345 }, columns: { length: 3 } } });
  });

  it('maps a 404 to not_found and refuses a bad name before sending', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/datasources/nope', { status: 404, body: { error: 'Data Source "nope" does not exist' } });
    expect(await tb.run('tinybird_get_datasource', { datasource: 'nope' })).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect(await tb.run('tinybird_get_datasource', { datasource: '../pipes' })).toMatchObject({ success: false, error: { code: 'invalid_params' } });
    expect(tb.requests).toHaveLength(1);
  });
});

describe('tinybird_list_pipes and tinybird_get_pipe', () => {
  it('GETs /v0/pipes', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/pipes', { status: 200, body: { pipes: [TOP_PIPE] } });
    const result = await tb.run('tinybird_list_pipes', {});
    expect(tb.requests[0]).toMatchObject({ method: 'GET', path: '/v0/pipes', query: {} });
    expect(result).toMatchObject({ success: true, output: { pipes: [{ name: 'top_events', type: 'endpoint', nodes: { length: 2 } }] } });
  });

  it('GETs /v0/pipes/<name> without an extension and lifts the endpoint node\'s params', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/pipes/top_events', { status: 200, body: TOP_PIPE });
    const result = await tb.run('tinybird_get_pipe', { pipe: 'top_events' });
    expect(tb.requests[0]).toMatchObject({ method: 'GET', path: '/v0/pipes/top_events', query: {} });
    expect(result).toMatchObject({
      success: true,
      output: { name: 'top_events', endpoint: 't_node_endpoint', parameters: [{ name: 'limit', type: 'Int32', default: 10, required: false }] },
    });
  });

  it('has no parameters for a pipe without an endpoint, and encodes the name', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/pipes/a%2Fb', { status: 200, body: { ...TOP_PIPE, name: 'a/b', endpoint: null, type: 'default' } });
    const result = await tb.run('tinybird_get_pipe', { pipe: 'a/b' });
    expect(result).toMatchObject({ success: true, output: { parameters: [] } });
    expect(await tb.run('tinybird_get_pipe', { pipe: '..' })).toMatchObject({ success: false, error: { code: 'invalid_params' } });
  });
});

describe('tinybird_list_jobs', () => {
  const listed = { id: JOB_ID, kind: 'import', status: 'done', created_at: '2026-11-22 10:00:00.000000', updated_at: '2026-11-22 10:00:01.000000', job_url: `${BASE}/v0/jobs/${JOB_ID}`, datasource: { id: 't_1', name: 'events' } };

  it('GETs /v0/jobs with its filters in the query', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/jobs', { status: 200, body: { jobs: [listed] } });
    const result = await tb.run('tinybird_list_jobs', { kind: 'import', status: 'done', pipe_name: 'top', created_after: '2026-11-22T00:00:00Z', created_before: '2026-11-23' });
    expect(tb.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v0/jobs',
      query: { kind: 'import', status: 'done', pipe_name: 'top', created_after: '2026-11-22T00:00:00Z', created_before: '2026-11-23' },
    });
    expect(result).toMatchObject({ success: true, output: { jobs: [{ id: JOB_ID, status: 'done', datasource: { name: 'events' } }] } });
  });

  it('sends no filter it was not given, and refuses an unknown status', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/jobs', { status: 200, body: { jobs: [] } });
    expect(await tb.run('tinybird_list_jobs', {})).toMatchObject({ success: true, output: { jobs: [] } });
    expect(tb.requests[0]!.query).toEqual({});
    expect(await tb.run('tinybird_list_jobs', { status: 'finished' })).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'status' }] } });
  });
});

describe('tinybird_cancel_job', () => {
  it('POSTs /v0/jobs/<id>/cancel with no body and returns the cancelling job', async () => {
    const tb = tinybird();
    tb.on('POST', `/v0/jobs/${JOB_ID}/cancel`, { status: 200, body: { kind: 'import', id: JOB_ID, job_id: JOB_ID, status: 'cancelling', is_cancellable: false } });
    const result = await tb.run('tinybird_cancel_job', { job_id: JOB_ID });
    expect(tb.requests[0]).toMatchObject({ method: 'POST', path: `/v0/jobs/${JOB_ID}/cancel`, query: {}, body: undefined });
    expect(tb.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(result).toMatchObject({ success: true, output: { id: JOB_ID, status: 'cancelling' } });
  });

  it('reports the 400 of a job that can no longer be cancelled', async () => {
    const tb = tinybird();
    tb.on('POST', `/v0/jobs/${JOB_ID}/cancel`, { status: 400, body: { error: 'Job is not in cancellable status' } });
    const result = await tb.run('tinybird_cancel_job', { job_id: JOB_ID });
    expect(result).toMatchObject({ success: false, error: { code: 'bad_request', message: 'Job is not in cancellable status' } });
    expect(tb.requests).toHaveLength(1);
  });
});
