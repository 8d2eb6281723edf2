// Compiled only by test/types/param-errors.test.ts, with the TypeScript we build with and with
// TypeScript 7: every line marked `// error at <name>` must have a diagnostic that starts at
// that name and says what is wrong with it (not "not assignable to never", not "Overload 2 of 3").
// The other lines must compile.
import { executeTool, getBlock, getTool, runTool } from '../../../src/index.js';
import { mockServices } from '../../../src/testing/index.js';
import { query, queryPipe } from '../../../tools/tinybird/index.js';

const base = { base_url: 'https://api.tinybird.co', token: 'p.token' };

export async function calls(): Promise<void> {
  // Right: these compile.
  await executeTool('tinybird_query', { ...base, query: 'SELECT 1' });
  await executeTool(query, { ...base, query: 'SELECT 1' });
  await runTool(query, { ...base, query: 'SELECT 1' });
  await executeTool('a_tool_registered_at_run_time' as string, { anything: 1 });
  const readFromAFile: string = 'tinybird_query';
  await executeTool(readFromAFile, { anything: 1 });
  await executeTool(getTool('tinybird_query'), { ...base, query: 'SELECT 1' });
  getBlock('workflow').resolve({ operation: 'list_logs' });
  getBlock('workflow').resolve({ operation: 'list_logs' as string });
  mockServices().reply('loops_send_event', {}).fail('tinybird_query', 'rate_limited').calls('loops_send_event');
  mockServices().calls(readFromAFile);

  // Wrong.
  await executeTool('tinybird_query', { ...base, qeury: 'SELECT 1' }); // error at qeury: 'qeury' does not exist
  await executeTool('tinybird_query', { ...base, query: 42 }); // error at query: Type 'number' is not assignable to type 'string'
  await executeTool('tinybird_query', { ...base }); // error at { ...base }: Property 'query' is missing
  await runTool(query, { ...base, qeury: 'x' }); // error at qeury: 'qeury' does not exist
  await runTool(queryPipe, { ...base, pipelin: 'top_events' }); // error at pipelin: 'pipelin' does not exist
  await executeTool(query, { ...base, query: 'SELECT 1', wait: true }); // error at wait: 'wait' does not exist
  await executeTool(queryPipe, { ...base }); // error at { ...base }: Property 'pipe' is missing
  await executeTool('tinybird_querry', { ...base, query: 'SELECT 1' }); // error at 'tinybird_querry': no tool with id 'tinybird_querry'
  getTool('loops_find_contacts'); // error at 'loops_find_contacts': no tool with id 'loops_find_contacts'
  getBlock('workflow').resolve({ operation: 'list_log' }); // error at operation: no operation 'list_log' in this block
  mockServices().reply('loops_send_events', {}); // error at 'loops_send_events': no tool with id 'loops_send_events'
  mockServices().fail('tinybird_querry', 'rate_limited'); // error at 'tinybird_querry': no tool with id 'tinybird_querry'
  mockServices().calls('loops_send_evnt'); // error at 'loops_send_evnt': no tool with id 'loops_send_evnt'
}
