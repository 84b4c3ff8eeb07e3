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
// line (--template or a prefix of it, -c init.templateDir) or by the
// variables git reads it from (GIT_TEMPLATE_DIR, a GIT_CONFIG_* giving
// init.templateDir), set by the line or the request, is refused whatever
// the policy says; an empty one (--template=) copies nothing.

// gitTemplateProtected denies a git init or git clone form given a
// template directory; variable is the variable of the line or request
// that may give one ("" for none).
func gitTemplateProtected(form []shellcmd.Word, source, variable string) (verdict, bool) {
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
	given := variable
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

// templateVariable returns the variable the request or the line a sets
// (with a value, or one known only when it runs) that may give git a
// template directory: GIT_TEMPLATE_DIR, or one of git's GIT_CONFIG_*
// variables, which may set init.templateDir; "" for none.
func templateVariable(in *reqInfo, a *shellcmd.Analysis) string {
	gives := func(name string) bool {
		return name == "GIT_TEMPLATE_DIR" || strings.HasPrefix(name, "GIT_CONFIG_") && name != "GIT_CONFIG_NOSYSTEM"
	}
	for _, v := range in.req.Env {
		if gives(v.Name) && v.Value != "" {
			return v.Name + "=" + v.Value
		}
	}
	for _, as := range a.Assignments {
		if gives(as.Name) && (as.Value != "" || !as.Static) {
			return as.Name + "=" + as.Value
		}
	}
	return ""
}
