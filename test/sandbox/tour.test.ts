import { expect, it } from 'vitest';
import { main } from '../../src/satellites/cli/main.js';
import { startSandbox } from '../../src/satellites/sandbox/index.js';
import { runTour, startTourServer } from '../../src/satellites/sandbox/tour.js';

it('flowblocks sandbox --tour --once runs every block end to end and exits 0', async () => {
  let stdout = '';
  let stderr = '';
  const code = await main(['sandbox', '--tour', '--once', '--port', '0', '--tinybird-port', '0', '--loops-port', '0', '--workflow-port', '0'], {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    stdin: async () => '',
  });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toContain('The tour passed.');
  expect(stdout).not.toContain('✗');
  for (const block of ['tinybird', 'loops', 'workflow']) expect(stdout).toMatch(new RegExp(`✓ ${block}`));
  expect(stdout).toMatch(/Completion webhook: workflow\.execution\.completed for wf_signup_pipeline, signature verified/);
}, 60_000);

it('refuses bad options with exit code 2', async () => {
  let stderr = '';
  const io = { stdout: () => {}, stderr: (s: string) => (stderr += s), stdin: async () => '' };
  expect(await main(['sandbox', '--fault', 'nowhere:429=1'], io)).toBe(2);
  expect(stderr).toMatch(/--fault names a service/);
  expect(await main(['sandbox', '--port', 'x'], io)).toBe(2);
});

it('the tour removes the webhook receiver it configured', async () => {
  const files = await startTourServer();
  const sb = await startSandbox({ servicePorts: false, tinybird: { importFrom: [files.origin] } });
  try {
    expect(await runTour(sb, () => {}, files)).toBe(true);
    const url = `${sb.admin.workflow}/workspaces/${sb.credentials.workflow.workspaceId}/notifications`;
    // Nothing left to delete: the tour's own DELETE already ran.
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(404);
  } finally {
    await sb.close();
  }
}, 60_000);
