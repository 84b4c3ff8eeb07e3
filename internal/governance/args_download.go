package governance

import (
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// wget and curl write files whose names no word of the line holds: wget
// names what it fetches after the URL's last segment (percent-decoded) in
// the directory -P gives, and curl -O does (in the directory --output-dir
// gives, which also holds the file -o names). So "wget -P .claude
// http://host/settings.json" writes .claude/settings.json. downloadWrites
// gives those names as files written. A name the server chooses (wget's
// -r, -m, --content-disposition, --trust-server-names, -i; curl's -J) may
// be any, a protected one too, and is a name known only when the line
// runs (runtimeName).

// downloader describes the options of wget or curl that decide where a
// download is written.
type downloader struct {
	// valued are the short options that take a value.
	valued string
	// dirShort and dirLong give the directory files are written in.
	dirShort byte
	dirLong  string
	// remoteShort and remoteLong name a file after its URL (curl -O);
	// remoteAll for every URL. wget always does, unless outShort or
	// outLong gives the file.
	remoteShort byte
	remoteLong  []string
	// outShort and outLong give the file's name (curl -o, joined to
	// --output-dir; wget -O, whose name is decided as written).
	outShort byte
	outLong  string
	// serverShort and serverLong let the server choose names.
	serverShort string
	serverLong  []string
	always      bool // names every URL's file after it without -O (wget)
	// outInDir: the file -o names lies in the directory (curl's
	// --output-dir, aria2c's -d).
	outInDir bool
	// serverNames: without -o the server names the file (aria2c follows
	// Content-Disposition).
	serverNames bool
}

var downloaders = map[string]downloader{
	"wget": {valued: "oaeiBtOTwQUPlARDIXh", dirShort: 'P', dirLong: "directory-prefix", outShort: 'O', outLong: "output-document",
		serverShort: "rmi", serverLong: []string{"recursive", "mirror", "content-disposition", "trust-server-names", "input-file"}, always: true},
	"curl": {valued: "dHouXAbceEFKmrTUwxyYzCPQtK", dirLong: "output-dir", remoteShort: 'O', remoteLong: []string{"remote-name", "remote-name-all"},
		outShort: 'o', outLong: "output", serverShort: "J", serverLong: []string{"remote-header-name"}, outInDir: true},
	"aria2c": {valued: "dosijxkUhplcCmt", dirShort: 'd', dirLong: "dir", outShort: 'o', outLong: "out",
		serverShort: "iT", serverLong: []string{"input-file", "torrent-file", "metalink-file"}, outInDir: true, serverNames: true},
}

// downloadWrites returns the files a wget or curl form writes whose names
// the line holds only in parts (see above).
func downloadWrites(form []shellcmd.Word) []argWord {
	d, ok := downloaders[filepath.Base(form[0].Text)]
	if !ok {
		return nil
	}
	var dir string
	var urls, outs []shellcmd.Word
	remote, server, named, globoff := d.always, false, false, false
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		if w.Kind == shellcmd.Dynamic || t == "-" || !strings.HasPrefix(t, "-") || t == "--" {
			if t != "--" {
				urls = append(urls, w)
			}
			continue
		}
		value := func(v string, attached bool) string {
			if !attached && i+1 < len(form) {
				i++
				return form[i].Text
			}
			return v
		}
		if name, v, eq, ok := longOption(t); ok {
			if foldsLongOptions[filepath.Base(form[0].Text)] {
				name = strings.ToLower(name)
			}
			switch {
			case d.dirLong != "" && longPrefix(name, d.dirLong) && len(name) > 1:
				dir = value(v, eq)
			case d.outLong != "" && name == d.outLong || d.outLong != "" && eq && longPrefix(name, d.outLong) && !longPrefix(name, d.dirLong):
				outs = append(outs, shellcmd.Word{Kind: form[i].Kind, Text: value(v, eq)})
				named = true
			case anyLong(name, d.serverLong):
				server = true
			case name == "globoff":
				globoff = true
			case anyLong(name, d.remoteLong):
				remote = true
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			if strings.IndexByte(d.serverShort, c) >= 0 {
				server = true
			}
			if c == d.remoteShort && c != 0 {
				remote = true
			}
			if c == 'g' && d.outLong == "output" {
				globoff = true
			}
			if strings.IndexByte(d.valued, c) < 0 {
				continue
			}
			v := value(t[j+1:], j+1 < len(t))
			switch c {
			case d.dirShort:
				dir = v
			case d.outShort:
				outs = append(outs, shellcmd.Word{Kind: shellcmd.Static, Text: v})
				named = true
			}
			break
		}
	}
	join := func(n string) string {
		if dir == "" || strings.HasPrefix(n, "/") {
			return n
		}
		return strings.TrimSuffix(dir, "/") + "/" + n
	}
	var out []argWord
	if d.serverNames && !named {
		server = true
	}
	if d.outLong == "output" && !globoff && curlGlobs(urls, outs, remote) {
		// curl expands {a,b} and [1-3] in a URL itself, and names the
		// file after the expansion (-O) or fills -o's #1 with it: "-o
		// '.claude/#1' 'http://host/{settings.json}'".
		server = true
	}
	if server {
		unknown := "a file named by the server or by curl's expansion of the URL"
		if dir != "" {
			unknown += " in " + dir
		}
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Dynamic, Text: unknown, Why: "chosen by the server"}, text: unknown, write: true})
	}
	if dir != "" && d.outInDir {
		// curl writes -o's name inside --output-dir, aria2c inside -d.
		for _, o := range outs {
			if o.Kind == shellcmd.Static && o.Text != "-" {
				out = append(out, argWord{word: o, text: join(o.Text), write: true})
			}
		}
	}
	if !remote || named && d.always {
		return out
	}
	for _, u := range urls {
		text := u.Text
		switch u.Kind {
		case shellcmd.Dynamic:
			continue
		case shellcmd.Glob:
			// A URL's "?" or "[" is a glob to the shell, which passes
			// the word on as written when it matches no file.
			text = shellcmd.Unescape(text)
		}
		for _, n := range urlNames(text) {
			out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: n}, text: join(n), write: true})
		}
	}
	return out
}

