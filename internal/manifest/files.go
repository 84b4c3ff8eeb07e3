package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FileName is the name of a manifest file; a sidecar manifest is named
// <name>.ACP.md.
const FileName = "ACP.md"

// checkFiles checks the rules that need the file system; see Load.
func (m *Manifest) checkFiles() ErrorList {
	t := m.tree
	t.errs = nil
	m.checkName()
	a := m.AIP44()
	base := []string{"metadata", "aip44"}
	ref := func(value string, path ...string) {
		if value != "" {
			m.checkRef(value, append(base[:2:2], path...))
		}
	}
	ref(a.Operator, "operator")
	ref(a.Governance, "governance")
	ref(a.Sandbox, "sandbox")
	if a.Audit != nil {
		ref(a.Audit.Ref, "audit", "ref")
	}
	for i, s := range a.MCPServers {
		ref(s.Ref, "mcp_servers", strconv.Itoa(i), "ref")
	}
	t.errs.Sort()
	return t.errs
}

// checkName checks that name equals the manifest's directory name, or the
// prefix of a <name>.ACP.md sidecar.
//
// A manifest at the root of a Git work tree (its directory holds .git) is
// the exception: the directory is a checkout, and whoever cloned it chose
// its name, so only the schema's form rules apply to name there.
func (m *Manifest) checkName() {
	file := filepath.Base(m.File)
	path := []string{"name"}
	switch {
	case file == FileName:
		abs, err := filepath.Abs(m.File)
		if err != nil {
			m.tree.errorAtPath(path, "", fmt.Sprintf("cannot find the manifest's directory: %v", err))
			return
		}
		dir := filepath.Dir(abs)
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return
		}
		if want := filepath.Base(dir); m.Name != want {
			m.tree.errorAtPath(path, "", fmt.Sprintf("must equal the name of the directory holding %s, %q", FileName, want))
		}
	case strings.HasSuffix(file, "."+FileName) && len(file) > len(FileName)+1:
		if want := strings.TrimSuffix(file, "."+FileName); m.Name != want {
			m.tree.errorAtPath(path, "", fmt.Sprintf("must equal the prefix of the sidecar file name %s, %q", file, want))
		}
	default:
		m.tree.errorAtPath(path, "", fmt.Sprintf("cannot be checked: the manifest file is named %q, not %s or <name>.%s", file, FileName, FileName))
	}
}

// checkRef checks that the file referenced at path exists, relative to the
// manifest's directory.
func (m *Manifest) checkRef(ref string, path []string) {
	target := ref
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(m.File), filepath.FromSlash(ref))
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		m.tree.errorAtPath(path, "", fmt.Sprintf("referenced file %s is a directory", target))
	case os.IsNotExist(err):
		m.tree.errorAtPath(path, "", fmt.Sprintf("referenced file %s does not exist", target))
	case err != nil:
		m.tree.errorAtPath(path, "", fmt.Sprintf("referenced file %s: %v", target, err))
	}
}

// ResolveRef returns the path of a file reference of m (such as
// m.AIP44().Governance), resolved against the manifest's directory.
func (m *Manifest) ResolveRef(ref string) string {
	if ref == "" || filepath.IsAbs(ref) {
		return ref
	}
	return filepath.Join(filepath.Dir(m.File), filepath.FromSlash(ref))
}
