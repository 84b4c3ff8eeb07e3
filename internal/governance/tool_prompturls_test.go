package governance

import (
	"strings"
	"testing"
)

// TestPromptURLsSplitAsJavaScript: the words of a prompt are those of
// JavaScript's \s and those of Go's white space.
func TestPromptURLsSplitAsJavaScript(t *testing.T) {
	for in, want := range map[string][]string{
		"a https://x.com/ b":                {"https://x.com/"},
		"https://x.com/\ufeffhttps://y.com": {"https://x.com/", "https://y.com", "https://x.com/\ufeffhttps://y.com"},
		"https://x.com/\u0085https://y.com": {"https://x.com/\u0085https://y.com", "https://x.com/", "https://y.com"},
		"https://x.com/\u3000https://y.com": {"https://x.com/", "https://y.com"},
	} {
		if got := promptURLs(in); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("promptURLs(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGeminiFetchedAs: Gemini CLI fetches a github.com file page from
// raw.githubusercontent.com (convertGithubUrlToRaw), the owner and
// repository before "/blob/" kept; any other address as it is.
func TestGeminiFetchedAs(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r/blob/main/x.sh":      "https://raw.githubusercontent.com/o/r/main/x.sh",
		"HTTPS://GitHub.COM/o/r/blob/main/x.sh?a=1":  "https://raw.githubusercontent.com/o/r/main/x.sh?a=1",
		"https://github.com/o/blob/x":                "https://raw.githubusercontent.com/o/blob/x",
		"http://user@github.com:8080/o/r/blob/a/b/c": "http://user@raw.githubusercontent.com:8080/o/r/a/b/c",
		"https://github.com/o/r/tree/main/x":         "",
		"https://github.com./o/r/blob/main/x":        "",
		"https://gist.github.com/o/r/blob/main/x":    "",
		"https://github.com/o/r/blob":                "",
		"not a url":                                  "",
	} {
		got, ok := geminiFetchedAs(in)
		if ok != (want != "") || got != want {
			t.Errorf("geminiFetchedAs(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got := promptURLs("Summarize https://github.com/o/r/blob/main/x"); strings.Join(got, "|") !=
		"https://github.com/o/r/blob/main/x|https://raw.githubusercontent.com/o/r/main/x" {
		t.Errorf("promptURLs of a GitHub file page = %q, want the page and its raw address", got)
	}
}
