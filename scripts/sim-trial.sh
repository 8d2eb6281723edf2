#!/usr/bin/env bash
# The Sim trial (issues 29, 39): flowblocks inside a real Sim checkout, wired as docs/engines.md
# says, judged by what Sim's CI runs on a change to blocks and tools (check:audits, lint:check and
# the type check of the touched files, the block-registry check, the registry tests) and run
# through Sim's executeTool, outbound guard, Agent block and DAGExecutor against the sandbox.
# Needs the npm registry and a Sim checkout whose dependencies
# are installed (`bun install --frozen-lockfile --ignore-scripts` at its root), so it does not
# run in CI. The figures of the last run are in docs/testing.md ("The Sim trial").
#
#   scripts/sim-trial.sh <sim-checkout>
#
# Environment: BUN (default: bun on PATH), FLOWBLOCKS_TARBALL (default: `npm pack` of this
# repository), SANDBOX_PORT (default 4177), SIM_TRIAL_AFTER_INSTALL (a command run in the
# installed package's directory after install: a local workaround, recorded with the figures),
# SIM_TRIAL_STANDINS (packages Sim's lockfile pins that the registry lacks, installed from npm
# beside Sim and linked into its node_modules when absent; default below).
set -euo pipefail

SIM=$(cd "${1:?usage: scripts/sim-trial.sh <sim-checkout>}" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
BUN=${BUN:-bun}
PORT=${SANDBOX_PORT:-4177}
WORK=$(mktemp -d)
APP="$SIM/apps/sim"
step() { printf '\n== %s\n' "$*"; }

[ -d "$APP" ] || { echo "sim-trial: $SIM has no apps/sim: not a Sim checkout" >&2; exit 2; }
[ -d "$SIM/node_modules" ] || { echo "sim-trial: install Sim's dependencies first (bun install --frozen-lockfile --ignore-scripts in $SIM)" >&2; exit 2; }
step "Sim $(git -C "$SIM" rev-parse HEAD) ($(git -C "$SIM" log -1 --format=%s | cut -c1-60)), bun $("$BUN" --version)"

step "1. the packed tarball"
TARBALL=${FLOWBLOCKS_TARBALL:-}
if [ -z "$TARBALL" ]; then
  (cd "$REPO" && npm pack --silent --pack-destination "$WORK" >/dev/null)
  TARBALL=$(ls "$WORK"/flowblocks-*.tgz)
fi
echo "$TARBALL ($(wc -c <"$TARBALL") bytes)"

step "2. install it in apps/sim (bun add)"
# bun add resolves the whole workspace again; packages the registry lacks (Sim's lockfile pins a
# few) fail it after everything else is in place, so the exit status is read from the result.
(cd "$APP" && "$BUN" add "$TARBALL" --ignore-scripts) || true
PKG="$SIM/node_modules/flowblocks"
[ -f "$APP/node_modules/flowblocks/package.json" ] && PKG="$APP/node_modules/flowblocks"
[ -f "$PKG/package.json" ] || { echo "sim-trial: flowblocks was not installed" >&2; exit 1; }
echo "installed $(node -p "require('$PKG/package.json').version") in $PKG; zod there: $(cd "$APP" && node -p "require('zod/package.json').version")"
# docs/engines.md, step 1: bun add of a tarball can leave package.json and bun.lock as they were.
if git -C "$SIM" diff --quiet -- apps/sim/package.json bun.lock; then
  echo "bun add left apps/sim/package.json and bun.lock unchanged (docs/engines.md, step 1: add the dependency by hand)"
else
  echo "bun add recorded flowblocks in apps/sim/package.json / bun.lock"
fi
if [ -n "${SIM_TRIAL_AFTER_INSTALL:-}" ]; then
  echo "after install: $SIM_TRIAL_AFTER_INSTALL"
  (cd "$PKG" && bash -c "$SIM_TRIAL_AFTER_INSTALL")
fi

step "2b. stand-ins for what Sim's lockfile pins and the registry lacks"
# Sim pins @aws-sdk/client-appconfigdata@3.1032.0 (not on the registry) and xlsx from a CDN;
# Sim's lib/core/config/appconfig.ts and a few tests import them. The nearest registry versions serve.
STANDINS=${SIM_TRIAL_STANDINS:-@aws-sdk/client-appconfigdata@3.1041.0 xlsx@0.18.5}
for spec in $STANDINS; do
  name=${spec%@*}
  if [ -L "$SIM/node_modules/$name" ]; then echo "$name: linked by an earlier run ($(readlink "$SIM/node_modules/$name"))"; continue; fi
  if [ -e "$SIM/node_modules/$name" ]; then echo "$name: Sim's own"; continue; fi
  npm install --silent --prefix "$SIM/../.sim-trial-standins" --no-audit --no-fund --ignore-scripts "$spec"
  mkdir -p "$(dirname "$SIM/node_modules/$name")"
  ln -s "$(cd "$SIM/../.sim-trial-standins/node_modules/$name" && pwd)" "$SIM/node_modules/$name"
  echo "$name: linked $spec"
done

step "3. the registry lines and new files of docs/engines.md"
(cd "$REPO" && node --import tsx scripts/sim-trial/apply-registry.ts "$SIM")

step "3b. the id check of docs/engines.md, step 5: its package.json line and its committed snapshot"
(cd "$SIM" && node -e '
  const fs = require("fs");
  const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
  p.scripts["check:flowblocks-ids"] = "bun run apps/sim/scripts/check-flowblocks-ids.ts";
  fs.writeFileSync("package.json", JSON.stringify(p, null, 2) + "\n");')
(cd "$SIM" && "$BUN" run apps/sim/scripts/check-flowblocks-ids.ts --write && node_modules/.bin/biome format --write apps/sim/scripts/flowblocks-ids.json >/dev/null && echo "wrote apps/sim/scripts/flowblocks-ids.json")

step "4. bun run tool-metadata:generate (tool-metadata.ts, tool-outputs.ts, tool-ids.ts)"
(cd "$SIM" && "$BUN" run tool-metadata:generate | tail -1)

step "4b. the blocks as Sim integrations: flowblocks sim-blocks, then Sim's docs generator"
"$REPO/scripts/sim-trial/native-blocks.sh" "$SIM" "$BUN"
cp "$REPO/scripts/sim-trial/in-sim/flowblocks-trial.test.ts" "$APP/flowblocks-trial.test.ts"

# The files the fork's change touches: lint:check and the type check are judged on them.
TOUCHED=(apps/sim/blocks/blocks/flowblocks_tinybird.ts apps/sim/blocks/blocks/flowblocks_loops.ts apps/sim/blocks/blocks/flowblocks_workflow.ts
  apps/sim/components/icons.tsx apps/sim/tools/flowblocks.ts apps/sim/blocks/registry-maps.ts apps/sim/tools/registry.ts
  apps/sim/scripts/check-flowblocks-ids.ts apps/sim/scripts/flowblocks-ids.json apps/sim/flowblocks-trial.test.ts package.json)

status=0
check() { local name=$1; shift; printf '\n-- %s\n' "$name"; if "$@"; then echo "PASS $name"; else echo "FAIL $name"; status=1; fi; }

# Every check:* script (canvas sentences with --require-coverage, the boundaries, the id check
# above, …) and the tool-metadata, deployment-config, integration-catalog and docs checks.
audits() {
  local rc=0
  (cd "$SIM" && nice -n 10 "$BUN" run check:audits >"$WORK/audits.log" 2>&1) || rc=$?
  grep -E '^(✓|✗) ' "$WORK/audits.log" | sed 's/^/  /'
  grep -A15 '^✗ ' "$WORK/audits.log" | head -60
  return "$rc"
}
lint_touched() { (cd "$SIM" && node_modules/.bin/biome check "${TOUCHED[@]}" 2>&1 | tail -3; exit "${PIPESTATUS[0]}"); }
# Sim's type-check is `tsc --noEmit` in apps/sim. This checkout lacks the @aws-sdk clients the
# registry does not serve, so the whole run has errors in the files that import them: the check
# is that no touched file has one (their paths, relative to apps/sim, never appear).
type_check() {
  (cd "$APP" && nice -n 10 ../../node_modules/.bin/tsc --noEmit -p tsconfig.json >"$WORK/tsc.log" 2>&1) || true
  local files
  files=$(grep 'error TS' "$WORK/tsc.log" | cut -d'(' -f1 | sort -u)
  echo "tsc: $(grep -c 'error TS' "$WORK/tsc.log") errors in $(echo "$files" | grep -c .) files, none touched by the fork (the @aws-sdk clients this install lacks; lib/auth/auth.ts, two copies of better-auth's types):"
  echo "$files" | sed 's/^/  /' | head -30
  local touched
  for touched in "${TOUCHED[@]}"; do
    if echo "$files" | grep -qxF "${touched#apps/sim/}"; then echo "a touched file has a type error: $touched"; return 1; fi
  done
  grep -q 'error TS2307' "$WORK/tsc.log" || [ -z "$files" ]
}
block_registry() { (cd "$SIM" && "$BUN" run apps/sim/scripts/check-block-registry.ts HEAD 2>&1 | tail -8; exit "${PIPESTATUS[0]}"); }

step "5. Sim's CI checks"
check "check:audits" audits
check "check-block-registry HEAD" block_registry
check "lint:check (biome) of the touched files" lint_touched
check "type check (tsc --noEmit, apps/sim) of the touched files" type_check

step "6. Sim's registry tests"
VITEST="$SIM/node_modules/.bin/vitest"
# Sim's tests over its block and tool registries and the serializer: blocks/**, tools/*.test.ts, serializer/**.
# A 60 s time limit per test instead of Sim's 10 s: on a loaded shared machine Sim's own
# "contains no function values" (a walk over 5 000 tools' metadata) took 25 s.
registry_tests() { (cd "$APP" && nice -n 10 "$VITEST" run --maxWorkers=2 --testTimeout=60000 blocks/ serializer/ $(ls tools/*.test.ts) 2>&1 | grep -E 'FAIL|Test Files|Tests |Duration'; exit "${PIPESTATUS[0]}"); }
check "sim registry tests" registry_tests

step "7. flowblocks through Sim's executeTool, guard, Agent block and DAGExecutor, against the sandbox"
(cd "$REPO" && exec node --import tsx scripts/sim-trial/sandbox.ts "$PORT" >"$WORK/sandbox.log" 2>&1) &
SANDBOX_PID=$!
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 120); do curl -fsS "http://127.0.0.1:$PORT/" >/dev/null 2>&1 && break; sleep 1; done
curl -fsS "http://127.0.0.1:$PORT/" >/dev/null || { cat "$WORK/sandbox.log"; echo "sim-trial: the sandbox did not start" >&2; exit 1; }
in_sim() {
  (cd "$APP" && FLOWBLOCKS_SANDBOX_URL="http://127.0.0.1:$PORT" FLOWBLOCKS_LOOPS_URL="http://127.0.0.1:$PORT/loops/api/v1" \
    "$VITEST" run flowblocks-trial.test.ts 2>&1 | grep -E 'flowblocks trial:|✓|✗|×|FAIL|Tests|Error'; exit "${PIPESTATUS[0]}")
}
check "flowblocks trial in Sim" in_sim

step "result"
[ "$status" = 0 ] && echo "sim-trial: every check and test passed" || echo "sim-trial: something failed (above)"
exit "$status"
