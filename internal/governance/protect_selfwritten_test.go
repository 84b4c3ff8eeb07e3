package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScriptsWrittenByTheLine refuses a line that may write the file it
// then runs as code: by a redirect to it or to a computed name, or by a
// command whose words it writes (cp, sed -i, tee, a compiler's -o). A
// command that only changes a file's mode, times or presence (chmod,
// touch, mkdir, rm) does not count, nor does a redirect to another file.
func TestScriptsWrittenByTheLine(t *testing.T) {
	root := tempTree(t, []string{"sub"}, nil)
	if err := os.WriteFile(filepath.Join(root, "s.sh"), []byte("echo hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n")
	ask := RequireApproval // bash running a file: no rule vouches for it
	checkCommandRows(t, e, root, []commandRow{
		{`printf ': > GOVERN\101NCE.md\n' > s.sh; bash s.sh`, Deny},
		{`printf ': > GOVERN\101NCE.md\n' >> ./sub/../s.sh && ./s.sh`, Deny},
		{`printf ': > GOVERN\101NCE.md\n' > notes.txt; cat notes.txt | bash`, Deny},
		{`printf x > $F; bash s.sh`, Deny},
		{"cp a s.sh && bash s.sh", Deny},
		{"sed -i s/a/b/ s.sh && bash s.sh", Deny},
		{"tee s.sh < a; bash s.sh", Deny},
		{"python3 gen.py > s.sh; bash s.sh", Deny},
		{"cd sub && echo x > ../s.sh && bash ../s.sh", Deny},
		{"go build -o app . && ./app", Deny},
		{"chmod +x s.sh && ./s.sh", Allow},
		{"touch s.sh && bash s.sh", ask},
		{"mkdir -p d && bash s.sh", ask},
		{"bash s.sh > out.log 2>/dev/null", ask},
		{"echo x > t.sh; bash s.sh", ask},
	})
}
