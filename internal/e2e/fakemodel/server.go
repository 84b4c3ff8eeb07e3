package fakemodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Options configures a Server. The zero value serves an empty script.
type Options struct {
	// Script is the main conversation to serve.
	Script Script
	// LogFile, when set, receives one JSON line per request (see Request);
	// optional, if empty requests are kept in memory only.
	LogFile string
	// Logger receives diagnostics; optional, if nil they are discarded.
	Logger *slog.Logger
}

// Kinds of request, as recorded in Request.Kind.
const (
	KindMain        = "main"         // a turn of the scripted main conversation
	KindSide        = "side"         // a model call that is not the main conversation
	KindCountTokens = "count_tokens" // a token-counting call
	KindProbe       = "probe"        // HEAD or GET of the base URL
	KindUnknown     = "unknown"      // anything else: answered 404
)

// Request is one HTTP request the server received.
type Request struct {
	// Seq numbers requests from 1 in arrival order.
	Seq int `json:"seq"`
	// Time is when the request arrived.
	Time time.Time `json:"time"`
	// Method and Path are the HTTP method and URL path (with query).
	Method string `json:"method"`
	Path   string `json:"path"`
	// API is "anthropic" or "gemini", or empty when neither.
	API string `json:"api,omitempty"`
	// Kind is one of the Kind constants.
	Kind string `json:"kind"`
	// Model is the model named in the request, if any.
	Model string `json:"model,omitempty"`
	// Step is the index of the script step served, or -1.
	Step int `json:"step"`
	// Body is the request body exactly as received.
	Body []byte `json:"-"`
}

// requestLine is how a Request is written to the JSONL log: the body is
// embedded as JSON when it is JSON, as a string otherwise.
type requestLine struct {
	Request
	Body any `json:"body,omitempty"`
}

// Server is a running fake model server. Its methods are safe for concurrent
// use.
type Server struct {
	script Script
	log    *slog.Logger
	ln     net.Listener
	srv    *http.Server
	closed chan struct{} // closed by Close: ends hanging steps

	mu       sync.Mutex // guards the fields below
	reqs     []Request
	next     int      // index of the next step to serve
	lastLen  int      // history length of the last main request, -1 before any
	lastStep int      // step served to the last main request
	logFile  *os.File // nil when Options.LogFile is empty
	closeErr error
	done     bool
}

// Start starts a server on 127.0.0.1 on a free port.
func Start(opts Options) (*Server, error) {
	lg := opts.Logger
	if lg == nil {
		lg = discard()
	}
	s := &Server{script: opts.Script, log: lg, closed: make(chan struct{}), lastLen: -1, lastStep: -1}
	if opts.LogFile != "" {
		f, err := os.OpenFile(opts.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("opening request log: %w", err)
		}
		s.logFile = f
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		if s.logFile != nil {
			s.logFile.Close()
		}
		return nil, fmt.Errorf("listening: %w", err)
	}
	s.ln = ln
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			lg.Error("fake model server stopped", "err", err)
		}
	}()
	return s, nil
}

// URL returns the base URL, e.g. "http://127.0.0.1:41234", to hand to an
// agent as ANTHROPIC_BASE_URL or GOOGLE_GEMINI_BASE_URL.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server, ends hanging steps and closes the request log. It
// is safe to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return s.closeErr
	}
	s.done = true
	close(s.closed)
	s.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = s.srv.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.logFile != nil {
		if cerr := s.logFile.Close(); err == nil {
			err = cerr
		}
	}
	s.closeErr = err
	return err
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// MainRequests returns the requests of the main conversation, in order.
func (s *Server) MainRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Kind == KindMain {
			out = append(out, r)
		}
	}
	return out
}

// StepsServed reports how many distinct script steps have been served.
func (s *Server) StepsServed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// ServeHTTP routes a request to the Anthropic or Gemini handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "reading body", http.StatusBadRequest)
		return
	}
	path := r.URL.Path
	switch {
	case path == "/" && (r.Method == http.MethodHead || r.Method == http.MethodGet):
		s.record(r, body, "", KindProbe, "", -1)
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/v1/messages/count_tokens"):
		s.anthropicCountTokens(w, r, body)
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/v1/messages"):
		s.anthropicMessages(w, r, body)
	case r.Method == http.MethodPost && strings.Contains(path, "/models/") && strings.Contains(path, ":"):
		s.gemini(w, r, body)
	default:
		s.record(r, body, "", KindUnknown, "", -1)
		s.log.Warn("fake model: unknown request", "method", r.Method, "path", r.URL.RequestURI())
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
			"type": "not_found_error", "code": 404, "message": "fake model server: no route for " + r.Method + " " + path,
		}})
	}
}

// record appends a request to the in-memory log and the JSONL file.
func (s *Server) record(r *http.Request, body []byte, api, kind, model string, step int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := Request{
		Seq: len(s.reqs) + 1, Time: time.Now().UTC(), Method: r.Method, Path: r.URL.RequestURI(),
		API: api, Kind: kind, Model: model, Step: step, Body: body,
	}
	s.reqs = append(s.reqs, req)
	if s.logFile == nil {
		return
	}
	line := requestLine{Request: req}
	if len(body) > 0 {
		if json.Valid(body) {
			line.Body = json.RawMessage(body)
		} else {
			line.Body = string(body)
		}
	}
	b, err := json.Marshal(line)
	if err != nil {
		s.log.Error("fake model: encoding request log line", "err", err)
		return
	}
	if _, err := s.logFile.Write(append(b, '\n')); err != nil {
		s.log.Error("fake model: writing request log", "err", err)
	}
}

// pick chooses the step for a main-conversation request whose history holds
// histLen messages. A request with the same history length as the previous
// main request is a retry of it and gets the same step again; otherwise the
// next step is consumed. ok is false once the script is exhausted.
func (s *Server) pick(histLen int) (st Step, idx int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if histLen == s.lastLen && s.lastStep >= 0 {
		idx = s.lastStep
	} else {
		if s.next >= len(s.script.Steps) {
			s.lastLen, s.lastStep = histLen, -1
			return Step{}, -1, false
		}
		idx = s.next
		s.next++
	}
	s.lastLen, s.lastStep = histLen, idx
	return s.script.Steps[idx], idx, true
}

// doneText is what the model says once the script is exhausted.
func (s *Server) doneText() string {
	if s.script.Done != "" {
		return s.script.Done
	}
	return "(fake model: script finished)"
}

// sideText is the answer to side requests (titles, topic checks, quota probes).
const sideText = "OK"

// wait applies a step's Delay or Hang after headers were sent. It returns
// false when the answer must not be sent (the client left or the server is
// closing).
func (s *Server) wait(ctx context.Context, st Step) bool {
	if st.Hang {
		select {
		case <-ctx.Done():
		case <-s.closed:
		}
		return false
	}
	if st.Delay <= 0 {
		return true
	}
	t := time.NewTimer(time.Duration(st.Delay))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.closed:
		return false
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }
