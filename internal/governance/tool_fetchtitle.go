package governance

import (
	"encoding/json"
	"strings"
	"unicode/utf16"
)

// Gemini CLI asks about a web_fetch with no rawInput and no content: its
// permission request carries the prompt, whose every word holding "://"
// Gemini fetches, only in the title, `Processing URLs and instructions from
// prompt: "PROMPT"` (a url argument as `Fetching content from: URL`).
// Judged by its title alone, such a call named no address, and a policy
// asking about, or denying, a domain had the bridge approve a fetch of it
// without asking the person. So the bridge reads the prompt (or url) out of
// the title. Gemini cuts a prompt longer than 100 UTF-16 units to its first
// 97 and "...": a title cut that way does not show every address the call
// fetches, and the call needs approval.

// fetchPromptTitle and fetchURLTitle open the titles Gemini CLI gives a
// web_fetch call (WebFetchToolInvocation.getDescription).
const (
	fetchPromptTitle = `Processing URLs and instructions from prompt: "`
	fetchURLTitle    = "Fetching content from: "
)

// maxFetchTitlePrompt is the longest prompt, in UTF-16 code units, that
// Gemini CLI shows whole in a web_fetch title.
const maxFetchTitlePrompt = 100

// fetchTitleInput returns, as the input {"prompt": PROMPT} or
// {"url": URL}, what a fetch call's title shows in Gemini CLI's words, and
// hidden when the prompt it shows was cut. A title of another shape gives
// nothing.
func fetchTitleInput(title string) (in json.RawMessage, hidden bool) {
	member, value := "", ""
	if rest, ok := strings.CutPrefix(title, fetchPromptTitle); ok {
		prompt, ok := strings.CutSuffix(rest, `"`)
		if !ok {
			return nil, true
		}
		if n := len(utf16.Encode([]rune(prompt))); n >= maxFetchTitlePrompt && strings.HasSuffix(prompt, "...") {
			// Cut by Gemini, or exactly as long as a cut prompt: the
			// title may not show every address.
			return nil, true
		}
		member, value = "prompt", prompt
	} else if u, ok := strings.CutPrefix(title, fetchURLTitle); ok {
		// Gemini fetches a url argument itself, where geminiFetchedAs
		// says, and nowhere else.
		if raw, ok := geminiFetchedAs(u); ok {
			u = raw
		}
		member, value = "url", u
	} else {
		return nil, false
	}
	b, err := json.Marshal(map[string]string{member: value})
	if err != nil {
		return nil, true
	}
	return b, false
}
