package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// curl's --proto-default names the protocol of a URL written without a
// scheme: with "file" (in any case; "--proto-d", any prefix curl takes,
// or "proto-default = file" in a -K file) curl reads "localhost/ws/.env"
// as file://localhost/ws/.env and "/ws/.env" as file:///ws/.env, and
// "curl -T src/x --proto-default file localhost/ws/secrets/a.key" writes
// the key. When the default protocol may be file (a value computed at
// run time, or a pattern the shell may expand, may be "file" too), every
// word curl takes as a URL (its operands, --url's and --expand-url's
// values) without a scheme of its own is decided as the file URL curl
// makes of it, "file://" before the word. Another value (https) leaves
// the words as they are.

// curlValuedLong are curl's long options that take a value (curl --help
// all, and later curl's): the word after one is its value, not a URL. An
// option not listed leaves the next word a URL, the stricter reading.
var curlValuedLong = setOf("abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type",
	"ciphers", "config", "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-file-mode",
	"crlfile", "curves", "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation",
	"dns-interface", "dns-ipv4-addr", "dns-ipv6-addr", "dns-servers", "doh-url", "dump-header", "egd-file", "engine",
	"etag-compare", "etag-save", "expect100-timeout", "form", "form-string", "ftp-account", "ftp-alternative-to-user",
	"ftp-method", "ftp-port", "ftp-ssl-ccc-mode", "happy-eyeballs-timeout-ms", "header", "hostpubmd5",
	"hostpubsha256", "hsts", "interface", "json", "keepalive-time", "key", "key-type", "krb", "libcurl",
	"limit-rate", "local-port", "login-options", "mail-auth", "mail-from", "mail-rcpt", "max-filesize",
	"max-redirs", "max-time", "netrc-file", "noproxy", "oauth2-bearer", "output", "output-dir", "parallel-max",
	"pass", "pinnedpubkey", "preproxy", "proto", "proto-default", "proto-redir", "proxy", "proxy-cacert",
	"proxy-capath", "proxy-cert", "proxy-cert-type", "proxy-ciphers", "proxy-crlfile", "proxy-header", "proxy-key",
	"proxy-key-type", "proxy-pass", "proxy-pinnedpubkey", "proxy-service-name", "proxy-tls13-ciphers",
	"proxy-tlsauthtype", "proxy-tlspassword", "proxy-tlsuser", "proxy-user", "pubkey", "quote", "random-file",
	"range", "rate", "referer", "request", "request-target", "resolve", "retry", "retry-delay", "retry-max-time",
	"sasl-authzid", "service-name", "socks4", "socks4a", "socks5", "socks5-gssapi-service", "socks5-hostname",
	"speed-limit", "speed-time", "stderr", "telnet-option", "tftp-blksize", "time-cond", "tls-max",
	"tls13-ciphers", "tlsauthtype", "tlspassword", "tlsuser", "trace", "trace-ascii", "unix-socket",
	"upload-file", "url", "url-query", "user", "user-agent", "write-out", "variable", "ip-tos",
	"vlan-priority", "ech", "knownhosts", "sigalgs", "ssl-sessions", "trace-config", "haproxy-clientip",
	"upload-flags", "keepalive-cnt", "parallel-max-host")

// curlDefaultFileURLs returns the URL words of the curl form (indexes)
// that curl opens as file URLs because its default protocol may be file
// (see above); none when it may not be.
func curlDefaultFileURLs(form []shellcmd.Word) []int {
	var urls []int
	mayFile := false
	valued := downloaders["curl"].valued
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		if w.Kind == shellcmd.Static && t == "--" {
			for i++; i < len(form); i++ {
				urls = append(urls, i)
			}
			break
		}
		if w.Kind == shellcmd.Dynamic || !strings.HasPrefix(t, "-") || t == "-" {
			urls = append(urls, i)
			continue
		}
		if n, v, eq, ok := longOption(t); ok {
			n = strings.ToLower(n)
			switch {
			case len(n) >= len("proto-d") && longPrefix(n, "proto-default"):
				kind := shellcmd.Static
				if !eq && i+1 < len(form) {
					i++
					v, kind = form[i].Text, form[i].Kind
				}
				mayFile = mayFile || kind != shellcmd.Static || strings.EqualFold(v, "file")
			case (n == "url" || n == "expand-url") && !eq && i+1 < len(form):
				i++
				urls = append(urls, i)
			case curlValuedLong[n] && !eq:
				i++
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(valued, t[j]) >= 0 {
				if j+1 == len(t) {
					i++
				}
				break
			}
		}
	}
	if !mayFile {
		return nil
	}
	return urls
}

// curlHasScheme reports whether u begins with a scheme as curl reads a
// URL it may guess the scheme of: letters, digits, "+", "-" or "." from
// a letter, then ":/" ("localhost:8080/p" has none).
func curlHasScheme(u string) bool {
	i := 0
	for i < len(u) && (isASCIILetter(u[i]) || i > 0 && (u[i] >= '0' && u[i] <= '9' || strings.IndexByte("+-.", u[i]) >= 0)) {
		i++
	}
	return i > 0 && strings.HasPrefix(u[i:], ":/")
}

// curlDefaultFileArgs returns the file URLs curl makes of the form's URL
// words without a scheme when its default protocol may be file, each an
// argument read as the word is (written where curl uploads), for
// fileURLArgs to decide as the file it names.
func curlDefaultFileArgs(form []shellcmd.Word) []argWord {
	var out []argWord
	for _, k := range curlDefaultFileURLs(form) {
		w := form[k]
		if w.Kind == shellcmd.Dynamic {
			continue // a run-time word, asked about as one
		}
		text := w.Text
		if w.Kind == shellcmd.Glob {
			text = shellcmd.Unescape(text)
		}
		if curlHasScheme(text) || isFileURL(text) {
			continue
		}
		u := "file://" + text
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: u}, text: u, readOnly: true, at: &form[k], program: "curl"})
	}
	return out
}
