/**
 * `npm run test:n8n`: the real-n8n tests (test/n8n/) once on each supported n8n, oldest first,
 * each install cached (scripts/n8n-host.ts). Prints each version's time; exits 1 when any run fails.
 */
import { spawnSync } from 'node:child_process';
import { SUPPORTED_N8N } from './n8n-host.js';

const only = process.env.N8N_VERSION;
let failed = false;
for (const version of only ? [only] : SUPPORTED_N8N) {
  const started = performance.now();
  const out = spawnSync('npx', ['vitest', 'run', '--project', 'n8n', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, N8N_VERSION: version },
  });
  console.log(`test:n8n on n8n ${version}: ${out.status === 0 ? 'passed' : 'FAILED'} in ${Math.round((performance.now() - started) / 1000)} s`);
  failed ||= out.status !== 0;
}
if (failed) process.exit(1);
