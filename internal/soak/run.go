package soak

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// Features is a set of bridge features a soak run turns on.
type Features int

// The feature sets of the soak matrix. The bridge's embedded ACP.md
// manifest is in force in every one (the bridge always applies it).
const (
	// None is the pass-through bridge.
	None Features = iota
	// PolicyAudit is --policy with --audit.
	PolicyAudit
	// Compress is --compress on.
	Compress
	// All is every feature: policy, audit and compression.
	All
)

// AllFeatures lists the feature sets in matrix order.
var AllFeatures = []Features{None, PolicyAudit, Compress, All}

// String names the feature set as ParseFeatures accepts it.
func (f Features) String() string {
	switch f {
	case PolicyAudit:
		return "policy+audit"
	case Compress:
		return "compress"
	case All:
		return "all"
	}
	return "none"
}

// ParseFeatures returns the feature set named s.
func ParseFeatures(s string) (Features, error) {
	for _, f := range AllFeatures {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown feature set %q: want none, policy+audit, compress or all", s)
}

// Config describes a soak run.
type Config struct {
	// Bridge is the path of a built acp-bridge; required for Bridged.
	Bridge string
	// Agent is the command that starts the fake agent (ServeAgent) with
	// the mix and the number of messages per turn; required.
	Agent []string
	// Policy is the GOVERNANCE.md file for PolicyAudit and All.
	Policy string
	// Dir is where the audit log and the compression cache go; required
	// for Bridged.
	Dir string
	// Sessions and Turns: Sessions sessions of Turns turns each; optional,
	// zero means 1.
	Sessions, Turns int
	// SampleEvery is how many messages the driver reads between two RSS
	// samples of the bridge; optional, zero means no samples.
	SampleEvery int
	// Timeout bounds the whole run; optional, zero means 10 minutes.
	Timeout time.Duration
}

// Sample is the bridge's resident set after Messages messages.
type Sample struct {
	Messages int64
	RSSKB    int64
}

// Result is what a run measured.
type Result struct {
	// Messages is the number of messages the driver read.
	Messages int64
	// Wall is the time from the first prompt to the last turn's result.
	Wall time.Duration
	// CPU is the bridge's own utime+stime from the first prompt to its
	// exit (work it put off past the last turn included), not its agent's;
	// zero for a direct run.
	CPU time.Duration
	// PeakRSSKB is the bridge's VmHWM (its peak resident set) in KiB when
	// the last turn ended, not its agent's; zero for a direct run.
	PeakRSSKB int64
	// Samples are the bridge's VmRSS every SampleEvery messages.
	Samples []Sample
}

// Direct runs the turns against the agent with no bridge in between.
func Direct(cfg Config) (Result, error) {
	return drive(cfg, cfg.Agent, false)
}

// Bridged runs the turns through the bridge with features f.
func Bridged(cfg Config, f Features) (Result, error) {
	if cfg.Bridge == "" || cfg.Dir == "" {
		return Result{}, errors.New("soak: Bridge and Dir are required")
	}
	args := []string{cfg.Bridge, "--log-level", "error"}
	if f == PolicyAudit || f == All {
		if cfg.Policy == "" {
			return Result{}, errors.New("soak: Policy is required for " + f.String())
		}
		args = append(args, "--policy", cfg.Policy, "--audit", filepath.Join(cfg.Dir, "audit.jsonl"))
	}
	if f == Compress || f == All {
		args = append(args, "--compress", "on", "--cache-dir", filepath.Join(cfg.Dir, "cache"))
	}
	args = append(append(args, "--"), cfg.Agent...)
	return drive(cfg, args, true)
}

// drive starts argv, plays the IDE and measures.
func drive(cfg Config, argv []string, bridged bool) (Result, error) {
	if len(argv) == 0 {
		return Result{}, errors.New("soak: no agent command")
	}
	sessions, turns := max(cfg.Sessions, 1), max(cfg.Turns, 1)
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	cmd.Dir = cfg.Dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return Result{}, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return Result{}, err
	}
	if err := cmd.Start(); err != nil {
		return Result{}, fmt.Errorf("starting %s: %v", argv[0], err)
	}
	d := &driver{in: bufio.NewWriter(in), out: bufio.NewReaderSize(outPipe, 1<<20), pid: cmd.Process.Pid, sampleEvery: int64(cfg.SampleEvery), bridged: bridged}
	res, err := d.session(sessions, turns, cfg.Dir)
	if bridged {
		res.PeakRSSKB = procKB(d.pid, "VmHWM")
	}
	in.Close()
	_, _ = io.Copy(io.Discard, outPipe)
	// The bridge's rusage as it is reaped would add its agent's CPU (a
	// child it reaped) to its own: its own is read from its CPU clock once
	// it has exited, before it is reaped.
	var cpuErr error
	if bridged {
		var cpu time.Duration
		if cpu, cpuErr = cpuAtExit(d.pid); cpuErr == nil {
			res.CPU = cpu - d.cpuAtStart
		}
	}
	werr := cmd.Wait()
	if ctx.Err() != nil {
		return res, fmt.Errorf("soak run timed out after %v (%d messages read)", timeout, d.n)
	}
	if err != nil {
		return res, err
	}
	if werr != nil {
		return res, fmt.Errorf("%s exited: %v", filepath.Base(argv[0]), werr)
	}
	if cpuErr != nil {
		return res, fmt.Errorf("soak: the bridge's CPU time: %v", cpuErr)
	}
	if bridged && (d.cpuAtStart < 0 || res.PeakRSSKB < 0) {
		return res, errors.New("soak: the bridge's CPU time or peak RSS could not be read from /proc")
	}
	return res, nil
}

