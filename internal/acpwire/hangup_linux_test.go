package acpwire

import (
	"bytes"
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestHangupProbe checks the probe on the two kinds of input an IDE gives
// the bridge: a pipe (its writer closed, with bytes still unread) and a
// socket (the peer shut down its sending side); and that it reports no
// hang-up while the writer is there or after the input is closed.
func TestHangupProbe(t *testing.T) {
	t.Run("pipe", func(t *testing.T) {
		r, w := osPipe(t)
		defer r.Close()
		probe := hangupProbe(r)
		if probe == nil {
			t.Fatal("hangupProbe(pipe) = nil")
		}
		if _, err := w.Write([]byte("unread\n")); err != nil {
			t.Fatal(err)
		}
		if probe() {
			t.Fatal("hang-up reported while the writer is open")
		}
		w.Close()
		if !probe() {
			t.Fatal("no hang-up after the writer closed, with bytes unread")
		}
		r.Close()
		if probe() {
			t.Fatal("hang-up reported for a closed input")
		}
	})
	t.Run("close not delayed", func(t *testing.T) {
		// Go's Close of a non-blocking file waits for every use of its
		// descriptor to end: probing must never hold it. A probe that did
		// would hold it until the writer closes, which it never does here,
		// so Close would never return: the test waits for it to return,
		// not for it to be quick (scheduling on a loaded machine is not).
		r, w := osPipe(t)
		defer w.Close()
		probe := hangupProbe(r)
		stop, probing := make(chan struct{}), make(chan struct{})
		go func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
					probe()
					if i == 100 {
						close(probing)
					}
					runtime.Gosched() // a lone CPU still runs Close
				}
			}
		}()
		<-probing
		closed := make(chan error, 1)
		go func() { closed <- r.Close() }()
		select {
		case err := <-closed:
			if err != nil {
				t.Errorf("closing the input: %v", err)
			}
		case <-time.After(settle):
			t.Errorf("closing the input had not returned after %v: the probe holds it", settle)
		}
		close(stop)
	})
	t.Run("socket", func(t *testing.T) {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		ours, theirs := os.NewFile(uintptr(fds[0]), "ours"), os.NewFile(uintptr(fds[1]), "theirs")
		defer ours.Close()
		defer theirs.Close()
		probe := hangupProbe(ours)
		if probe == nil {
			t.Fatal("hangupProbe(socket) = nil")
		}
		if probe() {
			t.Fatal("hang-up reported while the peer is connected")
		}
		c, err := net.FileConn(theirs)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.(*net.UnixConn).CloseWrite(); err != nil {
			t.Fatal(err)
		}
		if !probe() {
			t.Fatal("no hang-up after the peer shut down its sending side")
		}
	})
	t.Run("not a pipe", func(t *testing.T) {
		f := regularFile(t)
		if hangupProbe(f) != nil {
			t.Error("hangupProbe(regular file) != nil")
		}
		if hangupProbe(bytes.NewReader(nil)) != nil {
			t.Error("hangupProbe(*bytes.Reader) != nil")
		}
	})
}
