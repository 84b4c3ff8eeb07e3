#!/usr/bin/env bash
# Installs Debian's chromium for the audit serve browser test
# (internal/auditweb TestBrowser) when it is missing. In CI (CI set) a
# failed install fails; elsewhere it says so and the test skips itself.
exec "$(dirname "$0")/debian-package.sh" chromium chromium "the audit serve browser test"
