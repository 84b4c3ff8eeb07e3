package governance

import (
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// An extraction whose file names the bridge cannot read (an archive or a
// diff from the command's input, "git archive evil | tar -x", "base64 -d
// p.b64 | patch -p1", a cpio, 7z or ar archive) may write any file below
// the directory it extracts into. The person approving it is shown the
// line, not the names, so where that directory holds one of the bridge's
// own files (the policy, the manifest, the audit log, the cache) the
// extraction is refused whatever the person approves; elsewhere it needs
// approval (unpackVerdict).

// unpackReachesOwn denies the extraction u of c, whose names are not
// known for reason, when a directory it extracts into (each of bases
// joined to its -C or -d directory, the work tree's top for git apply)
// holds or lies beneath one of the bridge's own files.
func (e *Engine) unpackReachesOwn(in *reqInfo, c *shellcmd.Command, u unpack, reason string) (verdict, bool) {
	own := bridgeOwn(e.protectedFor(in))
	if len(own) == 0 {
		return verdict{}, false
	}
	bases := e.dirsOrRoots(in, c.Dir)
	var dirs []string
	if u.fromTop {
		dirs = workTreeTops(bases, in.roots, "")
	} else {
		for _, b := range bases {
			if u.dir != "" {
				b = e.operandPath(b, u.dir)
			}
			dirs = append(dirs, b)
		}
	}
	for _, d := range dirs {
		forms, r := in.pathForms(d)
		if r != nil {
			forms = []string{d}
		}
		if pr, f, ok := holds(forms, own); ok {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: fmt.Sprintf("deny changes to %s (built-in self-protection)", pr.What),
				reason: fmt.Sprintf("running %q: the files it extracts are not known (%s), and %s, where it extracts them, holds %s (%s), which is protected from the agent whatever the policy says; extract into a directory that holds none of the bridge's own files", strings.TrimSpace(c.Source), reason, d, pr.What, f)}, true
		}
	}
	return verdict{}, false
}
