package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The options of GNU cp and ln that say whether and how they link, read
// as getopt_long reads them: a long option is its whole name or any
// prefix of it that no other of the program's long options starts with
// ("ln --sym" is --symbolic, "cp --li" is --link, "ln --re" is
// --relative), or that only names sharing its meaning start with (cp's
// "--pa": --parents and its old name --path).

// linkerLongOptions are the long options of GNU cp and ln, each mapped to
// the one whose meaning it has.
var linkerLongOptions = map[string]map[string]string{
	"cp": canonicalOf("archive", "attributes-only", "backup", "copy-contents", "debug", "dereference", "force",
		"interactive", "link", "no-clobber", "no-dereference", "no-preserve", "no-target-directory",
		"one-file-system", "parents", "path=parents", "preserve", "recursive", "reflink", "remove-destination",
		"sparse", "strip-trailing-slashes", "suffix", "symbolic-link", "target-directory", "update", "verbose",
		"keep-directory-symlink", "context", "help", "version"),
	"ln": canonicalOf("backup", "directory", "no-dereference", "no-target-directory", "force", "interactive",
		"suffix", "target-directory", "logical", "physical", "relative", "symbolic", "verbose", "help", "version"),
}

// canonicalOf returns the map of names ("name", or "alias=name") to the
// name whose meaning each has.
func canonicalOf(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		alias, canon, ok := strings.Cut(n, "=")
		if !ok {
			canon = alias
		}
		m[alias] = canon
	}
	return m
}

// linkerLong returns the long option of program (cp or ln) that the
// name of an option word (after "--", before "=") stands for; "" when it
// stands for none (unknown, or ambiguous: the program then refuses to
// run), or when program is not one linkerLongOptions knows.
func linkerLong(program, name string) string {
	opts := linkerLongOptions[program]
	if name == "" || opts == nil {
		return ""
	}
	if c, ok := opts[name]; ok {
		return c
	}
	found := ""
	for n, c := range opts {
		if !strings.HasPrefix(n, name) {
			continue
		}
		if found != "" && found != c {
			return ""
		}
		found = c
	}
	return found
}

// linkOptions is what a cp or ln form's options say of the links it
// makes.
type linkOptions struct {
	hard     bool // cp -l, --link
	symbolic bool // ln -s, --symbolic; cp -s, --symbolic-link
	relative bool // ln -r, --relative: a symlink's target is computed from the command's directory
}

// readLinkOptions reads linkOptions from a cp or ln form, its options
// read as getopt_long reads them (an option's value, as operandOptions
// says which take one, is no option: "ln -S .s a b" makes a hard link).
func readLinkOptions(form []shellcmd.Word) linkOptions {
	var f linkOptions
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return f
	}
	name := filepath.Base(form[0].Text)
	if name != "cp" && name != "ln" {
		return f
	}
	s := operandOptions[name]
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		if long, ok := strings.CutPrefix(t, "--"); ok {
			n, v, eq := strings.Cut(long, "=")
			switch full := linkerLong(name, n); full {
			case "link":
				f.hard = true
			case "symbolic", "symbolic-link":
				f.symbolic = true
			case "relative":
				f.relative = true
			default:
				if s.longValue[full] {
					o.value(v, eq)
				}
			}
			continue
		}
		o.shortCluster(s.shortValue, func(c byte) {
			switch {
			case c == 's':
				f.symbolic = true
			case c == 'l' && name == "cp":
				f.hard = true
			case c == 'r' && name == "ln":
				f.relative = true
			}
		})
	}
	return f
}
