#!/usr/bin/env bash
# Installs the pinned ACP peers of the end-to-end suite (package-lock.json)
# into e2e/node_modules. Idempotent: does nothing when the installed tree
# already matches the lock file.
#
# Install scripts are not run (--ignore-scripts): the peers work without them,
# and the only packages that have one (node-pty and @github/keytar, optional
# dependencies of Gemini CLI) would compile native code or fetch prebuilt
# binaries from outside the npm registry. Gemini CLI falls back to its own
# shell execution and file-based credential storage without them.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "e2e/install.sh: node and npm are needed (Node.js >= 20)" >&2
	exit 1
fi
stamp=node_modules/.e2e-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" && -x node_modules/.bin/gemini && -x node_modules/.bin/claude-agent-acp ]]; then
	exit 0
fi
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
echo "$want" >"$stamp"
