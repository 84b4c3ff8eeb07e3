package auditweb

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// servedInBrowser serves the audit logs at paths on a port of 127.0.0.1
// and starts a headless Chromium. It returns the address the server
// printed for the person to open, a browser context bounded by timeout,
// and stop, which stops the server and returns what Serve returned.
// Everything else ends with the test.
func servedInBrowser(t *testing.T, paths []string, timeout time.Duration) (start string, tctx context.Context, stop func() error) {
	t.Helper()
	chromium := chromiumPath(t)
	s, err := New(Options{Paths: paths, PollInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	urlc := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln, func(u string) { urlc <- u }) }()
	start = <-urlc

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	// Start the browser without a deadline (a deadline on the first run
	// would stop the browser), then bound the rest.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	tctx, tcancel := context.WithTimeout(bctx, timeout)
	t.Cleanup(tcancel)
	return start, tctx, func() error {
		cancel()
		return <-served
	}
}
