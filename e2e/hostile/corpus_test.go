package hostile

import (
	"fmt"
	"os"
	"strings"
)

// corpusFile is the governance engine's command corpus: one case per line,
// DECISION<TAB>PROOF<TAB>COMMAND (see its README). Every deny line proven
// in a shell is a command that really runs if it gets through; the suite
// sends each one through the real bridge as a terminal/create.
const corpusFile = "../../internal/governance/testdata/commands/commands.txt"

// loadCorpus turns the corpus's proven deny lines into cases. A line proven
// in both shells runs under bash or sh in turn (the engine's own tests run
// both), one proven in bash only under bash.
func loadCorpus(path string) ([]hostileCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the command corpus the suite replays: %v", err)
	}
	var cases []hostileCase
	both := 0
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want DECISION<TAB>PROOF<TAB>COMMAND", path, i+1)
		}
		if f[0] != "deny" || (f[1] != "both" && f[1] != "bash") {
			continue
		}
		variant := "js"
		if f[1] == "both" {
			if both%2 == 1 {
				variant = "sh"
			}
			both++
		}
		cmd, err := corpusUnescape(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		// Braces in a command must not read as placeholders.
		q := strings.ReplaceAll(jsonString(cmd), "{{", "{{x:7b}}{")
		cases = append(cases, hostileCase{
			name:  fmt.Sprintf("corpus/line%d", i+1),
			file:  fmt.Sprintf("%s:%d", "commands.txt", i+1),
			ides:  []string{variant},
			lines: []string{`{"jsonrpc":"2.0","id":"g1","method":"terminal/create","params":{"sessionId":"{{SID}}","command":` + q + `,"args":[],"cwd":"{{WS}}"}}`},
		})
	}
	return cases, nil
}

// corpusUnescape reads the corpus's escapes: \n, \t and \\.
func corpusUnescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			return "", fmt.Errorf("a backslash ends the command")
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		default:
			return "", fmt.Errorf("unknown escape \\%c", s[i])
		}
	}
	return b.String(), nil
}
