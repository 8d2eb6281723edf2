import { describe, expect, it } from 'vitest';
import { BASE, formOf, JOB_ID, TOKEN, tinybird } from './setup.js';

const job = (kind: string, status: string, extra: Record<string, unknown> = {}) => ({
  kind,
  id: JOB_ID,
  job_id: JOB_ID,
  status,
  created_at: '2026-11-22 10:00:00.000000',
  updated_at: '2026-11-22 10:00:00.000000',
  started_at: null,
  is_cancellable: true,
  datasource: { id: 't_0123', name: 'events' },
  ...extra,
});

describe('tinybird_append_datasource', () => {
  const envelope = {
    id: JOB_ID,
    job_id: JOB_ID,
    job_url: `${BASE}/v0/jobs/${JOB_ID}`,
    job: job('import', 'waiting', { mode: 'append', url: 'https://files.example/e.csv?sig=a&b=c' }),
    status: 'waiting',
    import_id: JOB_ID,
  };

  it('POSTs mode=append with the URL in a form body and reads the job envelope', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources', { status: 200, body: envelope });
    const result = await tb.run('tinybird_append_datasource', {
      datasource: 'events',
      url: 'https://files.example/e.csv?sig=a&b=c',
      format: 'csv',
    });
    const [req] = tb.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v0/datasources', query: { mode: 'append', name: 'events', format: 'csv' } });
    expect(req!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' });
    expect(formOf(req!.body)).toEqual({ url: 'https://files.example/e.csv?sig=a&b=c' });
    expect(result).toMatchObject({
      success: true,
      output: {
        id: JOB_ID,
        import_id: JOB_ID,
        job_id: JOB_ID,
        job_url: `${BASE}/v0/jobs/${JOB_ID}`,
        status: 'waiting',
        job: { kind: 'import', status: 'waiting', mode: 'append' },
        datasource: { id: 't_0123', name: 'events' },
      },
    });
  });

  it('never repeats an append after a 5xx (it would import twice)', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources', { status: 500, body: { error: 'Unexpected error' } }, { status: 200, body: envelope });
    const result = await tb.run('tinybird_append_datasource', { datasource: 'events', url: 'https://f/e.ndjson', format: 'ndjson' });
    expect(tb.requests).toHaveLength(1);
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', retryable: false } });
  });

  it('waits out the 429 of the 5-per-minute append limit', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources', { status: 429, body: { error: 'Too many requests' }, headers: { 'retry-after': '0' } }, { status: 200, body: envelope });
    const result = await tb.run('tinybird_append_datasource', { datasource: 'events', url: 'https://f/e.csv' });
    expect(result).toMatchObject({ success: true, meta: { attempts: 2 } });
  });

  it('refuses a URL that is not http(s)', async () => {
    const tb = tinybird();
    const result = await tb.run('tinybird_append_datasource', { datasource: 'events', url: 'ftp://f/e.csv' });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'url' }] } });
    expect(tb.requests).toHaveLength(0);
  });
});

describe('tinybird_truncate_datasource', () => {
  it('POSTs to /truncate and reads the 205 with no body', async () => {
    const tb = tinybird();
    tb.pool.intercept({ method: 'POST', path: '/v0/datasources/events/truncate' }).reply(205, '');
    const result = await tb.run('tinybird_truncate_datasource', { datasource: 'events' });
    expect(result).toEqual({ success: true, output: { truncated: true, result: null }, meta: expect.objectContaining({ status: 205, attempts: 1 }) });
  });

  it('records the request and retries a 5xx, since truncating twice is harmless', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources/events/truncate', { status: 502, body: 'bad gateway' }, { status: 205 });
    const result = await tb.run('tinybird_truncate_datasource', { datasource: 'events' });
    expect(tb.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/v0/datasources/events/truncate', undefined],
      ['POST', '/v0/datasources/events/truncate', undefined],
    ]);
    expect(tb.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(result).toMatchObject({ success: true, output: { truncated: true, result: null }, meta: { attempts: 2 } });
  });

  it('returns not_found for a missing Data Source', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources/nope/truncate', { status: 404, body: { error: 'Data Source "nope" does not exist' } });
    const result = await tb.run('tinybird_truncate_datasource', { datasource: 'nope' });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', message: 'Data Source "nope" does not exist' } });
  });
});

