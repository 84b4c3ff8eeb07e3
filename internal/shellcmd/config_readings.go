package shellcmd

import (
	"slices"
	"strings"
)

// A program's option this package does not know may take the next word
// as its value: "kubectl --request-timeout 5 config set-credentials ..."
// runs kubectl config, "aws --color on configure set ..." aws
// configure, "npm config set --otp 123 script-shell ./x" sets
// script-shell. Reading the word after such an option as an operand
// alone would take "5", "on" or "123" for the subcommand or the key and
// miss the write, so a configuration writer's line is read both ways,
// each unknown option with a value and without, and a reading that
// changes settings is the line's change. Options known to take a value,
// or known to take none, are read as they are.

// configOptions are the options of a program whose configuration
// writers ConfigChangeOf reads: valued take the next word as their value,
// flags take none.
type configOptions struct {
	valued, flags []string
}

// programOptions are the known options of the configuration writers'
// programs, among their global options and their config subcommands'.
var programOptions = map[string]configOptions{
	"go": {valued: []string{"-C", "--C"}},
	"npm": {valued: npmValued, flags: []string{"-g", "--global", "--json", "-l", "--long", "-s", "--silent", "-q", "--quiet",
		"-d", "--verbose", "-dd", "--parseable", "-y", "--yes", "--no", "-ws", "--workspaces", "--include-workspace-root",
		"--if-present", "--ignore-scripts", "--dry-run", "--force", "-f", "--no-color", "--color", "--offline", "--prefer-offline"}},
	"yarn": {valued: []string{"--cwd"}, flags: []string{"-H", "--home", "--json", "--silent", "--verbose"}},
	"pip": {valued: pipValued, flags: []string{"--user", "--global", "--site", "-v", "--verbose", "-q", "--quiet",
		"--isolated", "--no-input", "--no-color", "--disable-pip-version-check", "--require-virtualenv", "--no-cache-dir",
		"--debug", "-vv", "-vvv"}},
	"kubectl": {valued: kubectlValued, flags: []string{"--insecure-skip-tls-verify", "--match-server-version",
		"--warnings-as-errors", "--disable-compression", "--raw", "--flatten", "--minify", "--embed-certs", "--set-raw-bytes",
		"--current"}},
	"aws": {valued: awsValued, flags: []string{"--debug", "--no-verify-ssl", "--no-paginate", "--no-sign-request",
		"--no-cli-pager", "--cli-auto-prompt", "--no-cli-auto-prompt", "--version"}},
}

// kubectlValued are kubectl's global options that take the next word as
// their value, and --kubeconfig.
var kubectlValued = []string{"--kubeconfig", "--context", "-n", "--namespace", "--cluster", "--user", "--as", "--as-group",
	"--as-uid", "--cache-dir", "--certificate-authority", "--client-certificate", "--client-key", "--password",
	"--username", "--profile", "--profile-output", "--request-timeout", "-s", "--server", "--tls-server-name", "--token",
	"-v", "--v", "--vmodule", "--log-flush-frequency", "-o", "--output"}

// awsValued are the AWS CLI's global options that take the next word as
// their value.
var awsValued = []string{"--profile", "--region", "--output", "--endpoint-url", "--query", "--color", "--ca-bundle",
	"--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format"}

// maxValueGuesses bounds the unknown options read both ways: 2^n
// readings.
const maxValueGuesses = 5

// optionReadings returns args as read with each choice of which unknown
// options (before "--") take the next word as their value: args itself
// first, then args without the words so taken. known are the program's
// options; those it lists are read as they are.
func optionReadings(args []Word, known configOptions) [][]Word {
	var guesses []int // the words an unknown option may take
	for i := 0; i < len(args) && len(guesses) < maxValueGuesses; i++ {
		t := staticText(args[i])
		if t == "--" {
			break
		}
		if args[i].Kind != Static || len(t) < 2 || t[0] != '-' || strings.Contains(t, "=") || slices.Contains(known.flags, t) {
			continue
		}
		if slices.Contains(known.valued, t) {
			i++
			continue
		}
		if i+1 < len(args) && (args[i+1].Kind != Static || !strings.HasPrefix(args[i+1].Text, "-")) {
			guesses = append(guesses, i+1)
		}
	}
	out := [][]Word{args}
	for set := 1; set < 1<<len(guesses); set++ {
		var alt []Word
		for i, w := range args {
			if k := slices.Index(guesses, i); k >= 0 && set&(1<<k) != 0 {
				continue
			}
			alt = append(alt, w)
		}
		out = append(out, alt)
	}
	return out
}

// mergeChanges joins the changes of a line's readings: every file any
// reading writes and every key any sets.
func mergeChanges(cs []ConfigChange) ConfigChange {
	c := cs[0]
	for _, o := range cs[1:] {
		c.Files = dedupeFiles(append(slices.Clone(c.Files), o.Files...))
		for _, k := range o.Keys {
			if !slices.Contains(c.Keys, k) {
				c.Keys = append(c.Keys, k)
			}
		}
	}
	return c
}
