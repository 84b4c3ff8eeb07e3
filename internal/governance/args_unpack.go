package governance

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// An archive extracted (tar -x, unzip) writes the files its members name,
// which no word of the line shows: "tar -xf evil.tar" with a member
// .claude/settings.json writes Claude's settings. unpackVerdict reads the
// member names of an archive the line names (a tar, plain or compressed
// with gzip or bzip2, or a zip) when the request is decided and decides
// each, below the directory it is extracted into, as a write. An archive
// whose names cannot be read (from the command's input, computed, made
// or changed by another command of the line, another compression, a member that is a link or leaves the
// directory, a rename option such as --transform or --pax-option, more than maxOperands
// members) needs approval. The archive may change between the decision
// and the run (docs/security.md, Limits).

// maxUnpackBytes bounds the bytes of a tar archive read (decompressed)
// to list its members; past it the archive cannot be read.
const maxUnpackBytes = 256 << 20

// unpack is what one extracting form reads and where it writes.
type unpack struct {
	prog    string
	archive shellcmd.Word // the archive; Text "" for the command's input
	dir     string        // where members go; "" for the command's directory
	strip   int           // leading elements removed from each name
	flat    bool          // unzip -j: directories dropped
	unknown string        // why the names cannot be known, if they cannot
	// text is a diff given in the line (a here-document), when textKnown.
	text      string
	textKnown bool
	// fromTop: names are relative to the top of git's work tree.
	fromTop bool
}

// unpackOf returns what form extracts, if it extracts an archive.
func unpackOf(form []shellcmd.Word) (unpack, bool) {
	if len(form) == 0 || form[0].Kind != shellcmd.Static {
		return unpack{}, false
	}
	name := filepath.Base(form[0].Text)
	if len(form) == 1 {
		// uudecode and unshar read their input when given no file.
		if name == "uudecode" || name == "unshar" {
			return unpack{prog: name, unknown: name + " extracts archives whose names the bridge does not read"}, true
		}
		return unpack{}, false
	}
	switch name {
	case "tar", "gtar", "bsdtar":
		return tarUnpack(form)
	case "unzip":
		return unzipUnpack(form)
	}
	if u, ok := pyModuleUnpack(form); ok {
		return u, true
	}
	if otherExtracts(name, form) {
		return unpack{prog: name, unknown: name + " extracts archives whose names the bridge does not read"}, true
	}
	return unpack{}, false
}

// otherExtracts reports whether form extracts an archive with a program
// whose archives the bridge does not read: cpio -i (bsdcpio too), pax -r,
// ar x, jar x, 7-Zip's, unrar's, lha's, arj's and zpaq's x and e,
// dpkg-deb -x/-X/-R, atool -x/-X, ark -b, gem unpack, unar, aunpack, dtrx,
// cabextract, innoextract, unsquashfs and lrzuntar (unless they only list
// or test), and the decoders that write the names their input holds:
// uudecode without -o (the name on its begin line) and unshar (a shell
// script that writes what it likes).
func otherExtracts(name string, form []shellcmd.Word) bool {
	first := form[1].Text
	short := func(letters string) bool {
		for _, w := range form[1:] {
			t := w.Text
			if w.Kind == shellcmd.Dynamic {
				return true
			}
			if strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t[1:], letters) {
				return true
			}
		}
		return false
	}
	long := func(names ...string) bool {
		for _, w := range form[1:] {
			n, _, _ := strings.Cut(strings.TrimPrefix(w.Text, "--"), "=")
			if strings.HasPrefix(w.Text, "--") && anyLong(n, names) {
				return true
			}
		}
		return false
	}
	switch name {
	case "cpio", "bsdcpio":
		return short("i") || long("extract")
	case "pax":
		return short("r")
	case "ar", "jar":
		return strings.Contains(strings.TrimPrefix(first, "-"), "x") || form[1].Kind == shellcmd.Dynamic || long("extract")
	case "7z", "7za", "7zr", "7zz", "unrar", "rar", "zpaq":
		return first == "x" || first == "e" || form[1].Kind == shellcmd.Dynamic
	case "lha", "lharc", "arj", "unarj":
		// lha's and arj's command is a letter, with or without a "-" and
		// modifiers ("lha xf", "lha -xw=dir").
		c := strings.TrimPrefix(first, "-")
		return name == "unarj" || c == "" || c[0] == 'x' || c[0] == 'e' || form[1].Kind == shellcmd.Dynamic
	case "atool":
		return short("xX") || long("extract", "extract-to")
	case "ark":
		return short("b") || long("batch")
	case "gem":
		return first == "unpack" || form[1].Kind == shellcmd.Dynamic
	case "cabextract", "innoextract":
		return !(short("lt") || long("list", "test"))
	case "unsquashfs":
		return !(short("lsi") || long("ls", "lls", "info", "stat"))
	case "uudecode":
		return !(short("op") || long("output-file"))
	case "unshar", "lrzuntar":
		return true
	case "dpkg-deb":
		return short("xXR") || long("extract", "vextract", "raw-extract")
	case "unar", "aunpack", "dtrx":
		return true
	}
	return false
}

