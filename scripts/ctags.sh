#!/usr/bin/env bash
# Installs Debian's universal-ctags for e2e/hostile's ctags cases (ctags
# reads option files no word of the line names) when ctags is missing. In
# CI (CI set) a failed install fails; elsewhere it says so, and the cases
# that run ctags fail until it is installed.
exec "$(dirname "$0")/debian-package.sh" ctags universal-ctags "e2e/hostile's ctags cases"
