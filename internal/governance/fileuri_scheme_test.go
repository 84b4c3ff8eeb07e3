package governance

import "testing"

// TestFileURIsAWHATWGReaderCleans: a string Node's fileURLToPath (the
// WHATWG URL parser) takes as a file URI after dropping C0 controls and
// spaces at its ends and tabs and newlines within is a file URI to the
// bridge too, and refused as one that names different files to different
// readers; strings no reader takes as a file URI stay plain.
func TestFileURIsAWHATWGReaderCleans(t *testing.T) {
	for _, tt := range []struct {
		uri          string
		isFile, fail bool
	}{
		{"file:///ws/a.key", true, false},
		{"FILE:///ws/a.key", true, true},
		{"\x01file:///ws/a.key", true, true},
		{"\x1ffile:///ws/a.key", true, true},
		{"\x00file:///ws/a.key", true, true},
		{"\x08FiLe:///ws/a.key", true, true},
		{"fi\tle:///ws/a.key", true, true},
		{"fil\re:///ws/a.key", true, true},
		{"file\n:///ws/a.key", true, true},
		{" file:///ws/a.key", true, true},
		{"file:///ws/a.key\x01", true, true},
		{"\x01\x02FI\tLE\r:///ws/a.key", true, true},
		{"\x01fil:///ws/a.key", false, false},
		{"\x01file", false, false},
		{"profile: a.key", false, false},
		{"zed://buffer/1", false, false},
		{"\x01zed://buffer/1", false, false},
		{"a\tfile:///ws/a.key", false, false},
		{"notes.txt", false, false},
	} {
		paths, isFile, err := mcpFilePaths(tt.uri)
		if isFile != tt.isFile || (err != nil) != tt.fail {
			t.Errorf("mcpFilePaths(%q) = %q, file %v, err %v; want file %v, refused %v", tt.uri, paths, isFile, err, tt.isFile, tt.fail)
		}
	}
}
