#!/usr/bin/env bash
# Host compatibility: the packed tarball, installed into a fresh project the way a
# host installs it, with the dependency versions a host may force, runs scripts/host-compat/suite.mjs
# (every service's tools, a success and a failure each, the Sim adapter's tool call,
# toolJsonSchema of every tool; undici's MockAgent answers, nothing leaves the machine):
#   sim     "overrides": { "zod": "4.3.6" }, as Sim's root package.json forces it
#   lowest  the lowest version of each runtime dependency's range in package.json
# Needs the npm registry (or its cache) for the installs. Prints the versions used.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# FLOWBLOCKS_TARBALL reuses a tarball packed already (.ci/run packs once for every app test).
if [ -n "${FLOWBLOCKS_TARBALL:-}" ]; then
  tarball=$(realpath "$FLOWBLOCKS_TARBALL")
else
  npm pack --silent --pack-destination "$work" >/dev/null
  tarball=$(ls "$work"/flowblocks-*.tgz)
fi
node scripts/host-compat/expected-schemas.mjs > "$work/expected-schemas.json"

# The lowest version a range admits: ranges are written ^X.Y.Z / ~X.Y.Z / >=X.Y.Z here.
lowest() {
  node -e '
    const range = require("./package.json").dependencies[process.argv[1]];
    const m = /^(?:\^|~|>=)?(\d+\.\d+\.\d+)$/.exec(range);
    if (!m) { console.error(`${process.argv[1]}: range ${range} is not ^X.Y.Z, ~X.Y.Z or >=X.Y.Z`); process.exit(1); }
    console.log(m[1]);' "$1"
}
zod_low=$(lowest zod)
undici_low=$(lowest undici)

run() { # name, overrides JSON, expected zod, expected undici
  local dir="$work/$1"
  mkdir -p "$dir"
  cp scripts/host-compat/suite.mjs "$work/expected-schemas.json" "$dir/"
  cat > "$dir/package.json" <<JSON
{ "name": "host-compat-$1", "private": true, "type": "module",
  "dependencies": { "flowblocks": "file:$tarball" },
  "overrides": $2 }
JSON
  echo "== $1: overrides $2"
  (cd "$dir" && npm install --silent --no-audit --no-fund --prefer-offline --ignore-scripts)
  (cd "$dir" && EXPECT_ZOD=$3 EXPECT_UNDICI=${4:-} node suite.mjs)
}

run sim '{ "zod": "4.3.6" }' 4.3.6
run lowest "{ \"zod\": \"$zod_low\", \"undici\": \"$undici_low\" }" "$zod_low" "$undici_low"
echo "host-compat: both runs passed in $(( $(date +%s) - started )) s"
