package acpwiretest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// echoMain writes back each line it reads, numbered, and "bye" at the end.
func echoMain(stdin io.Reader, stdout, stderr io.Writer) error {
	sc := bufio.NewScanner(stdin)
	for n := 1; sc.Scan(); n++ {
		fmt.Fprintf(stdout, "%d %s\n", n, sc.Text())
	}
	fmt.Fprintln(stderr, "stdin ended")
	fmt.Fprintln(stdout, "bye")
	return errors.New("done")
}

func TestRunIDE(t *testing.T) {
	ide := RunIDE(t, echoMain)
	ide.Send("a")
	ide.Send("b")
	ide.Send("c")
	if got := ide.Next(); got != "1 a" {
		t.Errorf("Next = %q, want %q", got, "1 a")
	}
	if got := ide.Until("3 "); strings.Join(got, "|") != "2 b|3 c" {
		t.Errorf("Until = %q, want [2 b 3 c]", got)
	}
	if err := ide.Wait(); err == nil || err.Error() != "done" {
		t.Errorf("Wait = %v, want main's error", err)
	}
	if got := ide.Received(); got != "1 a\n2 b\n3 c\nbye\n" {
		t.Errorf("Received = %q: want every line, the last written as main returned", got)
	}
	if got := ide.Stderr(); got != "stdin ended\n" {
		t.Errorf("Stderr = %q", got)
	}
}

func TestStartIDE(t *testing.T) {
	ide := StartIDE(t, exec.Command("sh", "-c", `read -r l; echo "got $l"; echo oops >&2; exit 3`))
	ide.Send("x")
	if got := ide.Next(); got != "got x" {
		t.Errorf("Next = %q", got)
	}
	var ee *exec.ExitError
	if err := ide.WaitExit(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("WaitExit = %v, want exit status 3", err)
	}
	if got := ide.Stderr(); got != "oops\n" {
		t.Errorf("Stderr = %q", got)
	}
}

// TestIDEFailsWhenStdoutEnds: a wait for a line that never comes fails the
// test, rather than hanging, once the program's stdout has ended.
func TestIDEFailsWhenStdoutEnds(t *testing.T) {
	ft := &fatalTB{TB: t}
	ide := RunIDE(ft, echoMain)
	ide.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		ide.Until("never")
	}()
	<-done
	if !ft.failed || !strings.Contains(ft.msg, "closed its stdout") {
		t.Errorf("Until after stdout ended: failed %v, %q", ft.failed, ft.msg)
	}
}

// fatalTB records a Fatalf and ends the goroutine that called it.
type fatalTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (f *fatalTB) Helper() {}

// TestIDEAnswersAndCalls: an IDE with Answer replies to the program's
// requests as they arrive, while the test's Call waits for its own
// response among them.
func TestIDEAnswersAndCalls(t *testing.T) {
	// The program asks the IDE a question before it answers the request.
	prog := `read -r req; echo '{"jsonrpc":"2.0","id":"q","method":"ask"}'; read -r reply; echo "$reply" >&2; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; cat >/dev/null`
	ide := IDEOptions{Answer: func(line string) string {
		if strings.Contains(line, `"method":"ask"`) {
			return `{"jsonrpc":"2.0","id":"q","result":"yes"}`
		}
		return ""
	}}.Start(t, exec.Command("sh", "-c", prog))
	if got := ide.Call("do", `{}`); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("Call = %q", got)
	}
	if err := ide.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := ide.Stderr(); got != `{"jsonrpc":"2.0","id":"q","result":"yes"}`+"\n" {
		t.Errorf("the program got %q, want the IDE's answer", got)
	}
	if got := ide.Lines(); len(got) != 2 {
		t.Errorf("Lines = %q, want the question and the response", got)
	}
}
