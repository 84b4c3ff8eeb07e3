package governance

import (
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git init and git clone copy the files of a template directory into the
// git directory they make or, for git init in an existing repository,
// reinitialise: its hooks/ become the repository's hooks, which git runs
// on the next commit or checkout. "git init --template=DIR" in the
// workspace plants DIR/hooks/post-checkout in .git/hooks, which
// self-protection keeps from every other write. A template given on the
// line (--template or a prefix of it, -c init.templateDir) is refused
// whatever the policy says; an empty one (--template=) copies nothing.

// gitTemplateProtected denies a git init or git clone form given a
// template directory.
func gitTemplateProtected(form []shellcmd.Word, source string) (verdict, bool) {
	sub := ""
	at := 0
	for _, s := range []string{"init", "clone"} {
		if _, i, ok := gitSubcommand(form, s); ok {
			sub, at = s, i
			break
		}
	}
	if sub == "" {
		return verdict{}, false
	}
	given := ""
	for _, kv := range shellcmd.GitOptions(form).Configs {
		key, value, _ := strings.Cut(kv.Text, "=")
		if strings.EqualFold(strings.TrimSpace(key), "init.templateDir") && (value != "" || kv.Kind != shellcmd.Static) {
			given = "-c " + kv.Text
		}
	}
	for i := at + 1; i < len(form) && given == ""; i++ {
		w := form[i]
		if w.Kind == shellcmd.Static && w.Text == "--" {
			break
		}
		name, value, attached := strings.Cut(w.Text, "=")
		if len(name) < len("--t") || !strings.HasPrefix("--template", name) {
			continue
		}
		switch {
		case attached && (value != "" || w.Kind != shellcmd.Static):
			given = w.Text
		case !attached && i+1 < len(form) && (form[i+1].Text != "" || form[i+1].Kind != shellcmd.Static):
			given = w.Text + " " + form[i+1].Text
		}
	}
	if given == "" {
		return verdict{}, false
	}
	return verdict{value: Deny, ref: "self-protection",
		ruleTx: "deny changes to a git directory's configuration and hooks, which git runs commands from (built-in self-protection)",
		reason: fmt.Sprintf("running %q: git %s %s copies the template's hooks into the repository's git directory, whose hooks git runs commands from, protected from the agent whatever the policy says", strings.TrimSpace(source), sub, given)}, true
}
