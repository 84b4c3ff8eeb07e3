package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// unzip (UnZip 6.00) reads its options as clusters of letters before the
// archive: "-oqd secrets" and "-qod secrets" extract into secrets, -d
// taking the rest of its word ("-odsecrets") or the next word, as -P
// (password) and Debian's -O and -I (character sets) take theirs. After
// the archive it takes a word beginning "-d" as the directory wherever it
// stands, after member names or an exclusion list ("unzip -qo a.zip -x b
// -d secrets"), and every other word as a member name. unzipOptions reads
// a line so; a cluster after the archive holding d ("a.zip -x b -qd d"),
// which UnZip 6.00 takes as a name and another version may take as an
// option, leaves the directory in doubt and is asked about, as are two
// directories that differ.

// unzipListing are the letters of unzip's modes that write no file:
// list (-l, -v, -Z), test (-t), print (-p, -c) and the comment (-z).
const unzipListing = "lvZtpcz"

// unzipValued are unzip's option letters that take a value: the rest of
// the cluster or the next word.
const unzipValued = "dPOI"

// unzipDir is one directory an unzip line gives: at is the index of the
// word holding it, attached says it is the rest of that word ("-dout",
// "-qdout") rather than the word whole.
type unzipDir struct {
	at       int
	attached bool
	value    string
}

// unzipOptions returns what the unzip form extracts (unzipUnpack): the
// archive, the directory members go into, whether -j drops their
// directories, and whether the form writes at all (a listing mode does
// not); at are the directories the line gives (unzipInto).
func unzipOptions(form []shellcmd.Word) (u unpack, found, writes bool, at []unzipDir) {
	u = unpack{prog: "unzip"}
	writes = true
	var dirs []string
	dir := func(i int, v string, attached bool) {
		dirs = append(dirs, v)
		at = append(at, unzipDir{at: i, attached: attached, value: v})
	}
	dirSet, doubt := false, ""
	i := 1
	// The options before the archive: clusters of letters.
	for ; i < len(form); i++ {
		w := form[i]
		t := w.Text
		if w.Kind == shellcmd.Dynamic || !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		if t == "--" {
			i++
			break
		}
		neg := false // UnZip's "-" inside a cluster turns the next letter off ("--t", "-q-t")
		for j := 1; j < len(t); j++ {
			c := t[j]
			if c == '-' {
				neg = true
				continue
			}
			off := neg
			neg = false
			if strings.IndexByte(unzipValued, c) >= 0 {
				v, attached := t[j+1:], j+1 < len(t)
				if !attached && i+1 < len(form) {
					i++
					v = form[i].Text
				}
				if c == 'd' {
					dir(i, v, attached)
					dirSet = true
				}
				break
			}
			if strings.IndexByte(unzipListing, c) >= 0 {
				writes = off
			}
			if c == 'j' {
				u.flat = !off
			}
		}
	}
	if i >= len(form) {
		return u, false, writes, at
	}
	u.archive, found = form[i], true
	// After the archive: member names, "-x" and its exclusions, and -d.
	for i++; i < len(form); i++ {
		t := form[i].Text
		switch {
		case form[i].Kind == shellcmd.Dynamic:
			doubt = "a word after the archive is computed, and may give it a directory to extract into"
		case strings.HasPrefix(t, "-d"):
			v, attached := t[2:], len(t) > 2
			if !attached && i+1 < len(form) {
				i++
				v = form[i].Text
			}
			dir(i, v, attached)
			dirSet = true
		case len(t) > 2 && t[0] == '-' && t[1] != '-' && shortCluster(t, 'd', "POI"):
			// UnZip 6.00 takes "-qd" here as a member name; another
			// version as options.
			doubt = "the word " + t + " after the archive may give it a directory to extract into, or be a member's name"
		}
	}
	for _, d := range dirs[min(1, len(dirs)):] {
		if d != dirs[0] {
			doubt = "it is given more than one directory to extract into"
		}
	}
	if dirSet {
		u.dir = dirs[0]
	}
	if doubt != "" {
		u.unknown = doubt
	}
	return u, found, writes, at
}

// unzipInto is extractInto for unzip: the directories its -d gives, in a
// cluster too ("-oqd out", "-qdout") and after the archive, whole words
// or the rest of the option's word, read as unzipOptions reads them.
func unzipInto(form []shellcmd.Word) (whole map[int]bool, attached map[int]string) {
	whole, attached = map[int]bool{}, map[int]string{}
	_, _, _, at := unzipOptions(form)
	for _, d := range at {
		if d.attached {
			attached[d.at] = d.value
		} else if d.at < len(form) && d.value != "" {
			whole[d.at] = true
		}
	}
	return whole, attached
}
