#!/usr/bin/env bash
# Installs Debian's zsh for e2e/hostile's zsh IDE variant (terminals run
# as zsh -i -c, as Zed runs them for a person whose shell is zsh) when it
# is missing. In CI (CI set) a failed install fails; elsewhere it says so,
# and the cases that run under zsh fail until it is installed.
exec "$(dirname "$0")/debian-package.sh" zsh zsh "e2e/hostile's zsh variant"
