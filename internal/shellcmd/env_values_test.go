package shellcmd

import (
	"slices"
	"testing"
)

// TestClassifyEnvValue: a variable naming a file a program writes is a
// write (git appends its trace to GIT_TRACE's file); one whose name or the
// list says a program reads the files it names is a read, so a value
// computed when the line runs is asked about (file(1) reads MAGIC's files,
// cmake runs CMAKE_TOOLCHAIN_FILE); any other may still name a file.
func TestClassifyEnvValue(t *testing.T) {
	for name, want := range map[string]EnvValueUse{
		"GIT_TRACE":           EnvValueWrites,
		"GIT_TRACE2_EVENT":    EnvValueWrites,
		"GIT_INDEX_FILE":      EnvValueWrites,
		"SSLKEYLOGFILE":       EnvValueWrites,
		"DEPENDENCIES_OUTPUT": EnvValueWrites,
		"HISTFILE":            EnvValueWrites,

		"MAGIC":                EnvValueReads,
		"NETRC":                EnvValueReads,
		"TZ":                   EnvValueReads,
		"BASH_ENV":             EnvValueReads,
		"CMAKE_TOOLCHAIN_FILE": EnvValueReads,
		"ANSIBLE_CONFIG":       EnvValueReads,
		"RIPGREP_CONFIG_PATH":  EnvValueReads,
		"GRADLE_USER_HOME":     EnvValueReads,
		"PSQLRC":               EnvValueReads,
		"SSL_CERT_DIR":         EnvValueReads,
		"PYTHONSTARTUP":        EnvValueReads,
		"PKG_CONFIG_PATH":      EnvValueReads,

		"NODE_ENV":    EnvValueMayName,
		"CGO_ENABLED": EnvValueMayName,
		"LANG":        EnvValueMayName,
		"f":           EnvValueMayName,
	} {
		if got, why := ClassifyEnvValue(name); got != want || why == "" {
			t.Errorf("ClassifyEnvValue(%q) = %d (%q); want %d with a reason", name, got, why, want)
		}
	}
}

// TestEnvValueNames: a value names a file whole and as each element of a
// ':' list, as PATH, MAGIC and TZ's ":/file" give them.
func TestEnvValueNames(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  []string
	}{
		{"", nil},
		{".env", []string{".env"}},
		{"a.txt:.env", []string{"a.txt:.env", "a.txt", ".env"}},
		{":/etc/localtime", []string{":/etc/localtime", "/etc/localtime"}},
		{"a::a", []string{"a::a", "a"}},
		{"postgres://u@h/db", []string{"postgres://u@h/db"}},
		{"redis://localhost:6379/0", []string{"redis://localhost:6379/0"}},
		{"sqlite:///./db.sqlite3", []string{"sqlite:///./db.sqlite3"}},
		{"file:///ws/.env", []string{"file:///ws/.env", "/ws/.env"}},
		{"a:b://c", []string{"a:b://c", "a", "b", "//c"}},
	} {
		if got := EnvValueNames(tt.value); !slices.Equal(got, tt.want) {
			t.Errorf("EnvValueNames(%q) = %q; want %q", tt.value, got, tt.want)
		}
	}
}

// TestAssignmentDir: an assignment records where the line is when it sets
// the variable, so a relative name in its value is decided there: after a
// cd, inside a subshell that moved, and where env -C runs what it starts
// (not known).
func TestAssignmentDir(t *testing.T) {
	for _, tt := range []struct {
		line, name string
		want       string
		unknown    bool
	}{
		{"MAGIC=.env file a.txt", "MAGIC", "", false},
		{"cd sub && MAGIC=../.env file b.txt", "MAGIC", "sub", false},
		{"(cd sub; export MAGIC=../.env); file a.txt", "MAGIC", ". or sub", false}, // cd may fail
		{"cd sub; env MAGIC=../.env file b.txt", "MAGIC", ". or sub", false},
		{"env -C sub MAGIC=../.env file b.txt", "MAGIC", "", true},
	} {
		a := Analyze(tt.line, Options{})
		i := slices.IndexFunc(a.Assignments, func(as Assignment) bool { return as.Name == tt.name })
		if i < 0 {
			t.Errorf("%q: no assignment of %s", tt.line, tt.name)
			continue
		}
		d := a.Assignments[i].Dir
		if d.Unknown != tt.unknown || !tt.unknown && d.String() != tt.want {
			t.Errorf("%q: %s set in %+v; want %q (unknown %v)", tt.line, tt.name, d, tt.want, tt.unknown)
		}
	}
}

// TestAppendedValues: NAME+=value adds to what the variable held, so each
// value the line gave it before, joined with the added text, is a value it
// may hold ("M=.e; M+=nv" gives .env in bash 5.2), and one the line does
// not show is not known; an integer's sum of known values stays known.
func TestAppendedValues(t *testing.T) {
	for _, tt := range []struct {
		line    string
		holds   []string
		unknown bool
	}{
		{"M=; M+=.e; M+=nv", []string{".env"}, false},
		{"M=.e; M+=nv", []string{".env"}, false},
		{"M=.e; M=x; M=.e; M+=nv", []string{".env", "xnv"}, false},
		{"if c; then M=.e; else M=x; fi; M+=nv", []string{".env", "xnv"}, false},
		{"export M=.e; M+=nv file a.txt", []string{".env"}, false},
		{"M+=.env", []string{".env"}, true},
		{"M=$(cat f); M+=nv", nil, true},
		{"declare -i i=0; i+=1", []string{"01"}, false},
	} {
		a := Analyze(tt.line, Options{})
		var values []string
		unknown := false
		for _, as := range a.Assignments {
			switch {
			case as.Name != "M" && as.Name != "i":
			case !as.Static:
				unknown = true
			default:
				values = append(values, as.Value)
			}
		}
		for _, h := range tt.holds {
			if !slices.Contains(values, h) {
				t.Errorf("Analyze(%q): values %q lack %q", tt.line, values, h)
			}
		}
		if unknown != tt.unknown {
			t.Errorf("Analyze(%q): a value not known %v, want %v", tt.line, unknown, tt.unknown)
		}
	}
}
