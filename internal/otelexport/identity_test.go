package otelexport

import (
	"os/user"
	"testing"
)

// TestIdentity checks that the resource attributes naming the bridge are
// filled in when the configuration leaves them empty, and kept otherwise.
func TestIdentity(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Fatalf("the current user: %v", err)
	}
	for _, tt := range []struct {
		name, version, user   string
		wantVersion, wantUser string
	}{
		{"given", "v1.2.3", "dev", "v1.2.3", "dev"},
		{"user filled in", "v1.2.3", "", "v1.2.3", me.Username},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, u := identity(tt.version, tt.user)
			if v != tt.wantVersion || u != tt.wantUser {
				t.Errorf("identity(%q, %q) = %q, %q; want %q, %q", tt.version, tt.user, v, u, tt.wantVersion, tt.wantUser)
			}
		})
	}
	x, err := New(t.Context(), Config{LogPath: t.TempDir() + "/audit.jsonl", Endpoint: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if x.cfg.User != me.Username {
		t.Errorf("New left the user attribute %q, want %q", x.cfg.User, me.Username)
	}
}
