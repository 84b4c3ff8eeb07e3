package otelexport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// Point is one anchored position of a chain, as a collector received it:
// an exported event or checkpoint of the log named Log said that the event
// with Seq had Hash.
type Point struct {
	Log   string `json:"log"`
	Seq   int64  `json:"seq"`
	Hash  string `json:"hash"`
	RunID string `json:"runId,omitempty"`
}

// maxAnchorLine is the longest anchor line read (a file exporter writes a
// whole request on one line).
const maxAnchorLine = 256 << 20

// ReadAnchor reads the points of a JSONL anchor: lines in the OTLP JSON
// form a collector's file exporter writes ({"resourceLogs": ...}), whose
// log records carry AttrLog, AttrSeq and AttrHash, or lines that are a
// Point ({"log", "seq", "hash"}). Other lines fail: an anchor that cannot
// be read must not pass for an empty one.
func ReadAnchor(r io.Reader) ([]Point, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var out []Point
	for n := 1; ; n++ {
		line, err := readAnchorLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			ps, perr := anchorLine(line)
			if perr != nil {
				return nil, fmt.Errorf("anchor line %d: %w", n, perr)
			}
			out = append(out, ps...)
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("anchor line %d: %w", n, err)
		}
	}
}

func readAnchorLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxAnchorLine {
			return nil, fmt.Errorf("longer than %d bytes", maxAnchorLine)
		}
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// otlpLine is the part of an OTLP JSON export request an anchor reads.
type otlpLine struct {
	ResourceLogs []struct {
		ScopeLogs []struct {
			LogRecords []struct {
				Attributes []struct {
					Key   string `json:"key"`
					Value struct {
						StringValue *string      `json:"stringValue"`
						IntValue    *json.Number `json:"intValue"`
					} `json:"value"`
				} `json:"attributes"`
			} `json:"logRecords"`
		} `json:"scopeLogs"`
	} `json:"resourceLogs"`
}

func anchorLine(line []byte) ([]Point, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(line, &probe); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if _, ok := probe["resourceLogs"]; !ok {
		var p Point
		_, hasSeq := probe["seq"]
		if err := json.Unmarshal(line, &p); err != nil || !hasSeq || p.Hash == "" || p.Log == "" {
			return nil, errors.New(`neither an OTLP JSON export ({"resourceLogs": ...}) nor a checkpoint ({"log", "seq", "hash"})`)
		}
		return []Point{p}, nil
	}
	var o otlpLine
	if err := json.Unmarshal(line, &o); err != nil {
		return nil, fmt.Errorf("OTLP JSON: %v", err)
	}
	var out []Point
	for _, rl := range o.ResourceLogs {
		for _, sl := range rl.ScopeLogs {
			for _, lr := range sl.LogRecords {
				var p Point
				seen := 0
				for _, a := range lr.Attributes {
					v := a.Value
					switch {
					case a.Key == AttrLog && v.StringValue != nil:
						p.Log, seen = *v.StringValue, seen|1
					case a.Key == AttrHash && v.StringValue != nil:
						p.Hash, seen = *v.StringValue, seen|2
					case a.Key == AttrSeq && v.IntValue != nil:
						n, err := strconv.ParseInt(v.IntValue.String(), 10, 64)
						if err != nil {
							return nil, fmt.Errorf("%s %q is not an integer", AttrSeq, v.IntValue.String())
						}
						p.Seq, seen = n, seen|4
					case a.Key == AttrRunID && v.StringValue != nil:
						p.RunID = *v.StringValue
					}
				}
				if seen == 7 {
					out = append(out, p)
				}
			}
		}
	}
	return out, nil
}

// AnchorResult is what an anchored verification found.
type AnchorResult struct {
	// Matched is the number of anchor points of the log found in it
	// with the same hash.
	Matched int
	// Anchored is the highest anchored seq; events after it are not
	// covered by the anchor (yet).
	Anchored int64
	// Older is the number of anchor points before the first event given
	// (their files were not given, or were removed); CheckAnchor fails
	// when there are any.
	Older int
}

// CheckAnchor compares the events of a verified chain (entries, with sum
// from the same read) with the anchor points of the log named logName.
// It fails when the anchor holds no point of that log, when an anchored
// event is missing at the end (truncation) or has another hash (the chain
// was recomputed), or when the anchor itself holds two hashes for one seq.
func CheckAnchor(points []Point, logName string, entries []audit.Entry, sum *audit.Summary) (*AnchorResult, error) {
	anchored := map[int64]string{}
	for _, p := range points {
		if p.Log != logName {
			continue
		}
		if h, ok := anchored[p.Seq]; ok && h != p.Hash {
			return nil, fmt.Errorf("the anchor holds two different hashes for seq %d of %s: it cannot vouch for this log", p.Seq, audit.Printable(logName))
		}
		anchored[p.Seq] = p.Hash
	}
	if len(anchored) == 0 {
		return nil, fmt.Errorf("the anchor holds no checkpoint of %s (is it the log the collector received?)", audit.Printable(logName))
	}
	local := make(map[int64]string, len(entries))
	for i := range entries {
		local[entries[i].Seq] = entries[i].Hash
	}
	res := &AnchorResult{Anchored: -1}
	var missing []int64
	for _, seq := range slices.Sorted(maps.Keys(anchored)) {
		h := anchored[seq]
		res.Anchored = max(res.Anchored, seq)
		if sum.Records > 0 && seq < sum.FirstSeq {
			res.Older++
			continue
		}
		got, ok := local[seq]
		switch {
		case !ok:
			missing = append(missing, seq)
		case got != h:
			return res, fmt.Errorf("seq %d has hash %s in the log but %s in the anchor: the log was rewritten at or before seq %d", seq, got, h, seq)
		default:
			res.Matched++
		}
	}
	if res.Older > 0 {
		return res, fmt.Errorf("the anchor has %d events before seq %d, where the files given start: give the older files too (or they were removed)", res.Older, sum.FirstSeq)
	}
	if len(missing) > 0 {
		last := int64(-1)
		if sum.Records > 0 {
			last = sum.LastSeq
		}
		return res, fmt.Errorf("the anchor has events up to seq %d but the log ends at seq %d: events were removed from its end", res.Anchored, last)
	}
	return res, nil
}
