// Package otelexport sends an audit log (internal/audit) to an
// OpenTelemetry collector over OTLP/HTTP, one log record per audit event,
// and checks a local log against what a collector received (anchored
// verification).
//
// The local log stays the source of truth. An Exporter reads the log files
// (rotated ones included) from the position recorded in a cursor file next
// to the log, sends them in order in bounded batches, and moves the cursor
// only once the collector has acknowledged a batch: delivery is at least
// once, and exactly once as seen by (run id, seq) unless an acknowledgement
// is lost in flight. The bridge never waits on the exporter: it writes the
// log; the exporter reads it.
package otelexport
