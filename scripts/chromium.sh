#!/usr/bin/env bash
# Installs Debian's chromium for the audit serve browser test
# (internal/auditweb TestBrowser) when it is missing. In CI (CI set) a
# failed install fails; elsewhere it says so and the test skips itself.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
	exit 0
fi
echo "== chromium: installing (apt-get install -y chromium) for the browser test"
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }; then
	if [[ -n ${CI:-} ]]; then
		echo "chromium could not be installed; the browser test must run in CI" >&2
		exit 1
	fi
	echo "chromium could not be installed: the audit serve browser test will be skipped" >&2
fi
