package governance

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestRustcOutputsNamedAfterCrate decides the files rustc names after its
// crate as writes: a crate named GOVERNANCE (by --crate-name or the
// source's #![crate_name]) with the extra file name .md.x writes its program
// over the policy; a crate name the bridge cannot know is asked about;
// everyday builds are allowed. The policy allows rustc.
func TestRustcOutputsNamedAfterCrate(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	tree{texts: map[string]string{
		"m.rs":      "fn main() {}\n",
		"g.rs":      "#![crate_name = \"GOVERNANCE\"]\nfn main() {}\n",
		"cfg.rs":    "#![cfg_attr(all(), crate_name = \"GOVERNANCE\")]\nfn main() {}\n",
		"my-app.rs": "fn main() {}\n",
		"sub/k.rs":  "fn main() {}\n",
	}}.make(t, root)
	e := rootPolicyEngine(t, root, "  default: ask\n  allow:\n    - Bash(rustc:*)\n    - Edit(./**)\n")
	var cases []lineCase
	for i, c := range []struct {
		line string
		want Value
	}{
		{"rustc --crate-name GOVERNANCE -C extra-filename=.md.x m.rs", Deny},
		{"rustc --crate-name=GOVERNANCE -Cextra-filename=.md.x m.rs", Deny},
		{"rustc --crate-name GOVERNANCE --codegen extra-filename=.md.x --out-dir . m.rs", Deny},
		{"rustc -C extra-filename=.md.x g.rs", Deny},
		{"rustc -C extra-filename=.md.x -O g.rs", Deny},
		{"cd sub && rustc --crate-name GOVERNANCE -C extra-filename=.md.x --out-dir .. k.rs", Deny},
		{"rustc -C extra-filename=.md.x cfg.rs", RequireApproval},
		{"rustc --crate-name $N m.rs", RequireApproval},
		{"rustc m.rs", Allow},
		{"rustc -O --edition 2021 -o app m.rs", Allow},
		{"rustc --crate-type lib --emit=metadata,dep-info m.rs", Allow},
		{"rustc -C opt-level=3 -C extra-filename=-abc my-app.rs", Allow},
		{"rustc g.rs", Allow},
		{"rustc --version", Allow},
	} {
		cases = append(cases, lineCase{line: c.line, want: c.want, at: fmt.Sprintf("row%d", i+1)})
	}
	checkLines(t, e, root, cases)
}
