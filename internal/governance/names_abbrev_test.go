package governance

import "testing"

// TestNamesFromFileAbbreviated: a list option is caught however much of
// its name the line gives, since getopt_long and git take any prefix that
// names one option of the program ("sort --files0=list" prints the files
// the list names); an exact option the list options begin with (--file)
// is not one. 7z reads a list after '@' in its -i and -ai switches too
// ("-ir0@list", "-ai@list").
func TestNamesFromFileAbbreviated(t *testing.T) {
	checkListLines(t, "names_abbrev_lines.txt", "wc", "sort", "tar", "xargs", "git", "grep", "7z")
}
