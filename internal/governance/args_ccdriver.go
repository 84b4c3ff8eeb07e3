package governance

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A C compiler driver runs the programs that compile (cc1, as, collect2)
// from where its options say: -B names a directory it runs them from
// ("gcc -B./tools -fsyntax-only a.c" runs the agent's ./tools/cc1), a spec
// file (-specs) rewrites the commands it runs, -fplugin loads native code
// into the compiler, and a response file (@file) gives it any of these,
// as -wrapper does in the file, unread. Such a command needs approval
// whatever rule allows the compiler, as COMPILER_PATH and GCC_EXEC_PREFIX
// in its environment do (shellcmd.ClassifyEnv); -wrapper's program is
// decided as a command of the line (shellcmd's optionRuns), and for a
// versioned name (gcc-12), which that table does not list, asked about.

// ccDriverName matches the C compiler drivers and their versioned names.
var ccDriverName = regexp.MustCompile(`^(?:gcc|cc|c\+\+|g\+\+|cpp|clang|clang\+\+|gfortran|gccgo)(-[0-9.]+)?$`)

// ccDriverVerdict decides a compiler driver given an option that makes it
// run programs the bridge does not read (see above).
func ccDriverVerdict(c *shellcmd.Command) (verdict, bool) {
	for _, form := range c.Forms {
		if form[0].Kind != shellcmd.Static {
			continue
		}
		m := ccDriverName.FindStringSubmatch(form[0].Name())
		if m == nil {
			continue
		}
		for _, w := range form[1:] {
			if why := ccDriverOption(w, m[1] != ""); why != "" {
				return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
					reason: fmt.Sprintf("running %s with %s: %s", form[0].Text, w.String(), why)}, true
			}
		}
	}
	return verdict{}, false
}

// ccDriverOption says why the option word w makes a compiler driver run
// programs the bridge does not read, or "" when it does not. versioned
// says the driver is named with a version, whose -wrapper is not read.
func ccDriverOption(w shellcmd.Word, versioned bool) string {
	t := w.Text
	if w.Kind != shellcmd.Static {
		if strings.HasPrefix(strings.TrimLeft(t, `"'`), "-") || strings.HasPrefix(strings.TrimLeft(t, `"'`), "@") {
			return "an option computed when the line runs may name programs it runs"
		}
		return ""
	}
	switch {
	case strings.HasPrefix(t, "-B") || strings.HasPrefix(t, "--prefix"):
		return "it runs its compiler, assembler and linker from the directory -B names"
	case strings.HasPrefix(t, "-specs") || strings.HasPrefix(t, "--specs"):
		return "a spec file rewrites the commands it runs"
	case strings.HasPrefix(t, "-fplugin") && !strings.HasPrefix(t, "-fplugin-arg"):
		return "it loads a compiler plugin: native code"
	case strings.HasPrefix(t, "@"):
		return "it reads options from the file, which may name programs it runs"
	case versioned && (t == "-wrapper" || strings.HasPrefix(t, "-wrapper=")):
		return "it runs its programs under the -wrapper program"
	}
	return ""
}
