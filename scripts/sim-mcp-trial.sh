#!/usr/bin/env bash
# Sim's own MCP client (apps/sim/lib/mcp/client.ts, the SDK's
# StreamableHTTPClientTransport as Sim wraps it) against `flowblocks mcp --http`, with header
# values written as Sim's Settings → MCP Tools takes them ({{VAR}}) and resolved by Sim's own
# resolver from workspace variables. Lists the tools and calls one against the sandbox. Then an
# Agent block runs one of the tools through Sim's DAGExecutor with a stub model (Sim's agent
# handler, executeTool's MCP branch, the /api/mcp/tools/execute route and mcpService; see
# scripts/sim-mcp-trial/in-sim/), and neither Sim's trace and logs nor our server's log hold a
# secret. Needs a Sim checkout with its dependencies installed, and bun; the in-Sim test file is
# copied into apps/sim for the run and removed after.
#
#   scripts/sim-mcp-trial.sh <sim-checkout>        (BUN: default bun on PATH)
set -euo pipefail

SIM=$(cd "${1:?usage: scripts/sim-mcp-trial.sh <sim-checkout>}" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
BUN=${BUN:-bun}
WORK=$(mktemp -d)
[ -f "$SIM/apps/sim/lib/mcp/client.ts" ] || { echo "sim-mcp-trial: $SIM has no apps/sim/lib/mcp/client.ts" >&2; exit 2; }
echo "Sim $(git -C "$SIM" rev-parse --short HEAD) ($(git -C "$SIM" log -1 --format=%cs)), bun $("$BUN" --version)"

(cd "$REPO" && exec node --import tsx scripts/sim-mcp-trial-server.ts >"$WORK/server.json" 2>"$WORK/server.log") &
SERVER=$!
IN_SIM="$SIM/apps/sim/flowblocks-mcp-agent.test.ts"
trap 'kill -TERM $SERVER 2>/dev/null || true; rm -f "$IN_SIM"; rm -rf "$WORK"' EXIT
for _ in $(seq 60); do [ -s "$WORK/server.json" ] && break; sleep 0.5; done
[ -s "$WORK/server.json" ] || { cat "$WORK/server.log" >&2; exit 1; }

cat >"$WORK/sim-client.ts" <<TS
import { McpClient } from '$SIM/apps/sim/lib/mcp/client.ts'
import { resolveEnvVarReferences } from '$SIM/apps/sim/executor/utils/reference-validation.ts'

const { url, vars } = JSON.parse(await Bun.file('$WORK/server.json').text())
// As typed into Sim's form: every value a workspace variable.
const headers = {
  Authorization: 'Bearer {{FLOWBLOCKS_MCP_TOKEN}}',
  'X-Workflow-Api-Key': '{{WORKFLOW_API_KEY}}',
  'X-Workflow-Base-Url': '{{WORKFLOW_BASE_URL}}',
}
const resolved = resolveEnvVarReferences(headers, vars, { deep: true }) as Record<string, string>
const client = new McpClient({ config: { id: 'flowblocks', name: 'flowblocks', transport: 'streamable-http', url, headers: resolved } })
await client.connect()
const tools = (await client.listTools()).map((tool) => tool.name)
const run = await client.callTool({ name: 'workflow_execute', arguments: { workflowId: 'wf_signup_pipeline', inputs: { email: 'ada@example.com', firstName: 'Ada', userId: 'u1' } } })
const logs = await client.callTool({ name: 'workflow_list_logs', arguments: { workspaceId: 'ws_sandbox', limit: 5 } })
await client.disconnect()
console.log(JSON.stringify({ tools, run, logs, key: vars.WORKFLOW_API_KEY }))
TS
# Sim's modules open no database here, but one of them asks for its URL at import.
OUT=$(cd "$WORK" && DATABASE_URL=postgres://trial:trial@127.0.0.1:1/trial "$BUN" run sim-client.ts 2>"$WORK/client.log" | tail -1)
node -e '
const { tools, run, logs, key } = JSON.parse(process.argv[1]);
const fail = (why) => { console.error(`sim-mcp-trial: FAILED: ${why}`); process.exit(1); };
if (!tools.includes("workflow_list_logs")) fail(`tools listed: ${tools}`);
if (run.isError) fail(`workflow_execute: ${JSON.stringify(run.content)}`);
const data = logs.structuredContent?.output?.data ?? [];
if (!data.some((log) => log.workflowId === "wf_signup_pipeline")) fail(`no log of the run: ${JSON.stringify(logs.content)}`);
if (JSON.stringify({ run, logs }).includes(key)) fail("the key came back in a result");
console.log(`sim-mcp-trial: the McpClient of Sim listed ${tools.length} tools and ran workflow_execute and workflow_list_logs (${data.length} logs) with {{VAR}} headers: passed`);
' "$OUT"

# An Agent block through Sim's DAGExecutor; vitest from Sim's root, as Sim runs its own tests.
cp "$REPO/scripts/sim-mcp-trial/in-sim/flowblocks-mcp-agent.test.ts" "$IN_SIM"
(cd "$SIM/apps/sim" && FLOWBLOCKS_MCP_TRIAL="$WORK/server.json" nice -n 10 "$SIM/node_modules/.bin/vitest" run flowblocks-mcp-agent.test.ts --testTimeout=120000 >"$WORK/agent.log" 2>&1) \
  || { grep -vE '^\s*$' "$WORK/agent.log" | tail -40 >&2; echo "sim-mcp-trial: FAILED: the Agent block run" >&2; exit 1; }
grep -o 'flowblocks mcp trial: .*' "$WORK/agent.log" | sed 's/^/sim-mcp-trial: /'
grep -E 'Duration' "$WORK/agent.log" | sed 's/\x1b\[[0-9;]*m//g; s/^ */sim-mcp-trial: vitest /'
# Our server's own log of both runs holds no secret either, in any encoding.
node -e '
const fs = require("fs");
const { vars } = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const log = fs.readFileSync(process.argv[2], "utf8");
const forms = [vars.FLOWBLOCKS_MCP_TOKEN, vars.WORKFLOW_API_KEY].flatMap((s) => [s, encodeURIComponent(s), Buffer.from(s).toString("base64")]);
if (forms.some((form) => log.includes(form))) { console.error("sim-mcp-trial: FAILED: a secret in the server log"); process.exit(1); }
console.log(`sim-mcp-trial: server log (${log.length} bytes): no secret`);
' "$WORK/server.json" "$WORK/server.log"
echo "sim-mcp-trial: passed"
