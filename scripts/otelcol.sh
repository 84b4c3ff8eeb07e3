#!/usr/bin/env bash
# Builds the OpenTelemetry Collector the telemetry tests run against (an OTLP
# receiver, the debug exporter and the contrib file exporter, versions pinned
# below) with the official builder, once, into a cache directory named by
# the manifest's hash, and prints the binary's path. Later runs print the
# cached path at once.
#
#   scripts/otelcol.sh          build when missing, print the path
#   scripts/otelcol.sh --cached print the path if built, else fail
#
# The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/acp-bridge/otelcol-<hash>/otelcol.
# The first build downloads modules and takes several minutes on 2 cores.
#
# The replace line: the file exporter's own tests import the OTLP encoding
# extension, which the module proxy does not serve at v0.165.0; the
# builder's go mod tidy needs it although the collector never links it, so
# the tidy resolves it at v0.161.0.
set -euo pipefail
builder_version=v0.165.0
manifest="dist:
  name: otelcol
  description: acp-bridge test collector
  output_path: OUTPUT
receivers:
  - gomod: go.opentelemetry.io/collector/receiver/otlpreceiver v0.165.0
exporters:
  - gomod: go.opentelemetry.io/collector/exporter/debugexporter v0.165.0
  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter v0.165.0
providers:
  - gomod: go.opentelemetry.io/collector/confmap/provider/fileprovider v1.71.0
conf_resolver:
  default_uri_scheme: file
replaces:
  - github.com/open-telemetry/opentelemetry-collector-contrib/extension/encoding/otlpencodingextension => github.com/open-telemetry/opentelemetry-collector-contrib/extension/encoding/otlpencodingextension v0.161.0
"
hash=$(printf '%s\n%s' "$builder_version" "$manifest" | sha256sum | cut -c1-16)
dir=${XDG_CACHE_HOME:-$HOME/.cache}/acp-bridge/otelcol-$hash
bin=$dir/otelcol
if [[ -x $bin ]]; then
	echo "$bin"
	exit 0
fi
if [[ ${1:-} == --cached ]]; then
	echo "the test collector is not built: run scripts/otelcol.sh" >&2
	exit 1
fi
mkdir -p "$dir"
work=$(mktemp -d "$dir/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "== otelcol: building the test collector into $dir (several minutes the first time)" >&2
GOBIN=$work/bin go install "go.opentelemetry.io/collector/cmd/builder@$builder_version" >&2
printf '%s' "${manifest/OUTPUT/$work/out}" >"$work/builder.yaml"
"$work/bin/builder" --config "$work/builder.yaml" >&2
mv "$work/out/otelcol" "$bin.tmp"
mv "$bin.tmp" "$bin"
echo "$bin"
