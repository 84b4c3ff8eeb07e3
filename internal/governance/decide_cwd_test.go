package governance

import (
	"sync"
	"testing"
)

// TestCommandDecisionsFollowCwd decides one command line again and again
// in directories where its relative names lead to different files: in a/
// notes.txt is a plain file, in b/ a link to .env. A reading of the line
// kept from an earlier decision (the shell grammar's, which depends on the
// text alone) must not carry where its names led: each decision resolves
// them against its own directory, and the file system as it is. Its
// steps are in testdata/cases/cwd_steps.txt.
func TestCommandDecisionsFollowCwd(t *testing.T) {
	root := t.TempDir()
	tree{dirs: []string{"b"}, files: []string{".env", "a/notes.txt"}, links: map[string]string{"b/notes.txt": "../.env"}}.make(t, root)
	e := NewEngine(testPolicy(t, "  default: allow\n  deny: [Read(**/.env)]\n"), EngineOptions{Roots: []string{root}})
	type step struct {
		line, dir string
		want      Value
	}
	steps := readCases(t, "cwd_steps.txt", 3, nil, func(c caseRow) step { return step{c.fields[0], c.fields[1], Value(c.fields[2])} })
	decide := func(line, dir string) Decision {
		return e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root + "/" + dir, Paths: []string{root + "/" + dir}})
	}
	for _, s := range steps {
		if d := decide(s.line, s.dir); d.Value != s.want {
			t.Errorf("%q in %s/: %v (ref %s: %s); want %v", s.line, s.dir, d.Value, d.Ref, d.Reason, s.want)
		}
	}
	// The same decisions from both directions' goroutines at once (run
	// with -race: what an engine keeps between decisions is shared).
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				s := steps[(g+i)%len(steps)]
				if d := decide(s.line, s.dir); d.Value != s.want {
					errs <- s.line + " in " + s.dir + "/: " + string(d.Value)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrently: %s", e)
	}
}
