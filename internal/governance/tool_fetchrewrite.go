package governance

import (
	"regexp"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// Gemini CLI's web_fetch does not fetch a GitHub file page where its
// address says: convertGithubUrlToRaw (packages/core/src/tools/web-fetch.ts)
// moves an address whose host, as the WHATWG URL parser reads it, is
// github.com and whose path holds "/blob/" to raw.githubusercontent.com, for
// the fetch Gemini makes itself (the fallback after its model's url context,
// and the direct fetch of a url argument). Judged by the address the call
// shows, a policy denying raw.githubusercontent.com let the agent fetch a raw
// file through its github.com page's address.

// githubBlobPrefix is the owner and repository before "/blob/", as
// convertGithubUrlToRaw's pattern takes them out of the path.
var githubBlobPrefix = regexp.MustCompile(`^/([^/]+/[^/]+)/blob/`)

// geminiFetchedAs returns the address Gemini CLI's own fetch of u reaches,
// and whether it is another than u.
func geminiFetchedAs(u string) (string, bool) {
	p, err := whatwg.Parse(u)
	if err != nil || p.Hostname() != "github.com" || !strings.Contains(p.Pathname(), "/blob/") {
		return "", false
	}
	p.SetHostname("raw.githubusercontent.com")
	// JavaScript's replace without the g flag replaces the first match,
	// and the pattern is anchored: one replacement at most.
	p.SetPathname(githubBlobPrefix.ReplaceAllString(p.Pathname(), "/$1/"))
	return p.Href(false), true
}
