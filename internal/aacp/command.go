package aacp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// CommandEncoder is a tier-3 Encoder that runs an external program, for
// instance a script that asks a language model: the instruction is written to
// the program's stdin, and the first non-blank line of its stdout is the
// packet. A non-zero exit status is an error, reported with the end of the
// program's stderr.
type CommandEncoder struct {
	Path string   // the program
	Args []string // its arguments
	// Timeout bounds one run; if zero, 60 seconds.
	Timeout time.Duration
}

// Name returns "command:" and the program's base name, the source recorded
// in the registry.
func (c *CommandEncoder) Name() string { return "command:" + filepath.Base(c.Path) }

// limitedBuffer keeps the first max bytes written to it and drops the rest,
// so a runaway program cannot exhaust memory.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

// Write keeps what fits and reports everything written, so the program
// never sees a write error.
func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Encode runs the program once for the instruction.
func (c *CommandEncoder) Encode(ctx context.Context, instruction string) (*Packet, error) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Path, c.Args...)
	cmd.Stdin = strings.NewReader(instruction + "\n")
	stdout := &limitedBuffer{max: MaxPacketBytes + 2}
	stderr := &limitedBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			return nil, fmt.Errorf("%s: %v: %s", c.Name(), err, msg)
		}
		return nil, fmt.Errorf("%s: %v", c.Name(), err)
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		p, ds := Parse(line)
		if err := ds.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name(), err)
		}
		return p, nil
	}
	return nil, errors.New(c.Name() + ": printed no packet")
}
