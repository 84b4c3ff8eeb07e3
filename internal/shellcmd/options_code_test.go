package shellcmd

import (
	"slices"
	"testing"
)

// TestSSHOptionClusters: ssh, scp and sftp read their short options as
// getopt does, alone or in a cluster, so an option that runs a local
// command is noted wherever the cluster holds it (-vo, -4o, -Co, -vF),
// and a letter that is another option's value is not taken for one.
func TestSSHOptionClusters(t *testing.T) {
	tests := []struct {
		line string
		runs bool // a RunsCode note
	}{
		{"ssh -o ProxyCommand='sh x' h", true},
		{"ssh -oProxyCommand='sh x' h", true},
		{"ssh -vo ProxyCommand='sh x' h", true},
		{"ssh -voProxyCommand='sh x' h", true},
		{"ssh -4o ProxyCommand='sh x' h", true},
		{"ssh -vvv -4Ao LocalCommand='sh x' -o PermitLocalCommand=yes h", true},
		{"ssh -vF ./cfg h", true},
		{"scp -Co ProxyCommand='sh x' a h:b", true},
		{"scp -vS ./prog a h:b", true},
		{"sftp -CS ./prog h", true},
		{"scp -rF ./cfg a h:b", true},
		// Not options that run a command.
		{"ssh -vo StrictHostKeyChecking=no h", false},
		{"ssh -lFred h", false},             // -l takes "Fred"
		{"ssh -l -o h", false},              // -l takes "-o"
		{"scp -lSomething a h:b", false},    // -l takes "Something"
		{"ssh -io ProxyCommand=x h", false}, // -i takes "o": ProxyCommand=x is the host
		{"ssh -p 22 -A h uptime", false},
		{"scp -P 2222 -r src h:dst", false},
	}
	for _, tt := range tests {
		a := Analyze(tt.line, Options{})
		runs := slices.ContainsFunc(a.Commands[0].Notes, func(n Note) bool { return n.Kind == RunsCode })
		if runs != tt.runs {
			t.Errorf("Analyze(%q): notes %+v; want a RunsCode note %v", tt.line, a.Commands[0].Notes, tt.runs)
		}
	}
}
