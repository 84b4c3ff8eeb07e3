package otelexport

import (
	"log/slog"
	"strings"
	"time"
)

// orDefault is v, or d when v is zero or negative: what the configs'
// "Optional; if zero, Default…" fields mean.
func orDefault[T int | time.Duration](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}

// orDiscard is lg, or a logger that discards when lg is nil.
func orDiscard(lg *slog.Logger) *slog.Logger {
	if lg == nil {
		return slog.New(slog.DiscardHandler)
	}
	return lg
}

// transport lists the options that point an OTLP/HTTP exporter (logs or
// traces: withURL and withHeaders are its package's) at endpoint, a base
// URL as OTEL_EXPORTER_OTLP_ENDPOINT names one, joined with the signal's
// path (/v1/logs, /v1/traces), and add headers. What is empty is left out,
// so that the SDK reads the OTEL_EXPORTER_OTLP_* variables for it.
func transport[O any](endpoint, path string, headers map[string]string,
	withURL func(string) O, withHeaders func(map[string]string) O) []O {
	var opts []O
	if endpoint != "" {
		opts = append(opts, withURL(strings.TrimSuffix(endpoint, "/")+path))
	}
	if len(headers) > 0 {
		opts = append(opts, withHeaders(headers))
	}
	return opts
}
