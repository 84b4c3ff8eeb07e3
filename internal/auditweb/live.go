package auditweb

import (
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"time"
)

// keepAlive is how often an idle event stream sends a comment, so that
// a closed page is noticed.
const keepAlive = 15 * time.Second

// handleEvents streams server-sent events: "change" whenever the log
// given by ?log= (or any log, without it) gains records, rotates, or its
// verification verdict changes. Pages reload their content on it. A page
// gives the logs' version it was rendered at as ?since=, so that a change
// between rendering and connecting is sent at once rather than missed.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	logs := s.logs
	if v := r.URL.Query().Get("log"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n >= len(s.logs) {
			http.Error(w, "400 bad request: no such log", http.StatusBadRequest)
			return
		}
		logs = s.logs[n : n+1]
	}
	since, hasSince := uint64(0), false
	if v := r.URL.Query().Get("since"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			http.Error(w, "400 bad request: since is not a version", http.StatusBadRequest)
			return
		}
		since, hasSince = n, true
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "500 internal error: streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": connected\n\n")
	flusher.Flush()
	t := time.NewTicker(keepAlive)
	defer t.Stop()
	for {
		// Wait on every log's change channel, and on the request ending.
		cases := []reflect.SelectCase{
			{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(r.Context().Done())},
			{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(t.C)},
		}
		var total uint64
		for _, x := range logs {
			v, ch := x.watch()
			total += v
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ch)})
		}
		if hasSince {
			hasSince = false
			if total != since {
				// The logs changed after the page was rendered.
				fmt.Fprintf(w, "event: change\ndata: %d\n\n", total)
				flusher.Flush()
				continue
			}
		}
		chosen, _, _ := reflect.Select(cases)
		switch chosen {
		case 0:
			return
		case 1:
			fmt.Fprint(w, ": keep-alive\n\n")
		default:
			fmt.Fprintf(w, "event: change\ndata: %d\n\n", total+1)
		}
		flusher.Flush()
	}
}