// anyLong reports whether name is one of longs or a prefix of one.
func anyLong(name string, longs []string) bool {
	for _, l := range longs {
		if longPrefix(name, l) && len(name) > 1 {
			return true
		}
	}
	return false
}

// urlNames returns the names a download of URL u may be saved under: its
// path's last segment as written, without its query, and percent-decoded
// (wget decodes %2E to "."); "index.html" when it has none.
func urlNames(u string) []string {
	rest := u
	if _, after, ok := strings.Cut(u, "://"); ok {
		rest = after
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[i:]
		} else {
			rest = "/"
		}
	}
	base := path.Base("/" + rest)
	names := []string{base}
	if q, _, ok := strings.Cut(base, "?"); ok {
		names = append(names, q)
	}
	if q, _, ok := strings.Cut(base, "#"); ok {
		names = append(names, q)
	}
	for _, n := range names {
		if dec, err := url.PathUnescape(n); err == nil && dec != n {
			names = append(names, path.Base("/"+dec))
		}
	}
	if strings.HasSuffix(rest, "/") {
		names = append(names, "index.html")
	}
	var out []string
	for _, n := range names {
		if n != "" && n != "/" && n != "." && n != ".." {
			out = append(out, n)
		}
	}
	return out
}

// curlGlobs reports whether curl names a file after a URL it expands
// itself: a URL holding {...} or [...] named by -O, or an -o name holding
// #N, which curl fills with what the expansion matched.
func curlGlobs(urls, outs []shellcmd.Word, remote bool) bool {
	globbed := false
	for _, u := range urls {
		globbed = globbed || strings.ContainsAny(u.Text, "{[")
	}
	for _, o := range outs {
		if i := strings.IndexByte(o.Text, '#'); i >= 0 && i+1 < len(o.Text) && o.Text[i+1] >= '0' && o.Text[i+1] <= '9' {
			return true
		}
	}
	return globbed && remote
}
