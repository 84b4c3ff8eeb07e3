package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

// runVersion prints the module version and the commit the binary was built
// from ("acp-bridge version", "acp-bridge --version").
func runVersion(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "acp-bridge version", "acp-bridge version", "Prints the module version and the commit this binary was built from.")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(e, "acp-bridge version", "version takes no arguments")
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(e.stdout, versionString(bi))
	return nil
}

// versionString renders build information as one line: the module version
// ("(devel)" for a build in a checkout, a tag for go install), then the
// commit, its time and the Go version. A binary built without version
// control information (go build -buildvcs=false, a build outside a
// checkout) says "commit unknown".
func versionString(bi *debug.BuildInfo) string {
	if bi == nil {
		return "acp-bridge unknown (commit unknown)"
	}
	version := bi.Main.Version
	if version == "" {
		version = "unknown"
	}
	var revision, when, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	commit := "commit unknown"
	if revision != "" {
		if len(revision) > 12 {
			revision = revision[:12]
		}
		commit = "commit " + revision
		if modified == "true" {
			commit += "+modified"
		}
		if when != "" {
			commit += ", " + when
		}
	}
	if bi.GoVersion != "" {
		commit += ", " + bi.GoVersion
	}
	return fmt.Sprintf("acp-bridge %s (%s)", version, commit)
}
