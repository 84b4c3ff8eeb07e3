#!/usr/bin/env bash
# Runs the end-to-end suite: real ACP agents (Claude Code, Gemini CLI) and a
# real ACP client, directly and through acp-bridge, offline against the fake
# model server. See e2e/doc_test.go.
#
#   scripts/e2e.sh                 run the suite
#   scripts/e2e.sh -run TestCrash  pass flags to go test
#   scripts/e2e.sh -update         rewrite testdata/transcripts from this run
#
# Without node it fails; outside CI, E2E_SKIP_NO_NODE=1 turns that into a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null; then
	if [[ ${CI:-} != true && ${E2E_SKIP_NO_NODE:-} == 1 ]]; then
		echo "e2e: node not found; skipped (E2E_SKIP_NO_NODE=1)"
		exit 0
	fi
	echo "e2e: node not found: the end-to-end suite needs Node.js >= 20 (outside CI, E2E_SKIP_NO_NODE=1 skips it)" >&2
	exit 1
fi
gotest=() update=()
for a in "$@"; do
	if [[ $a == -update ]]; then update=(-args -update); else gotest+=("$a"); fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== e2e: building acp-bridge"
go build -o "$tmp/acp-bridge" ./cmd/acp-bridge
echo "== e2e: installing the ACP peers (npm ci)"
e2e/install.sh
echo "== e2e: go test"
# The timeout only ends a hung run: the suite takes 13 to 16 minutes on 2
# cores at a load average of 40 to 70, each real agent waiting for a core.
ACP_BRIDGE_E2E=1 ACP_BRIDGE_BIN="$tmp/acp-bridge" go test -count=1 -timeout 40m "${gotest[@]}" ./e2e/... "${update[@]}"