// tarUnpack is unpackOf for tar.
func tarUnpack(form []shellcmd.Word) (unpack, bool) {
	u := unpack{prog: "tar"}
	extract, file := false, false
	take := func(letter byte, w shellcmd.Word) {
		switch letter {
		case 'f':
			u.archive, file = w, true
		case 'C':
			u.dir = w.Text
			if w.Kind == shellcmd.Dynamic {
				u.unknown = "the directory it extracts into is computed"
			}
		case 'T', 'X':
		}
	}
	valued := func(name string) bool {
		return tarLong(name, "directory") || tarLong(name, "file") || tarLong(name, "strip-components")
	}
	tarOptions(form, false, valued, func(o tarOption) {
		switch {
		case o.letter == 'x' || tarLong(o.long, "extract") || o.long == "get":
			extract = true
		case o.letter == 'P' && o.oldStyle:
			u.unknown = "-P keeps absolute names"
		case (o.letter == 'P' || o.letter == 's') && !o.oldStyle:
			u.unknown = "-" + string(o.letter) + " changes the names it writes"
		case o.letter != 0 && o.at >= 0:
			take(o.letter, o.value)
		case tarLong(o.long, "directory"):
			take('C', o.value)
		case tarLong(o.long, "file"):
			take('f', o.value)
		case tarLong(o.long, "strip-components"):
			n, err := strconv.Atoi(o.value.Text)
			if err != nil || n < 0 {
				u.unknown = "its --strip-components is not a number"
			}
			u.strip = n
		case len(o.long) >= 2 && (strings.HasPrefix("transform", o.long) || strings.HasPrefix("xform", o.long) ||
			strings.HasPrefix("absolute-names", o.long)):
			u.unknown = "--" + o.long + " changes the names it writes"
		case len(o.long) >= 2 && strings.HasPrefix("pax-option", o.long):
			u.unknown = "--" + o.long + " may give its members other names"
		case len(o.long) >= 3 && strings.HasPrefix("one-top-level", o.long):
			u.unknown = "--" + o.long + " changes the directory it extracts into"
		}
	})
	if !extract {
		return unpack{}, false
	}
	if !file || u.archive.Text == "-" {
		u.archive = shellcmd.Word{}
	}
	return u, true
}

// unzipUnpack is unpackOf for unzip: it writes unless it lists (-l, -v,
// -Z), tests (-t), or prints (-p, -c, -z); its options are read as
// unzipOptions says.
func unzipUnpack(form []shellcmd.Word) (unpack, bool) {
	u, found, writes, _ := unzipOptions(form)
	if !found || !writes {
		return unpack{}, false
	}
	return u, true
}

// unpackVerdict decides the files the archives c extracts write.
func (e *Engine) unpackVerdict(in *reqInfo, c *shellcmd.Command, others bool, advisories *[]string) (verdict, bool) {
	var worst strictest
	for _, form := range c.Forms {
		u, ok := unpackOf(form)
		if !ok && len(form) > 0 && form[0].Kind == shellcmd.Static {
			switch filepath.Base(form[0].Text) {
			case "patch":
				u, ok = patchUnpack(form, c.Input)
			case "git":
				u, ok = gitApplyUnpack(form, c.Input)
			}
		}
		if !ok {
			continue
		}
		bases, unknownDir := e.commandDirs(in, c.Dir)
		reason := u.unknown
		switch {
		case reason != "":
		case u.textKnown:
		case u.archive.Text == "":
			reason = "it reads the archive from its input"
		case u.archive.Kind != shellcmd.Static:
			reason = "the archive's name is computed"
		case unknownDir:
			reason = "the line changes directory before it"
		case others:
			reason = "the line runs other commands, which may make or change the archive first"
		}
		var names []string
		switch {
		case reason != "":
		case u.textKnown:
			names, reason = diffNames(strings.NewReader(u.text))
		default:
			for _, b := range bases {
				if t := e.flight.busy(e.operandPath(b, u.archive.Text)); t != "" {
					return flightBusyVerdict(strings.TrimSpace(c.Source), t, "the file "+u.archive.Text+" it reads")
				}
				var ns []string
				var why string
				if u.prog != "tar" && u.prog != "unzip" {
					ns, why = diffFileNames(e.operandPath(b, u.archive.Text))
				} else {
					ns, why = archivesNames(e.operandPath(b, u.archive.Text), u.prog)
				}
				if why != "" {
					reason = why
					break
				}
				names = append(names, ns...)
			}
		}
		if reason != "" {
			if v, ok := e.unpackLinksVerdict(in, c, u, bases); ok {
				return v, true
			}
			if v, ok := e.unpackReachesOwn(in, c, u, reason); ok {
				return v, true
			}
			return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("running %q: the files it extracts are not known: %s", strings.TrimSpace(c.Source), reason)}, true
		}
		for _, n := range names {
			if u.flat {
				n = path.Base(n)
			}
			elems := strings.Split(strings.Trim(n, "/"), "/")
			from, to := u.strip, u.strip
			if u.strip < 0 {
				from, to = 0, len(elems)-1 // patch without -p: any count
			}
			for k := from; k <= to && k < len(elems); k++ {
				m := strings.Join(elems[k:], "/")
				if u.dir != "" {
					m = strings.TrimSuffix(u.dir, "/") + "/" + m
				}
				a := argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: m}, text: m, write: true, fromTop: u.fromTop}
				if v, ok := e.decideArg(in, a, c.Dir, advisories); ok {
					v.reason = fmt.Sprintf("%s writes %s: %s", u.prog, m, v.reason)
					worst.keep(v)
				}
			}
		}
	}
	return worst.result()
}

