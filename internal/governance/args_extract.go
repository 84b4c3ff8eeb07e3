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
	directory := func(name string) bool { return tarLong(name, "directory") }
	tarOptions(form, true, directory, func(o tarOption) {
		extract = extract || o.letter == 'x' || tarLong(o.long, "extract") || o.long == "get"
		switch {
		case o.at < 0 || o.letter != 'C' && !directory(o.long):
		case o.attached:
			attached[o.at] = o.value.Text
		default:
			whole[o.at] = true
		}
	})
	if !extract {
		return nil, nil
	}
	return whole, attached
}

// tarOption is one option of a tar command line, as tarOptions reads it.
type tarOption struct {
	letter   byte   // a short option's letter; 0 for a long option
	long     string // a long option's name as written (a prefix of it will do), without "--"
	oldStyle bool   // the letter is in the old-style first word ("tar xf a.tar")
	// at is the index in the form of the word the option's value is in,
	// -1 when it has none (or its value is missing); value is that value:
	// the word, or when attached the rest of the option's own word
	// ("-C/dir", "--directory=dir").
	at       int
	value    shellcmd.Word
	attached bool
}

// tarOptions calls yield with each option of a tar command form, in the
// order tar reads them, up to "--": each letter of the old-style first
// word (one in tarShortValue when the word that is its value comes) and of
// a cluster ("-xzvC dir", "-C/dir"), and each long option, whose value
// (after "=" or the next word) is read when takesValue says it has one.
// Unless dynamic, a computed word is read as an option only when it begins
// with "--" (and a first word, only when static).
func tarOptions(form []shellcmd.Word, dynamic bool, takesValue func(long string) bool, yield func(tarOption)) {
	var pending []byte // the value letters the old-style first word still owes
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		switch {
		case len(pending) > 0:
			yield(tarOption{letter: pending[0], oldStyle: true, at: i, value: w})
			pending = pending[1:]
		case i == 1 && !strings.HasPrefix(t, "-") && (dynamic || w.Kind == shellcmd.Static):
			for j := 0; j < len(t); j++ {
				if strings.IndexByte(tarShortValue, t[j]) >= 0 {
					pending = append(pending, t[j])
				} else {
					yield(tarOption{letter: t[j], oldStyle: true, at: -1})
				}
			}
		case t == "--":
			i = len(form)
		case strings.HasPrefix(t, "--"):
			o := tarOption{at: -1}
			var v string
			o.long, v, o.attached = strings.Cut(t[2:], "=")
			switch {
			case !takesValue(o.long):
				o.attached = false
			case o.attached:
				o.at, o.value = i, shellcmd.Word{Kind: w.Kind, Text: v}
			case i+1 < len(form):
				i++
				o.at, o.value = i, form[i]
			}
			yield(o)
		case strings.HasPrefix(t, "-") && len(t) > 1 && (dynamic || w.Kind != shellcmd.Dynamic):
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(tarShortValue, t[j]) < 0 {
					yield(tarOption{letter: t[j], at: -1})
					continue
				}
				if j+1 < len(t) {
					yield(tarOption{letter: t[j], at: i, value: shellcmd.Word{Kind: w.Kind, Text: t[j+1:]}, attached: true})
				} else if i+1 < len(form) {
					i++
					yield(tarOption{letter: t[j], at: i, value: form[i]})
				}
				break
			}
		}
	}
}

// tarLong reports whether name, a long option as written, stands for
// tar's long option full: getopt_long takes a prefix, here one of three
// letters or more.
func tarLong(name, full string) bool {
	return len(name) >= 3 && strings.HasPrefix(full, name)
}
