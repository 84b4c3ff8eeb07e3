package governance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPkgConfigLines reads a .pc file's lines as pkg-config does: ended by
// a newline, a carriage return or both, joined by a backslash before the
// end with nothing between, a comment ending at its physical line, and
// refuses the joins pkg-config's versions read differently.
func TestPkgConfigLines(t *testing.T) {
	for _, c := range []struct{ text, want, why string }{
		{"Name: x\nCflags: -DX\n", "Name: x|Cflags: -DX", ""},
		{"Name: x\r\nCflags: -DX\r\n", "Name: x|Cflags: -DX", ""},
		{"Name: x\rCflags: -DX\r", "Name: x|Cflags: -DX", ""},
		{"Cfl\\\nags: -DX\n", "Cflags: -DX", ""},
		{"Cflags: -DA \\\n\t-DB\n", "Cflags: -DA \t-DB", ""},
		{"Name: x # c\\\nCflags: -DX\n", "Name: x |Cflags: -DX", ""},
		{"# c\r\nCflags: -DX\n", "|Cflags: -DX", ""},
		{"Cflags: -DA\\#B\n", "Cflags: -DA\\#B", ""},
		{"Cflags: -DA\\\\\nx\n", "Cflags: -DA\\\\|x", ""},
		{"Cflags: -DX", "Cflags: -DX", ""},
		{"Cflags: -DA\\\r\n-DB\n", "", "carriage return"},
		{"Cflags: -DA\\\n\r-DB\n", "", "carriage return"},
		{"Cflags: -inc\\\n  lude\n", "", "blanks"},
		{"# c\rCflags: -DX\n", "", "comment"},
	} {
		lines, why := pkgConfigLines(c.text)
		got := strings.Join(lines, "|")
		if got != c.want || (c.why == "") != (why == "") || !strings.Contains(why, c.why) {
			t.Errorf("pkgConfigLines(%q) = %q, %q; want %q, %q", c.text, got, why, c.want, c.why)
		}
	}
}

// TestReadPkgConfigFile reads a .pc file's flag fields as pkgconf gives
// them: names in any case, a field given twice is both values, and the
// lines as pkgConfigLines reads them.
func TestReadPkgConfigFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want, why string }{
		{"Cflags: -include ${pcfiledir}/../.env\n", "-include DIR/../.env", ""},
		{"CFLAGS: -DX\n", "-DX", ""},
		{"Cflags\v: -include ${pcfiledir}/../.env\n", "-include DIR/../.env", ""},
		{"Cflags \f:\v-DX\n", "-DX", ""},
		{"Cflags: -include ${pcfiledir}/../.env\nCflags: -DX\n", "-include DIR/../.env -DX", ""},
		{"Cfl\\\nags: -include ${pcfiledir}/../.env\n", "-include DIR/../.env", ""},
		{"Name: x\rCflags: -include ${pcfiledir}/../.env\r", "-include DIR/../.env", ""},
		{"Name: x # c\\\nCflags: -include ${pcfiledir}/../.env\n", "-include DIR/../.env", ""},
		{"v=-DX # -DY\nCflags: ${v}\n", "-DX", ""},
		{"Cflags: -DA\\#B\n", "", "quoted"},
		{"Cflags: -DA\\\r\n-DB\n", "", "carriage return"},
		{"Cflags: ${nope}\n", "", "does not define"},
	} {
		p := filepath.Join(dir, "x.pc")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		fields, why := readPkgConfigFile(p, map[string]string{})
		got := strings.ReplaceAll(fields["cflags"], dir, "DIR")
		if got != c.want || (c.why == "") != (why == "") || !strings.Contains(why, c.why) {
			t.Errorf("readPkgConfigFile(%q) = %q, %q; want %q, %q", c.text, got, why, c.want, c.why)
		}
	}
}

// FuzzPkgConfigLines holds pkgConfigLines to the file's "\n" lines where
// nothing joins, ends a line otherwise or comments (no backslash, carriage
// return or "#"), and to never panicking.
func FuzzPkgConfigLines(f *testing.F) {
	for _, s := range []string{"Cflags: -I.\n", "Cfl\\\nags: x\r\n", "# c\\\nName: x", "a\\\n b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, why := pkgConfigLines(text)
		if strings.ContainsAny(text, "\\\r#") {
			return
		}
		var want []string
		if text != "" {
			want = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		}
		if why != "" || !slices.Equal(got, want) {
			t.Errorf("pkgConfigLines(%q) = %q, %q; want %q", text, got, why, want)
		}
	})
}