// openArchive opens the file at p an unpacking command reads (an
// archive, or patch's diff), what in a reason. A file that is not there
// has names that are not known: a request the bridge does not see in
// flight (a command the agent runs itself once the person approves it,
// sent before this one) may make it before the command runs.
func openArchive(p, what string) (*os.File, string) {
	f, _, err := openRegular(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, what + " does not exist when the request is decided, and may be made before the command runs"
	case errors.Is(err, errNotRegular):
		return nil, what + " is not a regular file"
	case err != nil:
		return nil, what + " cannot be read now (" + err.Error() + ")"
	}
	return f, ""
}

// archivesNames returns the member names of every archive prog reads for
// the archive at p (archivePaths), or why they cannot be known.
func archivesNames(p, prog string) ([]string, string) {
	paths, why := archivePaths(p, prog)
	var names []string
	for _, a := range paths {
		if why != "" {
			break
		}
		var ns []string
		ns, why = archiveNames(a, prog)
		names = append(names, ns...)
	}
	return names, why
}

// archiveNames returns the member names of the archive at p, read as
// prog reads it, or why they cannot be known.
func archiveNames(p, prog string) ([]string, string) {
	f, why := openArchive(p, "the archive")
	if f == nil {
		return nil, why
	}
	defer f.Close()
	var names []string
	add := func(n string, link bool) string {
		switch {
		case link:
			return "it holds a link (" + n + "), which later members may be written through"
		case n == "" || strings.HasPrefix(n, "/") || strings.Contains(n, "\\") ||
			n == ".." || strings.HasPrefix(n, "../") || strings.Contains(n, "/../") || strings.HasSuffix(n, "/.."):
			return "a member's name (" + n + ") leaves the directory it is extracted into"
		case len(names) >= maxOperands:
			return fmt.Sprintf("it holds more than %d members", maxOperands)
		}
		names = append(names, n)
		return ""
	}
	if prog == "unzip" {
		fi, _ := f.Stat()
		members, why := zipMembers(f, fi.Size())
		if why != "" {
			return nil, why
		}
		for _, m := range members {
			for _, n := range m.names {
				if why := add(n, m.link); why != "" {
					return nil, why
				}
			}
		}
		return names, ""
	}
	r, why := tarStream(f)
	if r == nil {
		return nil, why
	}
	if why := tarEachMember(r, func(h *tar.Header) string {
		ns, why := tarMemberNames(h)
		for _, n := range ns {
			if why == "" {
				why = add(n, h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink)
			}
		}
		return why
	}); why != "" {
		return nil, why
	}
	return names, ""
}

// tarStream returns the tar stream of the file f, decompressed when its
// first bytes say gzip or bzip2; nil, and why, when it is compressed
// otherwise (xz, zstd, lzma, compress, lz4) or its gzip header is bad.
func tarStream(f io.Reader) (io.Reader, string) {
	br := bufio.NewReader(f)
	magic, _ := br.Peek(6)
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, "its gzip compression cannot be read (" + err.Error() + ")"
		}
		return gz, ""
	case bytes.HasPrefix(magic, []byte("BZh")):
		return bzip2.NewReader(br), ""
	case bytes.HasPrefix(magic, []byte{0xfd, '7', 'z', 'X', 'Z', 0}), bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}),
		bytes.HasPrefix(magic, []byte{0x5d, 0, 0}), bytes.HasPrefix(magic, []byte{0x1f, 0x9d}), bytes.HasPrefix(magic, []byte{0x04, 0x22, 0x4d, 0x18}):
		return nil, "its compression is one the bridge does not read"
	}
	return br, ""
}
