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

// checkFiles checks the rules that need the file system (see Load) on
// the fields of t that have the right type.
func (t *tree) checkFiles() {
	t.checkName()
	aip := []string{"metadata", "aip44"}
	for _, field := range [][]string{{"operator"}, {"governance"}, {"sandbox"}, {"audit", "ref"}} {
		t.checkRef(append(aip[:2:2], field...))
	}
	servers, _ := t.get(append(aip[:2:2], "mcp_servers")).([]any)
	for i := range servers {
		t.checkRef(append(aip[:2:2], "mcp_servers", strconv.Itoa(i), "ref"))
	}
}

// get returns the value at path in t, or nil.
func (t *tree) get(path []string) any {
	v := t.root
	for _, tok := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// checkName checks that name equals the manifest's directory name, or the
// prefix of a <name>.ACP.md sidecar.
//
// A manifest at the root of a Git work tree (its directory holds .git) is
// the exception: the directory is a checkout, and whoever cloned it chose
// its name, so only the schema's form rules apply to name there.
func (t *tree) checkName() {
	path := []string{"name"}
	name, ok := t.get(path).(string)
	if !ok {
		return // the schema reports it
	}
	file := filepath.Base(t.file)
	switch {
	case file == FileName:
		abs, err := filepath.Abs(t.file)
		if err != nil {
			t.errorAtPath(path, "", fmt.Sprintf("cannot find the manifest's directory: %v", err))
			return
		}
		dir := filepath.Dir(abs)
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return
		}
		if want := filepath.Base(dir); name != want {
			t.errorAtPath(path, "", fmt.Sprintf("must equal the name of the directory holding %s, %q", FileName, want))
		}
	case strings.HasSuffix(file, "."+FileName) && len(file) > len(FileName)+1:
		if want := strings.TrimSuffix(file, "."+FileName); name != want {
			t.errorAtPath(path, "", fmt.Sprintf("must equal the prefix of the sidecar file name %s, %q", file, want))
		}
	default:
		t.errorAtPath(path, "", fmt.Sprintf("cannot be checked: the manifest file is named %q, not %s or <name>.%s", file, FileName, FileName))
	}
}

// checkRef checks that the file referenced at path, if it is a non-empty
// string, exists relative to the manifest's directory.
func (t *tree) checkRef(path []string) {
	ref, ok := t.get(path).(string)
	if !ok || ref == "" {
		return
	}
	target := resolve(t.file, ref)
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		t.errorAtPath(path, "", fmt.Sprintf("referenced file %s is a directory", target))
	case os.IsNotExist(err):
		t.errorAtPath(path, "", fmt.Sprintf("referenced file %s does not exist", target))
	case err != nil:
		t.errorAtPath(path, "", fmt.Sprintf("referenced file %s: %v", target, err))
	}
}

// resolve returns ref resolved against the directory of the manifest file.
func resolve(file, ref string) string {
	if ref == "" || filepath.IsAbs(ref) {
		return ref
	}
	return filepath.Join(filepath.Dir(file), filepath.FromSlash(ref))
}

// ResolveRef returns the path of a file reference of m (such as
// m.AIP44().Governance), resolved against the manifest's directory.
func (m *Manifest) ResolveRef(ref string) string { return resolve(m.File, ref) }
