/**
 * Run by compiled.test.ts under `--disallow-code-generation-from-strings`: prints whether
 * `compiled()` handed the schema back as it is, and what the schema then answers.
 */
import { compiled } from '../../../src/harness/run/compiled.js';
import { getTool } from '../../../src/index.js';

const params = getTool('tinybird_query')!.params;
const fast = compiled(params);
process.stdout.write(
  JSON.stringify({
    handedBack: fast === params,
    parsed: fast.safeParse({ base_url: 'https://api.tinybird.co', token: 'p.t', query: '  SELECT 1  ' }).data,
    issues: fast.safeParse({}).error?.issues.map((issue) => issue.path.join('.')),
  }),
);
