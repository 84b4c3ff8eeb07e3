#!/usr/bin/env bash
# The soak benchmark of docs/performance.md: long turns of mixed agent
# traffic through the built bridge with each feature set, IDE (the driver),
# bridge and fake agent as separate processes. It prints, per run, the
# bridge's peak RSS (VmHWM), its CPU time (utime+stime) per message and the
# stream's wall time against a direct pipe measured in the same run.
#
#   scripts/soak.sh            the matrix: one turn of 10k and 50k prose-like,
#                              50k and 200k run-like messages, then 20
#                              sessions of 5 turns of 10k prose-like
#   scripts/soak.sh million    one turn of 1,000,000 run-like messages with
#                              everything on, RSS sampled every 50,000
#   scripts/soak.sh -- ARGS    acp-soak with ARGS (see go run ./cmd/acp-soak -h)
#
#   BRIDGE=path     measure that acp-bridge binary instead of building this tree
#   FEATURES=list   feature sets for the matrix (default none,policy+audit,compress,all)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
if [[ -z ${BRIDGE:-} ]]; then
	go build -o "$bin/acp-bridge" ./cmd/acp-bridge
	BRIDGE=$bin/acp-bridge
fi
go build -o "$bin/acp-soak" ./cmd/acp-soak
features=${FEATURES:-none,policy+audit,compress,all}
soak() { "$bin/acp-soak" -bridge "$BRIDGE" -policy "$PWD/GOVERNANCE.md" "$@"; }
echo "# $(date -u +%FT%TZ) $(nproc) cores, bridge $BRIDGE"
case ${1:-matrix} in
matrix)
	soak -features "$features" -mix prose -messages 10000
	soak -features "$features" -mix prose -messages 50000
	soak -features "$features" -mix runs -messages 50000
	soak -features "$features" -mix runs -messages 200000
	soak -features "$features" -mix prose -messages 10000 -turns 5 -sessions 20
	;;
million)
	soak -features all -mix runs -messages 1000000 -sample 50000 -timeout 40m
	;;
--)
	shift
	soak "$@"
	;;
*)
	echo "usage: scripts/soak.sh [matrix|million|-- acp-soak args]" >&2
	exit 2
	;;
esac
