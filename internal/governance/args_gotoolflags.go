package governance

import (
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// go passes the value of -gcflags, -ldflags, -asmflags and -gccgoflags
// ("[pattern=]flags") to the compiler, linker and assembler it runs, and
// those take flags that write files and run programs: "go test
// -gcflags=-cpuprofile=/elsewhere/p ./..." has the compiler write
// /elsewhere/p, "go test -ldflags='-linkmode=external -extld=./evil'"
// has the linker run ./evil. A rule allowing go test vouches for go, not
// for what such a list makes its tools do, and the list is one word the
// bridge does not read as the tools do. So a go command given such a list
// needs approval unless every flag in it is one the bridge knows writes
// and runs nothing (goToolQuietFlags): -gcflags='all=-N -l', -ldflags='-s
// -w -X main.version=1.2'.

// goToolLists are the go flags whose value is a list of a tool's flags.
var goToolLists = setOf("gcflags", "ldflags", "asmflags", "gccgoflags")

// goToolQuietFlags are the compiler's and linker's flags that write no
// file and run no program, with whether they take a value (the next
// field, or after "="): -N, -l, -m (-m=2), -S, -w, -s, -e, -B, -C,
// -race, -X importpath.name=value, -buildid id, -lang version.
var goToolQuietFlags = map[string]bool{"N": false, "l": false, "m": false, "S": false, "w": false, "s": false,
	"e": false, "B": false, "C": false, "race": false, "X": true, "buildid": true, "lang": true}

// goToolFlagsVerdict is the verdict on a go command of c given a tool flag
// list that holds a flag the bridge does not know to be quiet.
func goToolFlagsVerdict(c *shellcmd.Command) (verdict, bool) {
	for _, form := range c.Forms {
		if form[0].Kind != shellcmd.Static || form[0].Name() != "go" {
			continue
		}
		if list, bad, ok := goToolFlagsProblem(form); ok {
			return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("running go with -%s %s: go passes the list to the compiler or linker it runs, which writes the files and runs the programs such flags name (%s)", list, bad, bad)}, true
		}
	}
	return verdict{}, false
}

// goToolFlagsProblem returns the first tool flag list of the go command
// form (and the flag in it) that is not known to be quiet.
func goToolFlagsProblem(form []shellcmd.Word) (list, bad string, ok bool) {
	for i := 2; i < len(form); i++ {
		w := form[i]
		if w.Kind == shellcmd.Static && w.Text == "--" {
			break
		}
		if w.Kind != shellcmd.Static || len(w.Text) < 2 || w.Text[0] != '-' {
			continue
		}
		name := optionName(w.Text)
		if name == "args" {
			break // the test binary's words
		}
		if !goToolLists[name] {
			continue
		}
		value := ""
		if _, v, attached := strings.Cut(w.Text, "="); attached {
			value = v
		} else if i+1 < len(form) {
			i++
			if form[i].Kind != shellcmd.Static {
				return name, form[i].String(), true
			}
			value = form[i].Text
		}
		if bad := goToolListProblem(value); bad != "" {
			return name, bad, true
		}
	}
	return "", "", false
}

// goToolListProblem returns the first flag of a tool flag list value
// ("[pattern=]flags", split as go splits it) not known to be quiet, ""
// when there is none.
func goToolListProblem(value string) string {
	v := strings.TrimSpace(value)
	if v == "" {
		return ""
	}
	if v[0] != '-' {
		_, rest, ok := strings.Cut(v, "=")
		if !ok {
			return v
		}
		v = rest
	}
	fields, ok := splitQuotedFields(v)
	if !ok {
		return v
	}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 2 || f[0] != '-' {
			return f
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(f[1:], "-"), "=")
		takes, known := goToolQuietFlags[name]
		switch {
		case !known:
			return f
		case takes && !hasVal:
			if i+1 >= len(fields) {
				return f
			}
			i++
		case !takes && hasVal && strings.Trim(val, "0123456789") != "" && val != "true" && val != "false":
			return f
		}
	}
	return ""
}

// splitQuotedFields splits s as go splits a flag list: at spaces, a field
// that starts with a quote running to the same quote; ok is false when a
// quote is not closed or is followed by more text.
func splitQuotedFields(s string) (fields []string, ok bool) {
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return fields, true
		}
		if q := s[0]; q == '"' || q == '\'' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return nil, false
			}
			fields = append(fields, s[1:1+end])
			s = s[end+2:]
			if s != "" && !strings.ContainsRune(" \t\n\r", rune(s[0])) {
				return nil, false
			}
			continue
		}
		end := strings.IndexAny(s, " \t\n\r")
		if end < 0 {
			end = len(s)
		}
		fields = append(fields, s[:end])
		s = s[end:]
	}
}
