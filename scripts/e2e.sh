#!/usr/bin/env bash
# Runs the end-to-end suite: real ACP agents (Claude Code, Gemini CLI) and a
# real ACP client, directly and through acp-bridge, offline against the fake
# model server (see e2e/doc_test.go), then e2e/hostile's check against the
# TypeScript SDK (the rest of e2e/hostile runs in every go test ./...).
#
#   scripts/e2e.sh                 run the suite
#   scripts/e2e.sh -run TestCrash  pass flags to go test ./e2e/
#   scripts/e2e.sh -update         rewrite testdata/transcripts from this run
#
# ACP_BRIDGE_BIN names the bridge to test (scripts/test.sh passes the one it
# built); without it the script builds one.
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
if [[ -z ${ACP_BRIDGE_BIN:-} ]]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo "== e2e: building acp-bridge"
	go build -o "$tmp/acp-bridge" ./cmd/acp-bridge
	export ACP_BRIDGE_BIN="$tmp/acp-bridge"
fi
echo "== e2e: installing the ACP peers (npm ci)"
e2e/install.sh
echo "== e2e: go test"
# The timeout only ends a hung run: on a loaded machine each real agent
# waits for a core.
ACP_BRIDGE_E2E=1 go test -count=1 -timeout 40m "${gotest[@]}" ./e2e/ "${update[@]}"
# e2e/hostile runs in every go test ./... (scripts/test.sh); only its check
# of the suite's JavaScript reader against the TypeScript SDK needs node.
echo "== e2e: e2e/hostile against the TypeScript SDK"
ACP_BRIDGE_E2E=1 go test -count=1 -run '^TestJSReaderMatchesSDK$' ./e2e/hostile/
