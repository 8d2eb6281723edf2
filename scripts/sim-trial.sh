#!/usr/bin/env bash
# The Sim trial (issue 29): flowblocks inside a real Sim checkout, wired as docs/engines.md says,
# judged by Sim's own tests and CI checks, and run through Sim's executeTool and DAGExecutor
# against the flowblocks sandbox. Needs the npm registry and a Sim checkout whose dependencies
# are installed (`bun install --frozen-lockfile --ignore-scripts` at its root), so it does not
# run in CI. The figures of the last run are in docs/engines.md ("The Sim trial").
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
  if [ -e "$SIM/node_modules/$name" ]; then echo "$name: Sim's own"; continue; fi
  npm install --silent --prefix "$SIM/../.sim-trial-standins" --no-audit --no-fund --ignore-scripts "$spec"
  mkdir -p "$(dirname "$SIM/node_modules/$name")"
  ln -s "$(cd "$SIM/../.sim-trial-standins/node_modules/$name" && pwd)" "$SIM/node_modules/$name"
  echo "$name: linked $spec"
done

step "3. the registry lines of docs/engines.md"
(cd "$REPO" && node --import tsx scripts/sim-trial/apply-registry.ts "$SIM")

step "4. bun run tool-metadata:generate"
(cd "$SIM" && "$BUN" run tool-metadata:generate | tail -1)

status=0
check() { local name=$1; shift; printf '\n-- %s\n' "$name"; if "$@"; then echo "PASS $name"; else echo "FAIL $name"; status=1; fi; }

step "5. Sim's checks"
check "tool-metadata:check" bash -c "cd '$SIM' && '$BUN' run tool-metadata:check 2>&1 | tail -3"
check "check-block-registry" bash -c "cd '$SIM' && '$BUN' run apps/sim/scripts/check-block-registry.ts HEAD 2>&1 | tail -8; exit \${PIPESTATUS[0]}"
check "check-integration-catalog" bash -c "cd '$SIM' && '$BUN' run scripts/check-integration-catalog.ts 2>&1 | tail -5; exit \${PIPESTATUS[0]}"

step "6. Sim's registry tests"
VITEST="$SIM/node_modules/.bin/vitest"
# Sim's tests over its block and tool registries and the serializer: blocks/**, tools/*.test.ts, serializer/**.
# A 60 s time limit per test instead of Sim's 10 s: on a loaded shared machine Sim's own
# "contains no function values" (a walk over 5 000 tools' metadata) took 25 s.
check "sim registry tests" bash -c "cd '$APP' && nice -n 10 '$VITEST' run --maxWorkers=2 --testTimeout=60000 blocks/ serializer/ \$(ls tools/*.test.ts) 2>&1 | grep -E 'FAIL|Test Files|Tests |Duration'; exit \${PIPESTATUS[0]}"

step "7. flowblocks through executeTool and DAGExecutor, against the sandbox"
(cd "$REPO" && exec node --import tsx src/satellites/cli/index.ts sandbox --port "$PORT" --no-service-ports >"$WORK/sandbox.log" 2>&1) &
SANDBOX_PID=$!
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 120); do curl -fsS "http://127.0.0.1:$PORT/" >/dev/null 2>&1 && break; sleep 1; done
curl -fsS "http://127.0.0.1:$PORT/" >/dev/null || { cat "$WORK/sandbox.log"; echo "sim-trial: the sandbox did not start" >&2; exit 1; }
cp "$REPO/scripts/sim-trial/in-sim/flowblocks-trial.test.ts" "$APP/flowblocks-trial.test.ts"
check "flowblocks trial in Sim" bash -c "cd '$APP' && FLOWBLOCKS_SANDBOX_URL=http://127.0.0.1:$PORT FLOWBLOCKS_LOOPS_URL=http://127.0.0.1:$PORT/loops/api/v1 '$VITEST' run flowblocks-trial.test.ts 2>&1 | grep -E 'flowblocks trial:|✓|✗|×|FAIL|Tests|Error' ; exit \${PIPESTATUS[0]}"

step "result"
[ "$status" = 0 ] && echo "sim-trial: every check and test passed" || echo "sim-trial: something failed (above)"
exit "$status"
