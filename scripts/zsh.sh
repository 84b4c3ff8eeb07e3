#!/usr/bin/env bash
# Installs Debian's zsh for e2e/hostile's zsh IDE variant (terminals run
# as zsh -i -c, as Zed runs them for a person whose shell is zsh) when it
# is missing. In CI (CI set) a failed install fails; elsewhere it says so,
# and the cases that run under zsh fail until it is installed.
set -euo pipefail
if command -v zsh >/dev/null 2>&1; then
	exit 0
fi
echo "== zsh: installing (apt-get install -y zsh) for e2e/hostile's zsh variant"
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y zsh; }; then
	if [[ -n ${CI:-} ]]; then
		echo "zsh could not be installed; e2e/hostile's zsh variant must run in CI" >&2
		exit 1
	fi
	echo "zsh could not be installed: e2e/hostile's zsh cases will fail" >&2
fi
