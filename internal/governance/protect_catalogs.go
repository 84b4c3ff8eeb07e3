package governance

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// bash translates a $"..." string with gettext, from the message catalog
// TEXTDOMAIN names beneath TEXTDOMAINDIR (DIR/LANG/LC_MESSAGES/DOMAIN.mo),
// and expands the translation as a double-quoted string: a command
// substitution in it runs. echo $"hi", allowed as an echo, runs what the
// agent's catalog says once the line or the request points TEXTDOMAINDIR
// at the workspace (asked about as a variable that changes how a line is
// read). Self-protection reads each catalog there as the line's code, as
// it reads a script the line runs.

// catalogResult is one answer of catalogs.
type catalogResult struct {
	files []string
	why   string
}

// catalogs returns the message catalogs (files ending in .mo) a $"..."
// string of the line may be translated from: those beneath each directory
// the line or the request gives TEXTDOMAINDIR (relative ones beneath each
// of dirs, where the command runs), and, where it is computed, those
// beneath the workspace roots; a directory outside the roots is not
// searched. why says, when not empty, that there were
// more entries than the bridge reads.
func (l lookups) catalogs(in *reqInfo, dirs []string) (files []string, why string) {
	if len(l.catalog.dirs) == 0 {
		return nil, ""
	}
	key := strings.Join(dirs, "\x00")
	if r, ok := l.catalogMemo[key]; ok {
		return r.files, r.why
	}
	defer func() {
		if l.catalogMemo != nil {
			l.catalogMemo[key] = catalogResult{files, why}
		}
	}()
	var tops []string
	for _, c := range l.catalog.dirs {
		if filepath.IsAbs(c) {
			tops = append(tops, c)
			continue
		}
		for _, d := range dirs {
			tops = append(tops, filepath.Join(d, c))
		}
	}
	if l.catalog.beneath != nil {
		tops = append(tops, in.roots...)
	}
	budget := maxTreeEntries
	lookupWalks.Add(1)
	for _, t := range tops {
		// A catalog outside the roots is not the agent's to write (nor
		// one the bridge reads: scriptFileNamed).
		if r, err := filepath.EvalSymlinks(t); err != nil || !in.insideRoots(r) {
			continue
		}
		within := walkBudget(t, &budget, func(q string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(strings.ToLower(d.Name()), ".mo") {
				files = append(files, q)
			}
			return nil
		})
		if !within {
			return nil, fmt.Sprintf("the directories TEXTDOMAINDIR may name hold more than %d entries", maxTreeEntries)
		}
	}
	return files, ""
}
