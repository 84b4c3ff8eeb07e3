package otelexport

import (
	"os/user"
	"runtime/debug"
)

// identity returns the resource attributes that name this bridge when the
// configuration leaves them empty: its module version and the user running
// it.
func identity(version, username string) (string, string) {
	if version == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			version = bi.Main.Version
		}
	}
	if username == "" {
		if u, err := user.Current(); err == nil {
			username = u.Username
		}
	}
	return version, username
}
