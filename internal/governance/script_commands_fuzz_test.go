package governance

import (
	"strings"
	"testing"
)

// FuzzShellScriptText: reading a file's first line for the interpreter
// it names never panics, a file whose "#!" names sh or bash by path is a
// shell script, and one whose "#!" names python3 is not.
func FuzzShellScriptText(f *testing.F) {
	for _, s := range []string{"", "#!", "#!/bin/sh\nrm x", "#!/usr/bin/env -S bash -e\n", "#!/usr/bin/env python3\n", "rm x\n", "\x7fELF\x00\x00", "#! /bin/bash -x\n", "#!/usr/bin/env A=1 dash"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		shellScriptText(rest)
		tail := strings.TrimLeft(rest, " \t\n")
		if strings.ContainsAny(tail, " \t\n") || tail == "" {
			return
		}
		if !shellScriptText("#!/bin/sh\n" + rest) {
			t.Errorf("#!/bin/sh then %q: not a shell script", rest)
		}
		if shellScriptText("#!/usr/bin/python3\n" + rest) {
			t.Errorf("#!/usr/bin/python3 then %q: a shell script", rest)
		}
	})
}
