#!/usr/bin/env bash
# The project's test command (README: "Run the tests").
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== gofmt"; test -z "$(gofmt -l $(git ls-files '*.go'))" || { gofmt -l $(git ls-files '*.go'); exit 1; }
echo "== go vet"; go vet ./...
echo "== go test"; go test -count=1 ./...
