#!/usr/bin/env bash
# The measurements of docs/performance.md, each section the commands its
# figures come from. Run it on a quiet machine; it prints the machine, the
# build and each benchmark's output.
#
#   scripts/perf.sh              every section but million (about 5 minutes on 2 cores)
#   scripts/perf.sh wire soak    only the sections named
#
# Sections: wire, soak, governance, audit, compression, bounds, accp, aacp,
# viewer, otel, and million (one turn of 1,000,000 messages; not run unless
# named).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

bench() { # bench PACKAGE PATTERN BENCHTIME [go test flags...]
	local pkg=$1 pattern=$2 benchtime=$3
	shift 3
	echo "\$ go test -run '^\$' -bench '$pattern' -benchtime $benchtime $* $pkg"
	go test -run '^$' -bench "$pattern" -benchtime "$benchtime" "$@" "$pkg" | grep -E '^(Benchmark|ok|FAIL|--- FAIL)|ns/op'
}

verbose() { # verbose PACKAGE TEST: a test that prints what it measured
	echo "\$ go test -count=1 -run '$2' -v $1"
	go test -count=1 -run "$2" -v "$1" | grep -vE '^(=== RUN|=== PAUSE|=== CONT)'
}

soak() {
	echo "\$ acp-soak -bridge acp-bridge -policy GOVERNANCE.md $*"
	"$bin/acp-soak" -bridge "$bin/acp-bridge" -policy "$PWD/GOVERNANCE.md" "$@"
}

wire() {
	bench ./cmd/acp-bridge 'Stream200k$|RoundTrip|64MiB' 3x
	bench ./cmd/acp-bridge 'Stream200kRelays' 2x
	bench ./cmd/acp-bridge 'StreamMix' 4x
	bench ./internal/acpwire 'Forward|StrictToolUpdate' 1s -benchmem
}

soakSection() {
	for mix in prose runs; do
		for round in 1 2 3; do
			soak -features none,policy+audit,compress,all -mix "$mix" -messages 200000
		done
	done
	soak -features compress,all -mix prose -messages 10000 -turns 5 -sessions 20
}

million() {
	soak -features none,all -mix runs -messages 1000000 -sample 100000 -timeout 40m
}

governance() {
	bench ./internal/governance 'Stream$' 3x -count 3
	bench ./internal/governance 'EnforcePassThrough|Decide$|DecideSoak|JudgeSoak' 5000x -benchmem
	bench ./internal/adapter 'HookRoundTrip' 1s
	# Claude Code starts `acp-bridge hook` before each tool call: 100 starts
	# with a PreToolUse payload and no bridge listening (each reads the
	# payload, fails to connect and exits).
	echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}' >"$bin/payload.json"
	echo "\$ time (100 x acp-bridge hook --socket /nonexistent < payload.json)"
	local TIMEFORMAT='100 hook starts: %R s wall, %U s user, %S s system'
	time for _ in $(seq 100); do
		"$bin/acp-bridge" hook --socket "$bin/nonexistent" <"$bin/payload.json" >/dev/null 2>&1 || true
	done
}

audit() {
	bench ./internal/audit 'Append$|AppendSync$|AppendSoakRecords|ReadValidToolOutput|Verify|Watch' 1s -benchmem
}

compression() {
	bench ./internal/compress 'Stream$' 1x -count 3
	bench ./internal/compress 'UpdateMix' 10x
	bench ./internal/compress 'SpoolChunks|SaveArchive' 3x
	bench ./internal/tokens 'Count' 1x
	verbose ./internal/tokens 'TestCountCloseToExact'
	verbose ./internal/compress 'TestMeterSampleEstimate|TestTokensReachingAgent'
}

bounds() {
	verbose ./internal/governance 'TestManySessionsBounded'
	verbose ./internal/compress 'TestManySessionsMemoryBounded'
}

accp() {
	bench ./internal/accp 'EncodeDecode' 1s -cpu 1 -count 3
	echo "\$ acp-bridge accp stats testdata/transcripts/*.jsonl"
	"$bin/acp-bridge" accp stats testdata/transcripts/*.jsonl
}

aacp() {
	bench ./internal/aacp '.' 1s -benchmem -cpu 1
	verbose ./internal/aacp 'TestTokens'
}

viewer() {
	bench ./internal/auditweb 'OpenBigLog' 3x
	bench ./cmd/acp-bridge 'AuditServeBigLog' 3x
}

otel() {
	bench ./cmd/acp-bridge 'Stream200kAudit$|Stream200kAuditOTLP|Stream200kTraces' 2x
}

all=(wire soak governance audit compression bounds accp aacp viewer otel)
sections=("$@")
if ((${#sections[@]} == 0)); then
	sections=("${all[@]}")
fi
for s in "${sections[@]}"; do
	case " ${all[*]} million " in
	*" $s "*) ;;
	*)
		echo "perf.sh: no section $s (${all[*]} million)" >&2
		exit 2
		;;
	esac
done
go build -o "$bin/acp-bridge" ./cmd/acp-bridge
go build -o "$bin/acp-soak" ./cmd/acp-soak
echo "# $(date -u +%FT%TZ), $(git rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'), $(go version)"
echo "# $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for s in "${sections[@]}"; do
	echo
	echo "## $s"
	if [[ $s == soak ]]; then soakSection; else "$s"; fi
done
echo
echo "# done $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