// driver is the IDE side of a run.
type driver struct {
	in          *bufio.Writer
	out         *bufio.Reader
	pid         int
	bridged     bool
	sampleEvery int64
	nextID      int
	n           int64 // messages read during turns
	samples     []Sample
	cpuAtStart  time.Duration
}

func (d *driver) session(sessions, turns int, cwd string) (Result, error) {
	if _, err := d.call("initialize", `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}}`); err != nil {
		return Result{}, err
	}
	cwdJSON, _ := json.Marshal(cwd)
	var wall time.Duration
	for s := 0; s < sessions; s++ {
		res, err := d.call("session/new", `{"cwd":`+string(cwdJSON)+`,"mcpServers":[]}`)
		if err != nil {
			return Result{}, err
		}
		var r struct {
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(res, &r); err != nil || r.SessionID == "" {
			return Result{}, fmt.Errorf("session/new result %s: no sessionId", res)
		}
		sid, _ := json.Marshal(r.SessionID)
		for t := 0; t < turns; t++ {
			if s == 0 && t == 0 && d.bridged {
				d.cpuAtStart = procCPU(d.pid)
			}
			start := time.Now()
			if _, err := d.call("session/prompt", `{"sessionId":`+string(sid)+`,"prompt":[{"type":"text","text":"go on"}]}`); err != nil {
				return Result{}, err
			}
			wall += time.Since(start)
		}
	}
	return Result{Messages: d.n, Wall: wall, Samples: d.samples}, nil
}

var updatePrefix = []byte(`{"jsonrpc":"2.0","method":"session/update"`)

// call sends a request and reads messages until its response, counting and
// sampling on the way; it answers any request the bridge sends with a
// method-not-found error.
func (d *driver) call(method, params string) (json.RawMessage, error) {
	d.nextID++
	id := d.nextID
	fmt.Fprintf(d.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
	if err := d.in.Flush(); err != nil {
		return nil, fmt.Errorf("%s: writing: %v", method, err)
	}
	want := strconv.Itoa(id)
	for {
		line, err := d.readLine()
		if err != nil {
			return nil, fmt.Errorf("%s: reading (after %d messages): %v", method, d.n, err)
		}
		if method == "session/prompt" {
			d.n++
			if d.sampleEvery > 0 && d.n%d.sampleEvery == 0 && d.bridged {
				d.samples = append(d.samples, Sample{Messages: d.n, RSSKB: procKB(d.pid, "VmRSS")})
			}
		}
		if bytes.HasPrefix(line, updatePrefix) {
			continue
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("%s: undecodable message %.200q: %v", method, line, err)
		}
		switch {
		case m.Method != "" && m.ID != nil:
			fmt.Fprintf(d.in, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"not supported by the soak driver"}}`+"\n", m.ID)
			if err := d.in.Flush(); err != nil {
				return nil, err
			}
		case m.Method == "" && string(m.ID) == want:
			if m.Error != nil {
				return nil, fmt.Errorf("%s: error %s", method, m.Error)
			}
			return m.Result, nil
		}
	}
}

// readLine returns the next line, however long; the slice is valid until
// the next read.
func (d *driver) readLine() ([]byte, error) {
	line, err := d.out.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	long := append([]byte(nil), line...)
	for err == bufio.ErrBufferFull {
		line, err = d.out.ReadSlice('\n')
		long = append(long, line...)
	}
	return long, err
}
