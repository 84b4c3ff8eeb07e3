package shellcmd

import "testing"

// TestOptionCommands: the command an option gives tar, sort, split, rsync,
// zip, man, go or a C compiler driver (-wrapper's words, joined by commas)
// is read as a command of its own, the option spelled as
// the program reads it; the program stays a command to decide.
func TestOptionCommands(t *testing.T) {
	tests := []struct {
		line    string
		want    []string // every command the analysis finds, in order
		unknown bool     // the command runs in a directory the line does not show
	}{
		{`tar -xf a.tar`, []string{"tar -xf a.tar"}, false},
		{`tar --to-command='rm x' -xf a.tar`, []string{"tar --to-command=rm x -xf a.tar", "rm x"}, false},
		{`tar --to-com 'rm x' -xf a.tar`, []string{"tar --to-com rm x -xf a.tar", "rm x"}, false},
		{`tar -xf a.tar --checkpoint-action=exec='rm x'`, []string{"tar -xf a.tar --checkpoint-action=exec=rm x", "rm x"}, false},
		{`tar -xf a.tar --checkpoint-action=echo`, []string{"tar -xf a.tar --checkpoint-action=echo"}, false},
		{`tar -cI 'rm x' -f a.tar x`, []string{"tar -cI rm x -f a.tar x", "rm x"}, false},
		{`tar -cIrm -f a.tar x`, []string{"tar -cIrm -f a.tar x", "rm"}, false},
		{`tar -cf I x`, []string{"tar -cf I x"}, false}, // I is -f's value
		{`tar -xf a.tar -C sub --to-command='rm x'`, []string{"tar -xf a.tar -C sub --to-command=rm x", "rm x"}, true},
		{`tar xCf sub a.tar --to-command='rm x'`, []string{"tar xCf sub a.tar --to-command=rm x", "rm x"}, true},
		// A value that starts with '-' is read as an option too: tar's
		// --exclude takes "-f", so --to-command is an option.
		{`tar --exclude -f --to-command='rm x' -xf a.tar`, []string{"tar --exclude -f --to-command=rm x -xf a.tar", "rm x"}, false},
		{`tar -I -f --to-command='rm x' -xf a.tar`, []string{"tar -I -f --to-command=rm x -xf a.tar", "-f", "rm x"}, false},
		{`tar --use-compress-program -f --to-command='rm x' -xf a.tar`, []string{"tar --use-compress-program -f --to-command=rm x -xf a.tar", "-f", "rm x"}, false},
		{`sort --compress-program='rm x' big.txt`, []string{"sort --compress-program=rm x big.txt", "rm x"}, false},
		{`sort --comp=rm big.txt`, []string{"sort --comp=rm big.txt", "rm"}, false},
		{`sort -k 2 big.txt`, []string{"sort -k 2 big.txt"}, false},
		{`split --filter='rm x' big.txt`, []string{"split --filter=rm x big.txt", "rm x"}, false},
		{`rsync -e 'rm x' a h:b`, []string{"rsync -e rm x a h:b", "rm x"}, false},
		{`rsync -avze 'rm x' a h:b`, []string{"rsync -avze rm x a h:b", "rm x"}, false},
		{`rsync --rsh='rm x' a h:b`, []string{"rsync --rsh=rm x a h:b", "rm x"}, false},
		{`rsync --exclude -e -e 'rm x' a h:b`, []string{"rsync --exclude -e -e rm x a h:b", "-e", "rm x"}, false},
		{`sort --output -T --compress-program='rm x' f`, []string{"sort --output -T --compress-program=rm x f", "rm x"}, false},
		{`zip -TT -b -TT 'rm x' -T a.zip x`, []string{"zip -TT -b -TT rm x -T a.zip x", "-b", "rm x"}, false},
		{`zip -TT 'rm x' -T a.zip x`, []string{"zip -TT rm x -T a.zip x", "rm x"}, false},
		{`zip --unzip-command='rm x' -T a.zip x`, []string{"zip --unzip-command=rm x -T a.zip x", "rm x"}, false},
		{`man -P 'rm x' ls`, []string{"man -P rm x ls", "rm x"}, false},
		{`go test -exec 'rm x' ./...`, []string{"go test -exec rm x ./...", "rm x"}, true},
		{`go build --toolexec='rm x' ./...`, []string{"go build --toolexec=rm x ./...", "rm x"}, true},
		{`go vet -vettool=./x ./...`, []string{"go vet -vettool=./x ./...", "./x"}, true},
		{`go test -run Exec ./...`, []string{"go test -run Exec ./..."}, false},
		{`gcc -fsyntax-only -wrapper rm,x a.c`, []string{"gcc -fsyntax-only -wrapper rm,x a.c", "rm x"}, false},
		{`cc -c -wrapper=./w.sh a.c`, []string{"cc -c -wrapper=./w.sh a.c", "./w.sh"}, false},
		{`cpp -wrapper 'rm,-f,x' a.c`, []string{"cpp -wrapper rm,-f,x a.c", "rm -f x"}, false},
		{`clang++ -fsyntax-only a.cc`, []string{"clang++ -fsyntax-only a.cc"}, false},
	}
	for _, tt := range tests {
		a, ok := commandsAre(t, tt.line, tt.want)
		if !ok {
			continue
		}
		for _, c := range a.Commands[1:] {
			if c.Dir.Unknown != tt.unknown {
				t.Errorf("Analyze(%q): %q runs in %v; want unknown %v", tt.line, c.Source, c.Dir, tt.unknown)
			}
		}
	}
}
