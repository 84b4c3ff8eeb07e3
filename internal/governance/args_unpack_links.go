package governance

import (
	"archive/tar"
	"archive/zip"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// An archive may hold links: extracted, a symlink member leads where its
// target says, and what is written by its name afterwards (a later member,
// or a later command of the line) lands there. An archive whose names the
// bridge does not decide (the line runs other commands, or it holds a
// link) is asked about; unpackLinksVerdict refuses it outright when a link
// it holds now leads somewhere a write is refused: out of the workspace,
// or onto a file a rule protects.

// archiveLink is one link member of an archive: its name, and its target
// as stored (a symlink's relative to the member's directory, a hard
// link's to the top of the archive).
type archiveLink struct {
	name, target string
	hard         bool
}

// maxArchiveLinks bounds the link members read from one archive.
const maxArchiveLinks = 1024

// enoughLinks is what archiveLinks' reader of tar members gives to stop
// reading once it holds maxArchiveLinks links: no reason, a sentinel.
const enoughLinks = "enough links read"

// archiveLinks returns the link members of the archive at p, read as
// prog reads it; nil when it cannot be read (the caller asks about it
// for that already).
func archiveLinks(p, prog string) []archiveLink {
	f, _ := openArchive(p, "the archive")
	if f == nil {
		return nil
	}
	defer f.Close()
	var out []archiveLink
	if prog == "unzip" {
		fi, err := f.Stat()
		if err != nil {
			return nil
		}
		members, _ := zipMembers(f, fi.Size())
		z, err := zip.NewReader(f, fi.Size())
		if err != nil || len(z.File) != len(members) {
			return nil
		}
		for i, m := range z.File {
			if !members[i].link || len(out) >= maxArchiveLinks {
				continue
			}
			rc, err := m.Open()
			if err != nil {
				continue
			}
			target, _ := io.ReadAll(io.LimitReader(rc, 4096))
			rc.Close()
			for _, n := range members[i].names {
				out = append(out, archiveLink{name: n, target: string(target)})
			}
		}
		return out
	}
	r, _ := tarStream(f)
	if r == nil {
		return nil
	}
	tarEachMember(r, func(h *tar.Header) string {
		if len(out) >= maxArchiveLinks {
			return enoughLinks
		}
		if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink {
			names, _ := tarMemberNames(h)
			for _, n := range names {
				out = append(out, archiveLink{name: n, target: h.Linkname, hard: h.Typeflag == tar.TypeLink})
			}
		}
		return ""
	})
	return out
}

// unpackLinksVerdict decides where each link member of u's archive leads,
// extracted in one of bases, as a write there; ok is false when none is
// refused (or the archive is not there to read).
func (e *Engine) unpackLinksVerdict(in *reqInfo, c *shellcmd.Command, u unpack, bases []string) (verdict, bool) {
	if u.prog != "tar" && u.prog != "unzip" || u.archive.Kind != shellcmd.Static || u.archive.Text == "" {
		return verdict{}, false
	}
	w := e.newTreeWalk(in, c)
	for _, b := range bases {
		top := b
		if u.dir != "" {
			top = joinRaw(b, u.dir)
		}
		paths, _ := archivePaths(e.operandPath(b, u.archive.Text), u.prog)
		var links []archiveLink
		for _, a := range paths {
			links = append(links, archiveLinks(a, u.prog)...)
		}
		for _, l := range links {
			t := l.target
			switch {
			case strings.HasPrefix(t, "/"):
			case l.hard:
				t = top + "/" + t
			default:
				t = top + "/" + path.Join(path.Dir(l.name), t)
			}
			if v, ok := w.refused(t, false, true, true); ok {
				v.reason = fmt.Sprintf("running %q: the archive holds %s, a link to %s, which the extraction and the line may write through: %s", strings.TrimSpace(c.Source), l.name, t, v.reason)
				w.keep(v)
			}
		}
	}
	return w.result()
}
