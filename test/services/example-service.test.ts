/**
 * A fourth service, whole, in this one file: declared with `defineService`, registered,
 * listed, rendered as a block and executed against a MockAgent that checks the request.
 * Nothing else in the repository knows about it (docs/architecture.md counts the places).
 */
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { credentialHeaders, envSettings, selectTools, type ServiceId } from '../../src/hosts/agents/index.js';
import { renderBlockMarkdown } from '../../src/docs/block-markdown.js';
import { executeTool, getBlock, getService, getTool, listBlocks, listServices, listTools, registerService } from '../../src/index.js';
import { defineConnection, defineService, lineIcon, pathIdParam, pathSegment, secretParam } from '../../src/kit.js';
import { endpointServiceOf } from '../../src/satellites/preview/connection.js';
import { parseFaultSpec } from '../../src/satellites/sandbox/http/faults.js';
import { builtinFixtureFiles } from '../../src/testing/index.js';
import { mustCover, toolIdsOf } from '../helpers/service-tables.js';
import { TOOL_CASES } from '../reliability/tool-cases.js';

const connection = defineConnection({
  service: 'notes',
  baseUrl: { default: 'https://api.notes.example/v1', env: 'NOTES_BASE_URL' },
  credential: { param: 'apiKey', schema: secretParam(z.string().min(1).describe('Notes API key')), header: 'x-notes-key', env: 'NOTES_API_KEY' },
});

const getNote = connection.defineTool({
  id: 'notes_get_note',
  name: 'Get note',
  description: 'Read one note by its id.',
  scopes: ['notes:read'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({ apiKey: connection.credential.schema, id: pathIdParam('Note id') }),
  output: z.object({ id: z.string().describe('Note id'), text: z.string().describe('The note'), words: z.number().describe('Word count') }),
  request: (p) => ({ method: 'GET', path: `/notes/${pathSegment(p.id)}` }),
  wire: z.looseObject({ note: z.object({ id: z.string(), body: z.string() }) }),
  response: ({ body }) => ({ id: body.note.id, text: body.note.body, words: body.note.body.split(/\s+/).length }),
});

const notes = defineService({
  id: 'notes',
  name: 'Notes',
  description: 'Read notes.',
  color: '#333333',
  icon: lineIcon('<rect x="5" y="3" width="14" height="18" rx="2"/>'),
  connection,
  tools: [getNote],
});

registerService(notes);

const JSON_TYPE = { headers: { 'content-type': 'application/json' } };

describe('a fourth service in one file', () => {
  it('is registered and listed with its tool', () => {
    expect(listServices().map((s) => s.id)).toEqual(['tinybird', 'loops', 'workflow', 'notes']);
    expect(getService('notes')).toBe(notes);
    expect(listTools().at(-1)).toBe(getNote);
    expect(getTool('notes_get_note' as string)).toBe(getNote);
    expect(() => registerService(notes)).toThrow(/already registered/);
  });

  it('renders as a block derived from the service', () => {
    expect(listBlocks().map((b) => b.type)).toContain('notes');
    const { manifest } = getBlock('notes')!;
    expect(manifest).toMatchObject({ type: 'notes', name: 'Notes', color: '#333333', tools: { byOperation: { get_note: 'notes_get_note' } } });
    expect(manifest.fields.find((f) => f.id === 'operation')!.options).toEqual([{ id: 'get_note', label: 'Get note' }]);
    expect(manifest.fields.find((f) => f.id === 'apiKey')).toMatchObject({ password: true, visibility: 'user-only' });
    expect(manifest.outputs.get_note).toMatchObject({ words: { type: 'number' } });
    expect(renderBlockMarkdown(getBlock('notes')!)).toContain('| Get note (`get_note`) | `notes_get_note` | read-only, idempotent | `notes:read` |');
  });

  it('executes through its connection: base URL, credential header, typed answer', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: { path: string; headers: unknown }[] = [];
    agent
      .get('https://api.notes.example')
      .intercept({ method: 'GET', path: '/v1/notes/n%2F1' })
      .reply((req) => {
        seen.push({ path: req.path, headers: req.headers });
        return { statusCode: 200, data: JSON.stringify({ note: { id: 'n/1', body: 'three little words' } }), responseOptions: JSON_TYPE };
      });
    const result = await executeTool('notes_get_note' as string, { apiKey: 'k-1', id: 'n/1' }, { dispatcher: agent });
    expect(result).toMatchObject({ success: true, output: { id: 'n/1', text: 'three little words', words: 3 } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers).toMatchObject({ 'x-notes-key': 'k-1' });

    // The caller's endpoint wins over the default, as for every service.
    agent.get('http://127.0.0.1:9').intercept({ method: 'GET', path: '/notes/x' }).reply(200, { note: { body: 1 } }, JSON_TYPE);
    const odd = await executeTool('notes_get_note' as string, { apiKey: 'k-1', id: 'x' }, { dispatcher: agent, endpoints: { notes: 'http://127.0.0.1:9/' } });
    // An answer of another shape names the service's own fields.
    expect(odd).toMatchObject({ success: false, error: { code: 'invalid_response', issues: [{ path: 'note.id' }, { path: 'note.body' }] } });
    await agent.close();
  });

  it('reaches the agents, the preview and the sandbox faults without another file', () => {
    expect(envSettings().notes).toEqual({ apiKey: 'NOTES_API_KEY', base_url: 'NOTES_BASE_URL' });
    // A service registered at run time is named with a cast: the type knows the built-in ones.
    expect(selectTools({ services: ['notes' as ServiceId] })).toEqual([getNote]);
    expect(endpointServiceOf(getBlock('notes')!)).toBe('notes');
    expect(parseFaultSpec(['notes:429=0.5'])).toEqual({ notes: { rate429: 0.5 } });
    // The remote MCP server's per-request headers, from the same connection.
    expect(credentialHeaders(['notes']).map((h) => [h.header, h.setting, h.env])).toEqual([
      ['X-Notes-Api-Key', 'apiKey', 'NOTES_API_KEY'],
      ['X-Notes-Base-Url', 'base_url', 'NOTES_BASE_URL'],
    ]);
  });

  it('asks nothing more of the per-service test tables: fixtures, reliability cases, sandbox contract', () => {
    // Each table covers the services it holds anything for; notes has no fixtures, cases or
    // emulator, and each table's coverage check still passes with notes registered.
    const fixtureTools = toolIdsOf(builtinFixtureFiles().map((file) => file.service!));
    expect(fixtureTools).toContain('loops_find_contact');
    expect(fixtureTools).not.toContain('notes_get_note');
    const caseIds = TOOL_CASES.map((c) => c.id);
    expect(mustCover(caseIds)).toEqual([...caseIds].sort());
    expect(toolIdsOf(['tinybird', 'loops', 'workflow'])).not.toContain('notes_get_note');
    // A table that starts holding notes must hold every tool of it; a tool no service has is named.
    expect(mustCover([...caseIds, 'notes_get_note'])).toEqual([...caseIds, 'notes_get_note'].sort());
    expect(() => mustCover(['notes_no_such_tool'])).toThrow('a test table names a tool no service has: notes_no_such_tool');
  });
});
