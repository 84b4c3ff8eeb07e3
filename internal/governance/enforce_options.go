package governance

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// The buttons of a permission request are the agent's options: Zed labels
// each with the option's name (an icon for its kind beside it), and the
// person reads the label. An allow_once option named "Reject" had the
// person who pressed it approve the call: the bridge recorded the approval
// as theirs, and the fs/* or terminal/create requests carrying the call
// out passed as covered by it. So, under a policy, an option whose name
// does not say what choosing it does (a word of its own kind, none of the
// other, in plain letters) is shown with its kind first: "Allow once:
// Reject". The answer still names the option by its id.

// verdictWords are the words an option's name may say its kind with.
var verdictWords = map[string]bool{
	"allow": true, "allowed": true, "yes": true, "approve": true, "accept": true, "ok": true, "okay": true,
	"proceed": true, "run": true, "continue": true, "permit": true, "grant": true, "trust": true,
}

// refusalWords are the words an option's name may refuse with.
var refusalWords = map[string]bool{
	"reject": true, "deny": true, "no": true, "not": true, "don't": true, "dont": true, "never": true,
	"cancel": true, "decline": true, "stop": true, "skip": true, "refuse": true, "block": true, "abort": true,
}

// optionLabels are the names shown for an option whose own name does not
// say what it does, by kind.
var optionLabels = map[string]string{
	"allow_once": "Allow once", "allow_always": "Allow always", "reject_once": "Reject once", "reject_always": "Reject always",
}

// nameSaysKind reports whether name, an option's name, says what choosing
// an option of kind does: a word of that kind and none of the other, and
// nothing but letters, digits, spaces and plain punctuation.
func nameSaysKind(name, kind string) bool {
	allows := strings.HasPrefix(kind, "allow")
	if !allows && !strings.HasPrefix(kind, "reject") {
		return false
	}
	own, other := false, false
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		if verdictWords[w] {
			own, other = own || allows, other || !allows
		}
		if refusalWords[w] {
			own, other = own || !allows, other || allows
		}
	}
	for _, r := range name {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) {
			return false // another script's letters or a format character may show another word
		}
	}
	return own && !other
}

// A question the policy asks is asked each time, as a Claude Code ask
// rule is: an allow_always option would have the agent run such calls
// unasked from then on (Gemini CLI allowlists an MCP server's tool, and
// the next call of it reaches nobody). So where the agent offers
// allow_once too, its allow_always options are not shown, and an answer
// naming one is taken as allow_once (onPermissionResponse). A call that
// changes the session's mode keeps them: Claude's ExitPlanMode offers
// "Yes, and auto-accept edits" as allow_always, the mode to go on in.

// shownOptions returns the options array of m, a permission request with
// options opts, without its allow_always options when dropAlways, and
// with the names that do not say what their option does prefixed by its
// kind, and whether it changed any; an error when the array cannot be
// rebuilt.
func shownOptions(m *acpwire.Message, opts []acpparams.PermissionOption, dropAlways bool) ([]byte, bool, error) {
	changed := false
	for _, o := range opts {
		if !nameSaysKind(o.Name, o.Kind) || dropAlways && o.Kind == "allow_always" {
			changed = true
		}
	}
	if !changed {
		return nil, false, nil
	}
	raw, ok := m.Get("params", "options")
	var elems []json.RawMessage
	if !ok || unmarshalStrict(raw, &elems) != nil || len(elems) != len(opts) {
		return nil, false, fmt.Errorf("the options cannot be read one way only")
	}
	arr := []byte{'['}
	for i, o := range opts {
		if dropAlways && o.Kind == "allow_always" {
			continue
		}
		if len(arr) > 1 {
			arr = append(arr, ',')
		}
		e := []byte(elems[i])
		if !nameSaysKind(o.Name, o.Kind) {
			label := optionLabels[o.Kind]
			if label == "" {
				label = "Unknown choice (" + o.Kind + ")"
			}
			b, _ := json.Marshal(label + ": " + o.Name)
			var err error
			if e, err = rawjson.Set(e, b, "name"); err != nil {
				return nil, false, err
			}
		}
		arr = append(arr, e...)
	}
	return append(arr, ']'), true, nil
}
