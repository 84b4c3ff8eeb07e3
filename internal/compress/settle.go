package compress

import "sync"

// maxSettling bounds the turns waiting to be settled; a turn that finds
// the queue full keeps its byte estimate.
const maxSettling = 256

// settler counts the sample of each ended turn's streamed text (Pending)
// on a goroutine of its own, so the forwarding path never waits on the
// tokenizer, and applies the count to the session's meter. The goroutine
// runs while there is work and exits when the queue is empty.
type settler struct {
	mu      sync.Mutex // guards queue, running, counted
	queue   []settleJob
	running bool
	counted int            // turns settled so far
	idle    sync.WaitGroup // one per reserved or queued job; Wait returns when all are settled
}

type settleJob struct {
	s *session
	p Pending
}

// reserve notes, before the response that ends a turn is forwarded, that
// the turn may be queued (add) once it has been: wait then covers it from
// the moment the response is out. Every reserve is followed by one add.
func (st *settler) reserve() { st.idle.Add(1) }

// add queues p for session s, under the reservation made for it.
func (st *settler) add(pl *Pipeline, s *session, p Pending) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if p.Bytes == 0 || len(st.queue) >= maxSettling {
		st.idle.Done()
		return
	}
	st.queue = append(st.queue, settleJob{s, p})
	if !st.running {
		st.running = true
		go st.run(pl)
	}
}

func (st *settler) run(pl *Pipeline) {
	for {
		st.mu.Lock()
		if len(st.queue) == 0 {
			st.running = false
			st.queue = nil
			st.mu.Unlock()
			return
		}
		j := st.queue[0]
		st.queue = st.queue[1:]
		st.mu.Unlock()
		n := j.p.Count()
		j.s.mu.Lock()
		j.s.meter.Settle(j.p, n)
		pl.noteLevel(j.s) // unlocks
		st.mu.Lock()
		st.counted++
		st.mu.Unlock()
		st.idle.Done()
	}
}

// settled returns how many turns have been settled.
func (st *settler) settled() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.counted
}

// wait returns once every queued turn is settled.
func (st *settler) wait() { st.idle.Wait() }
