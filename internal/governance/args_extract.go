package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// An archive extracted into a directory writes there: "tar -C /elsewhere
// -xf a.tar" and "unzip a.zip -d /elsewhere" create files below the
// directory they are given, whatever the archive holds. That directory is
// decided as a write (denied outside the workspace roots, as a redirection
// there is); the files the archive names are not known (docs/security.md,
// Limits).

// tarShortValue are tar's short options that take a value.
const tarShortValue = "fCbTXgKNVLH"

// extractInto returns the words of form that name a directory an archive
// is extracted into: whole (by index, the value after "-C", "--directory",
// "-d") and attached (by index, the value inside "-C/dir", "--directory=dir",
// "-d/dir").
func extractInto(form []shellcmd.Word) (whole map[int]bool, attached map[int]string) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return nil, nil
	}
	switch filepath.Base(form[0].Text) {
	case "tar", "gtar", "bsdtar":
		return tarExtractInto(form)
	case "unzip":
		return unzipInto(form)
	}
	return nil, nil
}

// tarExtractInto is extractInto for tar: the -C/--directory values of a
// tar that extracts (x in the old-style first word or a cluster,
// --extract or --get, or a prefix getopt_long takes).
func tarExtractInto(form []shellcmd.Word) (whole map[int]bool, attached map[int]string) {
	extract := false
	whole, attached = map[int]bool{}, map[int]string{}
	var pending []byte // the value letters the old-style first word still owes
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		switch {
		case len(pending) > 0:
			if pending[0] == 'C' {
				whole[i] = true
			}
			pending = pending[1:]
		case i == 1 && !strings.HasPrefix(t, "-"):
			for j := 0; j < len(t); j++ {
				extract = extract || t[j] == 'x'
				if strings.IndexByte(tarShortValue, t[j]) >= 0 {
					pending = append(pending, t[j])
				}
			}
		case t == "--":
			i = len(form)
		case strings.HasPrefix(t, "--"):
			name, v, eq := strings.Cut(t[2:], "=")
			extract = extract || len(name) >= 3 && strings.HasPrefix("extract", name) || name == "get"
			if len(name) >= 3 && strings.HasPrefix("directory", name) {
				if eq {
					attached[i] = v
				} else if i+1 < len(form) {
					whole[i+1] = true
					i++
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				extract = extract || t[j] == 'x'
				if strings.IndexByte(tarShortValue, t[j]) < 0 {
					continue
				}
				if j+1 < len(t) {
					if t[j] == 'C' {
						attached[i] = t[j+1:]
					}
				} else if i+1 < len(form) {
					if t[j] == 'C' {
						whole[i+1] = true
					}
					i++
				}
				break
			}
		}
	}
	if !extract {
		return nil, nil
	}
	return whole, attached
}

// unzipInto is extractInto for unzip: the value of -d, in its word or the
// next.
func unzipInto(form []shellcmd.Word) (whole map[int]bool, attached map[int]string) {
	whole, attached = map[int]bool{}, map[int]string{}
	for i := 1; i < len(form); i++ {
		switch t := form[i].Text; {
		case t == "-d" && i+1 < len(form):
			whole[i+1] = true
			i++
		case strings.HasPrefix(t, "-d") && len(t) > 2:
			attached[i] = t[2:]
		}
	}
	return whole, attached
}
