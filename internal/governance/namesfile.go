package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Files named inside another file: "wc --files0-from=list", "tar -T list",
// "parallel cat :::: list", "cpio -o < list", "md5sum -c sums", "zstd -d
// --filelist list", "xz -d --files=list" (--files0, and with no value the
// input; an abbreviation of --files-from to the generic rule) read the
// files a list names,
// and the list's content is not on the line (nor, for a list the line
// writes first, on the disk when the line is decided). Such a command is
// asked about whatever rule allows it, as a file name computed at run time
// is (runtimeName); "xargs" and "find -exec ... {}" are asked about that way
// already, their operands being run-time words.

// namesListOptions are options, of any command, whose value is a file of
// file names the command then opens.
var namesListOptions = map[string]bool{"--files0-from": true, "--files-from": true, "--arg-file": true,
	"--pathspec-from-file": true, "-files0-from": true}

// namesFromFile returns, for one form of a simple command, the word by
// which it reads files named in a list the line does not show, or "".
func namesFromFile(form []shellcmd.Word) string {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return ""
	}
	name := filepath.Base(form[0].Text)
	gitSub := ""
	if name == "git" {
		gitSub = gitSubcommandName(form)
	}
	for i, w := range form[1:] {
		if w.Kind != shellcmd.Static {
			continue
		}
		t := w.Text
		if t == "--" {
			break
		}
		opt, _, _ := strings.Cut(t, "=")
		if namesListOptions[opt] || abbreviatesNamesList(opt) {
			return t
		}
		switch name {
		case "git":
			// An option word by which git reads names from its input.
			if strings.HasPrefix(t, "-") && gitReadsNamesFromInput(gitSub, []shellcmd.Word{w}) {
				return t
			}
		case "tar", "gtar", "bsdtar":
			if i == 0 && !strings.HasPrefix(t, "-") && strings.Contains(t, "T") || shortCluster(t, 'T', "fCXbgKLNVH") {
				return t // old-style "cT" or a cluster reaching -T
			}
		case "parallel":
			if strings.HasPrefix(t, "::::") || shortCluster(t, 'a', "jSNnLIPdC") {
				return t
			}
		case "zip":
			if shortCluster(t, '@', "bnPtxiZ") {
				return t // names read from stdin
			}
		case "cpio":
			if t == "--create" || t == "--pass-through" || shortCluster(t, 'o', "HIFORMCE") || shortCluster(t, 'p', "HIFORMCE") {
				return t // copy-out and pass-through read names from stdin
			}
		case "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "shasum", "sha3sum",
			"gmd5sum", "gsha1sum", "gsha224sum", "gsha256sum", "gsha384sum", "gsha512sum", "gb2sum", "gcksum",
			"b3sum", "xxhsum", "xxh32sum", "xxh64sum", "xxh128sum", "xxh3sum", "rhash":
			// -c reads the files a checksum list names (its operands,
			// or stdin) and says whether each matches: an oracle of
			// their content. Coreutils come "g"-prefixed from
			// Homebrew; b3sum, the xxHash tools and rhash check too.
			if shortCluster(t, 'c', "la") || len(t) >= 3 && strings.HasPrefix("--check", t) {
				return t
			}
		case "zstd", "unzstd", "zstdcat", "zstdmt":
			// --filelist FILE (--filelist=FILE) acts on the files FILE
			// names, one a line; zstd matches the option's letters as a
			// prefix of the word.
			if strings.HasPrefix(t, "--filelist") {
				return t
			}
		case "7z", "7za", "7zr":
			if strings.HasPrefix(t, "@") || (strings.HasPrefix(t, "-i") || strings.HasPrefix(t, "-ai")) && strings.Contains(t, "@") {
				return t // a list file: @list, -i[r[-|0]]@list, -ai[r[-|0]]@list
			}
		}
	}
	return ""
}

// abbreviatesNamesList reports whether opt, a long option's name, may be
// an abbreviation of one of namesListOptions: getopt_long and git take any
// prefix that names one option of the program ("wc --files0=list",
// "wc --f=list"). --file is left out: programs that have it (tar, grep,
// sed) take the exact name over any it begins.
func abbreviatesNamesList(opt string) bool {
	if len(opt) < 3 || !strings.HasPrefix(opt, "--") || opt == "--file" {
		return false
	}
	for o := range namesListOptions {
		if strings.HasPrefix(o, opt) {
			return true
		}
	}
	return false
}

// shortCluster reports whether t, a cluster of short options ("-cvT"),
// gives option c before any of the options in valued, which take the rest
// of the word as their value.
func shortCluster(t string, c byte, valued string) bool {
	if len(t) < 2 || t[0] != '-' || t[1] == '-' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if t[i] == c {
			return true
		}
		if strings.IndexByte(valued, t[i]) >= 0 {
			return false
		}
	}
	return false
}

// namesFromFileVerdict is the verdict on a command of c that reads files
// named in a list, if any.
func namesFromFileVerdict(c *shellcmd.Command) (verdict, bool) {
	for _, form := range c.Forms {
		if w := namesFromFile(form); w != "" {
			return runtimeName("reading the files named in a list (" + w + ")"), true
		}
	}
	return verdict{}, false
}

// gitReadsNamesFromInput reports whether git's subcommand sub, given the
// words args, reads names from its input and then the files (or objects)
// they name: "git update-index --add --stdin" and "git hash-object -w
// --stdin-paths" put the files into git's objects, "git checkout-index
// --stdin" writes them, and "git cat-file --batch" prints the objects its
// input names, "HEAD:.env" among them (--batch-all-objects every one).
// The options are read as git reads them ("--std" is --stdin).
func gitReadsNamesFromInput(sub string, args []shellcmd.Word) bool {
	names := map[string][]string{"update-index": {"stdin"}, "checkout-index": {"stdin"}, "hash-object": {"stdin-paths"},
		"cat-file": {"batch", "batch-check", "batch-command", "batch-all-objects"}}[sub]
	if len(names) == 0 {
		return false
	}
	o := shellcmd.ReadGitArgs(sub, args)
	for _, n := range names {
		if o.Has(n) {
			return true
		}
	}
	return false
}

// gitSubcommandName returns git's subcommand in form, past git's own
// options, or "" when there is none or it is known only at run time.
func gitSubcommandName(form []shellcmd.Word) string {
	g := shellcmd.GitOptions(form)
	if g.At >= len(form) || form[g.At].Kind != shellcmd.Static {
		return ""
	}
	return form[g.At].Text
}