describe('tinybird_delete_datasource_rows', () => {
  const created = {
    id: JOB_ID,
    job_id: JOB_ID,
    job_url: `${BASE}/v0/jobs/${JOB_ID}`,
    job: job('delete_data', 'waiting', { delete_condition: "event = 'test'" }),
    status: 'waiting',
    delete_id: JOB_ID,
  };

  it('POSTs the condition as a form and reads the 201 job', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources/events/delete', { status: 201, body: created });
    const result = await tb.run('tinybird_delete_datasource_rows', { datasource: 'events', delete_condition: "event = 'test'" });
    const [req] = tb.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v0/datasources/events/delete', query: {} });
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(formOf(req!.body)).toEqual({ delete_condition: "event = 'test'", dry_run: 'false' });
    expect(result).toMatchObject({
      success: true,
      output: { id: JOB_ID, job_id: JOB_ID, delete_id: JOB_ID, status: 'waiting', job: { kind: 'delete_data', delete_condition: "event = 'test'" } },
      meta: { status: 201 },
    });
  });

  it('reads a dry run as the count of rows that would go, and may repeat it', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources/events/delete', { status: 500, body: { error: 'count failed' } }, { status: 200, body: { rows_to_be_deleted: 42 } });
    const result = await tb.run('tinybird_delete_datasource_rows', { datasource: 'events', delete_condition: '1=1', dry_run: true });
    expect(formOf(tb.requests[1]!.body)).toEqual({ delete_condition: '1=1', dry_run: 'true' });
    expect(result).toMatchObject({ success: true, output: { rows_to_be_deleted: 42 }, meta: { attempts: 2, status: 200 } });
    expect(result.success && Object.keys(result.output as object)).toEqual(['rows_to_be_deleted']);
  });

  it('does not repeat a real delete after a 5xx', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources/events/delete', { status: 503, body: { error: 'busy' } }, { status: 201, body: created });
    const result = await tb.run('tinybird_delete_datasource_rows', { datasource: 'events', delete_condition: '1=1' });
    expect(tb.requests).toHaveLength(1);
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 503, retryable: false } });
  });

  it('returns the 400 for a missing Data Source with the service message', async () => {
    const tb = tinybird();
    const message = 'Data Source "nope" does not exist, can not delete a non existing Data Source';
    tb.on('POST', '/v0/datasources/nope/delete', { status: 400, body: { error: message } });
    const result = await tb.run('tinybird_delete_datasource_rows', { datasource: 'nope', delete_condition: '1=1' });
    expect(result).toMatchObject({ success: false, error: { code: 'bad_request', status: 400, message } });
  });
});

describe('tinybird_get_job', () => {
  it('GETs /v0/jobs/<id>', async () => {
    const tb = tinybird();
    tb.on('GET', `/v0/jobs/${JOB_ID}`, { status: 200, body: job('delete_data', 'done', { rows_affected: 42 }) });
    const result = await tb.run('tinybird_get_job', { job_id: JOB_ID });
    expect(tb.requests[0]).toMatchObject({ method: 'GET', path: `/v0/jobs/${JOB_ID}`, body: undefined });
    expect(result).toMatchObject({ success: true, output: { id: JOB_ID, status: 'done', rows_affected: 42, kind: 'delete_data' } });
  });

  it('polls until the job ends when asked to wait', async () => {
    const tb = tinybird();
    tb.on(
      'GET',
      `/v0/jobs/${JOB_ID}`,
      { status: 200, body: job('import', 'waiting') },
      { status: 200, body: job('import', 'working') },
      { status: 200, body: job('import', 'done', { statistics: { bytes: 10, row_count: 2 } }) },
    );
    const result = await tb.run('tinybird_get_job', { job_id: JOB_ID, wait_for_completion: true });
    expect(tb.requests).toHaveLength(3);
    expect(result).toMatchObject({ success: true, output: { status: 'done', statistics: { row_count: 2 } }, meta: { attempts: 3 } });
  });

  it('stops on error and cancelled too', async () => {
    const tb = tinybird();
    tb.on('GET', `/v0/jobs/${JOB_ID}`, { status: 200, body: job('import', 'error', { error: 'file not found' }) });
    tb.on('GET', `/v0/jobs/${JOB_ID}`, { status: 200, body: job('import', 'cancelled') });
    expect(await tb.run('tinybird_get_job', { job_id: JOB_ID, wait_for_completion: true })).toMatchObject({
      success: true,
      output: { status: 'error', error: 'file not found' },
    });
    expect(await tb.run('tinybird_get_job', { job_id: JOB_ID, wait_for_completion: true })).toMatchObject({
      success: true,
      output: { status: 'cancelled' },
    });
  });

  it('gives up with timeout when the job outlives the limit', async () => {
    const tb = tinybird();
    tb.on('GET', `/v0/jobs/${JOB_ID}`, { status: 200, body: job('import', 'working') });
    const result = await tb.run('tinybird_get_job', { job_id: JOB_ID, wait_for_completion: true, timeout_seconds: 0.1 });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'timeout', message: `job ${JOB_ID} is still working after 0.1 s`, retryable: true },
      meta: { attempts: 1 },
    });
  });

  it('returns not_found for an unknown or expired job', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/jobs/nope', { status: 404, body: { error: 'Job with id "nope" not found' } });
    const result = await tb.run('tinybird_get_job', { job_id: 'nope' });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', message: 'Job with id "nope" not found' } });
  });
});
