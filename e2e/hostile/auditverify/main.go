// Command auditverify verifies audit logs for the hostile suite
// (e2e/hostile), one log per line of its input, as "acp-bridge audit verify
// --genesis LOG" does: the log must verify (audit.Verify) and, when it holds
// events, its chain must start at GENESIS. For each path it prints one line
// of JSON, {"ok":true} or {"ok":false,"problem":"..."}.
//
// The suite starts it once and asks it about every run's log, so that a
// run does not start a process of its own for the check: the suite's test
// binary, which every run starts twice more as the IDE and the agent, does
// not link the audit package and its JSON Schema compiler.
//
//	$ printf '%s\n' ws/audit/audit-log.jsonl | auditverify
//	{"ok":true}
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// answer is what auditverify prints for one log.
type answer struct {
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		if err := out.Encode(verify(in.Text())); err != nil {
			fmt.Fprintln(os.Stderr, "auditverify:", err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "auditverify:", err)
		os.Exit(1)
	}
}

// verify checks one log as "acp-bridge audit verify --genesis" does.
func verify(path string) answer {
	sum, err := audit.Verify(path)
	switch {
	case err != nil:
		return answer{Problem: err.Error()}
	case sum.Records > 0 && !sum.Genesis:
		return answer{Problem: fmt.Sprintf("%s:1: the chain starts at seq %d, not at GENESIS", path, sum.FirstSeq)}
	}
	return answer{OK: true}
}
