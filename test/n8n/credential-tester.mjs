/**
 * Runs n8n's own "Test credential" on the package's credentials, in n8n's code: its
 * `CredentialsTester` (`getCredentialTestFunction`, then `runRequestTest`: the request through
 * n8n's `RoutingNode` and HTTP client, the credential applied by n8n's `CredentialsHelper`, the
 * test's `rules` evaluated), on n8n's Node. Only the run's base data (`getBase`, which reads
 * n8n's database) and the registries n8n's loader fills are given here.
 *
 * node credential-tester.mjs <n8n node_modules> <package dir> '<[{type, data}]>' → JSON results
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const [n8nModules, packageDir, cases] = process.argv.slice(2);
// n8n and the package are CommonJS, loaded as n8n loads them.
const require = createRequire(import.meta.url);
const fromN8n = (module) => require(path.join(n8nModules, module));
fromN8n('reflect-metadata');
const additionalData = fromN8n('n8n/dist/workflow-execute-additional-data.js');
const { CredentialsHelper } = fromN8n('n8n/dist/credentials-helper.js');
const { CredentialsTester } = fromN8n('n8n/dist/services/credentials-tester.service.js');
const { NoOp } = fromN8n('n8n-nodes-base/dist/nodes/NoOp/NoOp.node.js');

async function main() {
  // The package's credential classes, loaded from its "n8n" list as n8n's loader does.
  const credentials = new Map();
  const { n8n } = require(path.join(packageDir, 'package.json'));
  for (const file of n8n.credentials) {
    for (const Type of Object.values(require(path.join(packageDir, file)))) {
      const type = new Type();
      credentials.set(type.name, type);
    }
  }
  const credentialTypes = { getByName: (name) => credentials.get(name), getSupportedNodes: () => [], getParentTypes: () => [] };
  const noOp = new NoOp();
  // A declarative test runs on n8n's NoOp node.
  const nodeTypes = { getByNameAndVersion: (name) => (name === 'n8n-nodes-base.noOp' ? noOp : undefined), getByName: () => undefined };
  const helper = new CredentialsHelper(credentialTypes);
  // 1.x's `testCredentials` first applies the instance's credential overwrites, read from n8n's
  // DI container (none are configured here): the data as given, as 2.x's `runRequestTest` takes it.
  helper.applyDefaultsAndOverwrites = async (_additionalData, data) => data;
  additionalData.getBase = async ({ userId, currentNodeParameters } = {}) => ({ credentialsHelper: helper, userId, currentNodeParameters, variables: {} });
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const tester = new CredentialsTester(quiet, { error() {} }, credentialTypes, nodeTypes, helper);
  const results = [];
  for (const { type, data } of JSON.parse(cases)) {
    const test = tester.getCredentialTestFunction(type);
    if (!test) {
      results.push({ status: 'Error', message: 'No testing function found for this credential.' });
      continue;
    }
    const decrypted = { id: 'c1', name: type, type, data };
    // 2.x splits the request test out (`runRequestTest`); 1.x has only the whole `testCredentials`.
    results.push(tester.runRequestTest ? await tester.runRequestTest('user', type, decrypted, test, 'default') : await tester.testCredentials('user', type, decrypted));
  }
  // Exits once written: each n8n 1.x ExecuteContext starts its SSH clients manager's 60 s
  // clean-up interval, which would hold this process open for good.
  process.stdout.write(JSON.stringify(results), () => process.exit(0));
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
