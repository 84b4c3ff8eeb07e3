#!/usr/bin/env bash
# Usage: scripts/debian-package.sh COMMAND PACKAGE WHAT
# Installs Debian's PACKAGE with apt-get when COMMAND is missing, for WHAT
# (the tests that need it). In CI (CI set) a failed install fails; elsewhere
# it says so, and those tests fail or skip as they say.
set -euo pipefail
command=$1 package=$2 what=$3
if command -v "$command" >/dev/null 2>&1; then
	exit 0
fi
echo "== $package: installing (apt-get install -y $package) for $what"
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "$package"; }; then
	if [[ -n ${CI:-} ]]; then
		echo "$package could not be installed; $what must run in CI" >&2
		exit 1
	fi
	echo "$package could not be installed: $what will not run" >&2
fi
