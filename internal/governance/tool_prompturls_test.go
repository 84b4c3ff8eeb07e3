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
