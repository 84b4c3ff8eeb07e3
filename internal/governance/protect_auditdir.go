package governance

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// AuditDirProtected returns the protection of the directory holding the
// audit log at file when that directory is the log's own: it holds nothing
// but audit logs (the log, its rotated files and lock, and other files whose
// first line is an audit event), and it is neither the bridge's working
// directory nor one of roots, nor above either. There, whatever the agent
// wrote would stand beside the bridge's log as another: `acp-bridge audit
// serve audit/` shows every audit log of a directory, and a log the agent
// wrote with a chain of its own verifies as any chain does. Writes only:
// the compression cache, which may lie beneath, lets the session read its
// own offloads.
func AuditDirProtected(file string, roots []string) (ProtectedPath, bool) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ProtectedPath{}, false
	}
	dir := filepath.Dir(abs)
	cwd, err := os.Getwd()
	if err != nil {
		return ProtectedPath{}, false
	}
	for _, r := range append([]string{cwd}, roots...) {
		if holdsDir(dir, r) {
			return ProtectedPath{}, false
		}
	}
	if !onlyAuditLogs(dir, abs) {
		return ProtectedPath{}, false
	}
	return ProtectedPath{Path: filepath.Dir(file), What: "the audit log's directory"}, true
}

// holdsDir reports whether dir is r or a directory above it, as written or
// with their links resolved.
func holdsDir(dir, r string) bool {
	forms := func(p string) []string {
		p = filepath.Clean(p)
		out := []string{strings.ToLower(p)}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			out = append(out, strings.ToLower(real))
		}
		return out
	}
	for _, d := range forms(dir) {
		for _, f := range forms(r) {
			if beneath(d, f) {
				return true
			}
		}
	}
	return false
}

// onlyAuditLogs reports whether every entry of dir is a regular file that
// is the log at file, one of its rotated files or its lock, or another
// audit log (audit.SniffLog).
func onlyAuditLogs(dir, file string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, ent := range ents {
		p := filepath.Join(dir, ent.Name())
		if !ent.Type().IsRegular() {
			return false
		}
		if p == file || rotatedSibling(file, p) {
			continue
		}
		f, _, err := openRegular(p)
		if err != nil {
			return false
		}
		err = audit.SniffLog(f)
		f.Close()
		if err != nil {
			return false
		}
	}
	return true
}
