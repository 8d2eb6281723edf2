/**
 * The server side of scripts/sim-mcp-trial.sh: the sandbox and `serveMcpHttp` with a token,
 * the workflow service only, the sandbox's workflow URL allowed as a base URL header. Prints one
 * JSON line (the URL, and the workspace variables a Sim user would set) and serves until SIGTERM.
 */
import { serveMcpHttp } from '../src/hosts/agents/mcp-http/serve.js';
import { startSandbox } from '../src/satellites/sandbox/index.js';

const token = 'sim-trial-token-0123456789';
const sandbox = await startSandbox({ servicePorts: false });
const served = await serveMcpHttp({ port: 0, token, services: ['workflow'], allowBaseUrls: [sandbox.urls.workflow] });
const vars = { FLOWBLOCKS_MCP_TOKEN: token, WORKFLOW_API_KEY: sandbox.credentials.workflow.apiKey, WORKFLOW_BASE_URL: sandbox.urls.workflow };
process.stdout.write(`${JSON.stringify({ url: served.url, vars })}\n`);
process.once('SIGTERM', () => void Promise.all([served.close(), sandbox.close()]).then(() => process.exit(0)));
