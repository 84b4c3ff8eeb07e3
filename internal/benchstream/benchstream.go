// Package benchstream is the stream the bridge's throughput benchmarks
// send: session/update notifications (agent_message_chunk) of mixed sizes
// between 100 B and 20 KB, 70% under 500 B, 25% 1-5 KB, 5% 10-20 KB, the
// same every time. The command's end-to-end benchmark (a fake agent
// flooding through acp-bridge) and the wire package's in-process ones read
// the same messages, so their figures compare. CPUTime is the measure the
// benchmarks report besides wall time.
package benchstream

import (
	"math/rand/v2"
	"syscall"
	"time"
)

// CPUTime returns the CPU time (user + system) the process has used, or 0
// if the kernel does not say: on a shared machine it varies far less with
// other load than wall time does.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const (
	head = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"bench","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`
	tail = `"}}}}`
)

// Messages returns the first n messages of the stream, each without its
// newline.
func Messages(n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([][]byte, n)
	for i := range out {
		var size int
		switch p := r.IntN(100); {
		case p < 70:
			size = 100 + r.IntN(400)
		case p < 95:
			size = 1000 + r.IntN(4000)
		default:
			size = 10000 + r.IntN(10000)
		}
		m := make([]byte, 0, max(size, len(head)+len(tail)+1))
		m = append(m, head...)
		for j := range max(size-len(head)-len(tail), 1) {
			m = append(m, 'a'+byte((i+j)%26))
		}
		out[i] = append(m, tail...)
	}
	return out
}
