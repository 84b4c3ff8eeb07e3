package auditweb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Options configure a Server.
type Options struct {
	// Paths are audit log files and directories holding them.
	Paths []string
	// Logger receives what the server does. Optional; nil means discard.
	Logger *slog.Logger
	// PollInterval is how often logs are checked for new lines. Optional;
	// if zero, 250 ms.
	PollInterval time.Duration
	// Background makes New only find the logs and Serve read them while
	// it serves: the URL is ready at once, and pages say how far reading
	// got and update themselves until it is done. Optional; if false, New
	// reads the logs whole before it returns.
	Background bool
}

// Server serves the audit logs it was made from, read-only.
type Server struct {
	logs   []*logIndex
	token  string
	port   string
	host   string
	logger *slog.Logger
	poll   time.Duration
	pages  *pages
}

// New finds the logs named by opts.Paths and, unless opts.Background is
// set, indexes them. The chain is verified in the background once Serve
// runs; pages say how far it got.
func New(opts Options) (*Server, error) {
	bases, err := discover(opts.Paths)
	if err != nil {
		return nil, err
	}
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	s := &Server{token: token, logger: opts.Logger, poll: opts.PollInterval}
	if s.logger == nil {
		s.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.poll <= 0 {
		s.poll = 250 * time.Millisecond
	}
	if s.pages, err = loadPages(); err != nil {
		return nil, err
	}
	for _, b := range bases {
		x := newLogIndex(b)
		x.startLoad()
		s.logs = append(s.logs, x)
		if opts.Background {
			continue
		}
		if err := x.load(context.Background()); err != nil {
			return nil, fmt.Errorf("audit serve: %v", err)
		}
		// Summaries now, so the first page does not wait for them.
		if err := x.ensureSummaries(); err != nil {
			return nil, fmt.Errorf("audit serve: %v", err)
		}
	}
	return s, nil
}

// Serve answers requests on ln until ctx is done, and reads (see
// Options.Background) and follows the logs meanwhile. It gives the URL to
// print to ready before serving. It fails when a log cannot be read
// through (a line longer than audit.MaxLineBytes).
func (s *Server) Serve(ctx context.Context, ln net.Listener, ready func(url string)) error {
	host, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		return fmt.Errorf("audit serve: %v", err)
	}
	s.host, s.port = host, port
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1+len(s.logs))
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for _, x := range s.logs {
		wg.Go(func() {
			if err := s.follow(ctx, x); err != nil {
				errc <- err
			}
		})
	}
	if ready != nil {
		ready(s.URL())
	}
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, c := context.WithTimeout(context.Background(), 2*time.Second)
		defer c()
		srv.Shutdown(sctx)
		return nil
	case err := <-errc:
		srv.Close()
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("audit serve: %v", err)
	}
}

// URL is the address to open: the access token is its path (see
// requireToken).
func (s *Server) URL() string {
	return "http://" + net.JoinHostPort(s.host, s.port) + "/" + s.token + "/"
}

// follow reads x if New did not, then indexes new lines and verifies the
// chain of x until ctx is done. It fails when x cannot be read through.
func (s *Server) follow(ctx context.Context, x *logIndex) error {
	select {
	case <-x.loaded:
	default:
		if err := x.load(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
	t := time.NewTicker(s.poll)
	defer t.Stop()
	for {
		// Verify in slices, so new lines are indexed between them.
		for {
			more, err := x.verify()
			if err != nil {
				s.logger.Warn("audit serve: verifying", "log", x.base, "err", err)
				break
			}
			x.mu.RLock()
			pending := x.ver.problem == nil && x.ver.done < len(x.recs)
			x.mu.RUnlock()
			_ = more
			if !pending || ctx.Err() != nil {
				break
			}
			if _, err := x.refresh(); err != nil {
				s.logger.Warn("audit serve: reading", "log", x.base, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if _, err := x.refresh(); err != nil {
			s.logger.Warn("audit serve: reading", "log", x.base, "err", err)
		}
	}
}

// securityHeaders are sent with every response: no script or style but the
// server's own files, nothing framed, nothing sent elsewhere.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
		"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options":       "nosniff",
	"X-Frame-Options":              "DENY",
	"Referrer-Policy":              "no-referrer",
	"Cache-Control":                "no-store",
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
}

// Handler returns the server's HTTP handler: security headers, read-only
// methods, the Host check and the token, then the pages.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleSessions)
	mux.HandleFunc("GET /timeline", s.handleTimeline)
	mux.HandleFunc("GET /export.jsonl", s.handleExportJSONL)
	mux.HandleFunc("GET /export.csv", s.handleExportCSV)
	mux.HandleFunc("GET /events", s.handleEvents)
	mux.HandleFunc("GET /raw", s.handleRaw)
	mux.Handle("GET /static/", http.StripPrefix("/static/", staticHandler()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed: this server only reads", http.StatusMethodNotAllowed)
			return
		}
		if !s.hostAllowed(r.Host) {
			http.Error(w, "421 misdirected request: unexpected Host", http.StatusMisdirectedRequest)
			return
		}
		s.requireToken(mux).ServeHTTP(w, r)
	})
}

// hostAllowed guards against DNS rebinding: a page of another site whose
// name was made to resolve to 127.0.0.1 sends its own name as Host. When
// the server listens on loopback only loopback names are accepted.
func (s *Server) hostAllowed(host string) bool {
	ip := net.ParseIP(s.host)
	if ip == nil || !ip.IsLoopback() {
		return true
	}
	h, port, err := net.SplitHostPort(host)
	if err != nil || port != s.port {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	hip := net.ParseIP(h)
	return hip != nil && hip.IsLoopback()
}
