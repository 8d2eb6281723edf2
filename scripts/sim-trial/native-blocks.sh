#!/usr/bin/env bash
# Step 4b of the Sim trial (issue 39, item 5): the blocks as Sim integrations, as docs/engines.md
# steps 2 and 6 say. `flowblocks sim-blocks .` (the installed package's command) writes the native
# block files, their icons and registry lines; its --check goes into the root package.json
# (so check:audits runs it); Sim's docs generator then writes the pages, icon maps and catalog
# entries, which docs:check and integration-catalog:check keep. Run after tool-metadata:generate
# (the pages' tool headings come from it). Prints the files it changed.
#
#   scripts/sim-trial/native-blocks.sh <sim-checkout> <bun>
set -euo pipefail
SIM=$1
BUN=$2
cd "$SIM"
FLOWBLOCKS=node_modules/.bin/flowblocks
[ -x "$FLOWBLOCKS" ] || FLOWBLOCKS=apps/sim/node_modules/.bin/flowblocks
echo "\$ flowblocks sim-blocks . ($FLOWBLOCKS)"
"$FLOWBLOCKS" sim-blocks . | sed 's/^/  /'
echo "\$ flowblocks sim-blocks . (again: nothing to write)"
"$FLOWBLOCKS" sim-blocks . | sed 's/^/  /'
node -e '
  const fs = require("fs");
  const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
  p.scripts["check:flowblocks-blocks"] = "flowblocks sim-blocks . --check";
  fs.writeFileSync("package.json", JSON.stringify(p, null, 2) + "\n");'
echo 'package.json: "check:flowblocks-blocks": "flowblocks sim-blocks . --check"'
echo "\$ bun run scripts/generate-docs.ts"
nice -n 10 "$BUN" run scripts/generate-docs.ts >/tmp/sim-native-generate-docs.log 2>&1 || { tail -30 /tmp/sim-native-generate-docs.log; exit 1; }
grep -E 'flowblocks|✓ (Integration|Icon|Generated icon)' /tmp/sim-native-generate-docs.log | grep -v 'Getting info' | sed 's/^/  /' | head -20
echo "changed by steps 2 and 6 (git status):"
git status --short | sed 's/^/  /'
echo "the catalog's entries:"
node -e '
  const { integrations } = require("./packages/deployment-config/src/integrations.json");
  for (const e of integrations.filter((e) => e.type.startsWith("flowblocks_")))
    console.log(`  ${e.type}: ${e.name}, ${e.integrationType}, ${e.authType}, ${e.operationCount} operations, ${e.docsUrl}`);'
