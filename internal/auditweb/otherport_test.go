package auditweb

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTokenStaysOffOtherPorts drives headless Chromium to the
// printed URL, then to a page of another server on the same loopback
// address, as an agent's dev server is (`npm run dev` on 127.0.0.1:3000).
// Cookies are not kept apart by port (RFC 6265, section 8.5): a token kept
// in one would be sent to that server, which could then read the log the
// policy keeps from the agent. The other server must receive nothing of
// the token, and the audit pages must still open.
func TestBrowserTokenStaysOffOtherPorts(t *testing.T) {
	start, tctx, _ := servedInBrowser(t, []string{writeLog(t, t.TempDir())}, 60*time.Second)
	u, err := url.Parse(start)
	if err != nil {
		t.Fatal(err)
	}
	token, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if len(token) < 16 {
		t.Fatalf("no token in the address the server printed: %s", start)
	}

	var mu sync.Mutex
	var seen []string
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	osrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String()+" "+strings.Join(r.Header.Values("Cookie"), "; "))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body><p id=dev>the agent's dev server</p></body></html>"))
	})}
	go osrv.Serve(other)
	defer osrv.Close()

	if err := chromedp.Do(tctx, chromedp.Navigate(start), chromedp.WaitVisible(".session-link"),
		chromedp.Click(".session-link"), chromedp.WaitVisible(".card")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Navigate("http://"+other.Addr().String()+"/"), chromedp.WaitVisible("#dev")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("the other server saw no request")
	}
	for _, r := range seen {
		if strings.Contains(r, token) {
			t.Errorf("the browser sent the audit server's token to another port: %s", r)
		}
	}
}
