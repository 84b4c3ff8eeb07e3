package governance

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Many compilers and binary tools read further arguments from a response
// file named by an "@file" word: rustc, the GNU assembler, linkers and
// binutils (objdump, nm, strings, ...), LLVM's tools, javac and java.
// What the file holds is the command's arguments, which no word of the
// line shows: "rustc @args" with args holding ".env" compiles .env and
// quotes its line in the error, "strings @args" prints it, "as @args"
// given "-a .env" lists it. Such a command needs approval whatever rule
// allows the program, as a C compiler driver's @file does
// (args_ccdriver.go); "@.env" itself is decided as the file it names.

// responseFileProgram matches the programs (with a target triplet or a
// version in their name) that read an @file as their arguments.
var responseFileProgram = regexp.MustCompile(`^(?:[a-z0-9_]+-[a-z0-9_]+-[a-z0-9_-]+-)?(?:as|ld|ld\.bfd|ld\.gold|ld\.lld|lld|gold|objdump|nm|strings|size|readelf|objcopy|strip|ar|ranlib|addr2line|c\+\+filt|elfedit|gprof|dwp|rustc|rustdoc|javac|java|javadoc|kotlinc)(?:-[0-9.]+)?$|^llvm-[a-z0-9-]+$`)

// responseFileVerdict decides a command of such a program given an @file
// word (see above).
func responseFileVerdict(c *shellcmd.Command) (verdict, bool) {
	for _, form := range c.Forms {
		if form[0].Kind != shellcmd.Static || !responseFileProgram.MatchString(form[0].Name()) {
			continue
		}
		for _, w := range form[1:] {
			t := strings.TrimLeft(w.Text, `"'`)
			if !strings.HasPrefix(t, "@") || len(t) < 2 {
				continue
			}
			return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("running %s with %s: it reads its arguments from the file, which may name files a rule restricts", form[0].Text, w.String())}, true
		}
	}
	return verdict{}, false
}
