package otelcoltest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

// Span is one span as the collector's file exporter wrote it, its
// attribute values as strings.
type Span struct {
	TraceID, SpanID, ParentSpanID string
	Name                          string
	Kind                          int
	Attrs                         map[string]string
	Events                        []SpanEvent
	Links                         []string // span ids linked to
	StatusCode                    int      // 0 unset, 1 ok, 2 error
	StatusMessage                 string
	Resource                      map[string]string
}

// SpanEvent is one event of a Span.
type SpanEvent struct {
	Name  string
	Attrs map[string]string
}

// otlpValue is an OTLP JSON AnyValue (the kinds the bridge sends).
type otlpValue struct {
	StringValue *string                       `json:"stringValue"`
	IntValue    *json.Number                  `json:"intValue"`
	BoolValue   *bool                         `json:"boolValue"`
	ArrayValue  *struct{ Values []otlpValue } `json:"arrayValue"`
}

func (v otlpValue) String() string {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.IntValue != nil:
		return v.IntValue.String()
	case v.BoolValue != nil:
		return strconv.FormatBool(*v.BoolValue)
	case v.ArrayValue != nil:
		var b bytes.Buffer
		for i, e := range v.ArrayValue.Values {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(e.String())
		}
		return b.String()
	}
	return ""
}

type otlpAttrs []struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

func (a otlpAttrs) m() map[string]string {
	out := map[string]string{}
	for _, kv := range a {
		out[kv.Key] = kv.Value.String()
	}
	return out
}

type otlpTraces struct {
	ResourceSpans []struct {
		Resource struct {
			Attributes otlpAttrs `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Spans []struct {
				TraceID      string    `json:"traceId"`
				SpanID       string    `json:"spanId"`
				ParentSpanID string    `json:"parentSpanId"`
				Name         string    `json:"name"`
				Kind         int       `json:"kind"`
				Attributes   otlpAttrs `json:"attributes"`
				Events       []struct {
					Name       string    `json:"name"`
					Attributes otlpAttrs `json:"attributes"`
				} `json:"events"`
				Links []struct {
					SpanID string `json:"spanId"`
				} `json:"links"`
				Status struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"status"`
			} `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

// Spans parses the spans the file exporter wrote so far.
func (c *Collector) Spans() []Span {
	c.t.Helper()
	f, err := os.Open(c.TracesFile())
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []Span
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var req otlpTraces
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			continue // a line still being written
		}
		for _, rs := range req.ResourceSpans {
			res := rs.Resource.Attributes.m()
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					sp := Span{TraceID: s.TraceID, SpanID: s.SpanID, ParentSpanID: s.ParentSpanID, Name: s.Name, Kind: s.Kind,
						Attrs: s.Attributes.m(), StatusCode: s.Status.Code, StatusMessage: s.Status.Message, Resource: res}
					for _, e := range s.Events {
						sp.Events = append(sp.Events, SpanEvent{Name: e.Name, Attrs: e.Attributes.m()})
					}
					for _, l := range s.Links {
						sp.Links = append(sp.Links, l.SpanID)
					}
					out = append(out, sp)
				}
			}
		}
	}
	return out
}

// WaitSpans waits until the spans received satisfy ok, and returns them;
// it fails the test after a minute.
func (c *Collector) WaitSpans(ok func([]Span) bool) []Span {
	c.t.Helper()
	return waitFor(c, c.Spans, ok, func() string {
		data, _ := os.ReadFile(c.TracesFile())
		return fmt.Sprintf("the spans expected in 60s; its file exporter wrote:\n%s\nit printed:\n%s", tail(string(data), 4000), tail(c.Output(), 2000))
	})
}
