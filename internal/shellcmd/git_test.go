package shellcmd

import (
	"slices"
	"testing"
)

// TestGitRuns: the commands git is given on the line are read as commands
// of their own, each as git's option parsers read the line, and git is
// still a command to decide. Where git runs them is not known.
func TestGitRuns(t *testing.T) {
	tests := []struct {
		line string
		want []string // every command the analysis finds, in order
	}{
		{`git status`, []string{"git status"}},
		{`git -c`, []string{"git -c"}}, // an option's value missing at the end
		{`git -C`, []string{"git -C"}},
		{`git --exec-path=x -c`, []string{"git --exec-path=x -c"}},
		{`git rebase -i HEAD~3`, []string{"git rebase -i HEAD~3"}},
		{`git rebase --exec 'cat .env' HEAD~3`, []string{"git rebase --exec cat .env HEAD~3", "cat .env"}},
		{`git rebase --exec='rm -rf x' HEAD~3`, []string{"git rebase --exec=rm -rf x HEAD~3", "rm -rf x"}},
		{`git rebase --exe 'rm x' HEAD~3`, []string{"git rebase --exe rm x HEAD~3", "rm x"}},
		{`git rebase -x 'rm x' HEAD~3`, []string{"git rebase -x rm x HEAD~3", "rm x"}},
		{`git rebase -ix 'rm x' HEAD~3`, []string{"git rebase -ix rm x HEAD~3", "rm x"}},
		{`git rebase -xrm HEAD~3`, []string{"git rebase -xrm HEAD~3", "rm"}},
		{`git rebase -s ours -x 'rm x'`, []string{"git rebase -s ours -x rm x", "rm x"}},
		{`git rebase -s x HEAD`, []string{"git rebase -s x HEAD"}}, // -s takes "x": no command
		{`git rebase -X theirs main`, []string{"git rebase -X theirs main"}},
		{`git rebase --empty=drop main`, []string{"git rebase --empty=drop main"}},
		{`git -C sub rebase -x 'rm x' main`, []string{"git -C sub rebase -x rm x main", "rm x"}},
		{`git difftool -x 'rm x'`, []string{"git difftool -x rm x", "rm x"}},
		{`git difftool --extcmd='rm x' HEAD`, []string{"git difftool --extcmd=rm x HEAD", "rm x"}},
		{`git difftool -t vimdiff HEAD`, []string{"git difftool -t vimdiff HEAD"}},
		{`git difftool --tool -t -x 'rm x' HEAD`, []string{"git difftool --tool -t -x rm x HEAD", "rm x"}}, // --tool takes "-t"
		{`git rebase --onto -s -x 'rm x' main`, []string{"git rebase --onto -s -x rm x main", "rm x"}},     // --onto takes "-s"
		{`git filter-branch --tree-filter 'rm x' HEAD`, []string{"git filter-branch --tree-filter rm x HEAD", "rm x"}},
		{`git filter-branch --msg-filter='sed s/a/b/' --setup 'rm x'`, []string{"git filter-branch --msg-filter=sed s/a/b/ --setup rm x", "sed s/a/b/", "rm x"}},
		{`git filter-branch --subdirectory-filter lib`, []string{"git filter-branch --subdirectory-filter lib"}},
		{`git submodule foreach 'rm x'`, []string{"git submodule foreach rm x", "rm x"}},
		// More than one word: run as they are, and read as one string too.
		{`git submodule --quiet foreach --recursive rm x`, []string{"git submodule --quiet foreach --recursive rm x", "rm x", "rm x"}},
		{`git submodule update --init`, []string{"git submodule update --init"}},
		{`git bisect run rm x`, []string{"git bisect run rm x", "rm x"}},
		{`git bisect start`, []string{"git bisect start"}},
		{`git send-email --sendmail-cmd='rm x' p.patch`, []string{"git send-email --sendmail-cmd=rm x p.patch", "rm x"}},
		{`git send-email -to-cmd 'rm x' p.patch`, []string{"git send-email -to-cmd rm x p.patch", "rm x"}},
		{`git send-email --to=a@b.c p.patch`, []string{"git send-email --to=a@b.c p.patch"}},
		{`git send-email --smtp-server=/usr/bin/rm p.patch`, []string{"git send-email --smtp-server=/usr/bin/rm p.patch", "/usr/bin/rm"}},
		{`git fetch --upload-pack='rm x' .`, []string{"git fetch --upload-pack=rm x .", "rm x"}},
		{`git fetch --upload='rm x' .`, []string{"git fetch --upload=rm x .", "rm x"}},
		{`git push --receive-pack 'rm x' .`, []string{"git push --receive-pack rm x .", "rm x"}},
		{`git archive --exec='rm x' --remote=. HEAD`, []string{"git archive --exec=rm x --remote=. HEAD", "rm x"}},
		{`git ls-remote -u 'rm x' .`, []string{"git ls-remote -u rm x .", "rm x"}},
		{`git clone -u 'rm x' . y`, []string{"git clone -u rm x . y", "rm x"}},
		{`git clone -b main -c core.sshCommand='rm x' r y`, []string{"git clone -b main -c core.sshCommand=rm x r y", "rm x"}},
		{`git clone --config=core.sshCommand='rm x' r y`, []string{"git clone --config=core.sshCommand=rm x r y", "rm x"}},
		{`git clone --conf core.sshCommand='rm x' r y`, []string{"git clone --conf core.sshCommand=rm x r y", "rm x"}},
		{`git clone --conf=core.sshCommand='rm x' r y`, []string{"git clone --conf=core.sshCommand=rm x r y", "rm x"}},
		{`git clone -qc core.sshCommand='rm x' r y`, []string{"git clone -qc core.sshCommand=rm x r y", "rm x"}},
		{`git clone -qccore.sshCommand='rm x' r y`, []string{"git clone -qccore.sshCommand=rm x r y", "rm x"}},
		{`git clone -o -c r y`, []string{"git clone -o -c r y"}},                                   // -o takes "-c": the remote's name
		{`git clone --origin -c -u 'rm x' r`, []string{"git clone --origin -c -u rm x r", "rm x"}}, // --origin takes "-c"
		{`git daemon --access-hook='rm x' .`, []string{"git daemon --access-hook=rm x .", "rm x"}},
		{`git instaweb -d 'rm x'`, []string{"git instaweb -d rm x", "rm x"}},
		{`git -c core.pager='rm x' log`, []string{"git -c core.pager=rm x log", "rm x"}},
		{`git -ccore.editor='rm x' commit`, []string{"git -ccore.editor=rm x commit", "rm x"}},
		{`git -c diff.x.textconv='rm x' log -p`, []string{"git -c diff.x.textconv=rm x log -p", "rm x"}},
		{`git -c credential.helper='!rm x' fetch`, []string{"git -c credential.helper=!rm x fetch", "rm x"}},
		{`git -c credential.helper=store fetch`, []string{"git -c credential.helper=store fetch", "git credential-store"}},
		{`git -c pager.log=false log`, []string{"git -c pager.log=false log"}},
		{`git -c trailer.x.cmd='rm x' commit --trailer x=y`, []string{"git -c trailer.x.cmd=rm x commit --trailer x=y", "rm x"}},
		{`git -c tar.tgz.command='rm x' archive --format=tgz HEAD`, []string{"git -c tar.tgz.command=rm x archive --format=tgz HEAD", "rm x"}},
		{`git -c submodule.s.update='!rm x' submodule update`, []string{"git -c submodule.s.update=!rm x submodule update", "rm x"}},
		{`git -c submodule.s.update=rebase submodule update`, []string{"git -c submodule.s.update=rebase submodule update"}},
		{`git -c gpg.ssh.defaultKeyCommand='rm x' commit -S`, []string{"git -c gpg.ssh.defaultKeyCommand=rm x commit -S", "rm x"}},
		{`git -c mergetool.t.path=/usr/bin/rm mergetool -t t`, []string{"git -c mergetool.t.path=/usr/bin/rm mergetool -t t", "/usr/bin/rm"}},
		{`git -c man.viewer=v -c man.v.cmd='rm x' help -m log`, []string{"git -c man.viewer=v -c man.v.cmd=rm x help -m log", "rm x"}},
		{`git -c man.man.path=/tmp/rm help -m log`, []string{"git -c man.man.path=/tmp/rm help -m log", "/tmp/rm"}},
		{`git -c core.alternateRefsCommand='rm x' fetch`, []string{"git -c core.alternateRefsCommand=rm x fetch", "rm x"}},
		{`git -c guitool.t.cmd='rm x' gui`, []string{"git -c guitool.t.cmd=rm x gui", "rm x"}},
		{`git -c hook.h.command='rm x' commit`, []string{"git -c hook.h.command=rm x commit", "rm x"}},
		{`git -c instaweb.httpd='rm x' instaweb`, []string{"git -c instaweb.httpd=rm x instaweb", "rm x"}},
		{`git -c sendemail.me.sendmailCmd='rm x' send-email p`, []string{"git -c sendemail.me.sendmailCmd=rm x send-email p", "rm x"}},
		{`git -c sendemail.smtpServer=/tmp/rm send-email p`, []string{"git -c sendemail.smtpServer=/tmp/rm send-email p", "/tmp/rm"}},
		{`git -c sendemail.smtpServer=smtp.example.com send-email p`, []string{"git -c sendemail.smtpServer=smtp.example.com send-email p"}},
		{`git -c man.viewer=woman help -m log`, []string{"git -c man.viewer=woman help -m log"}},
		{`git -c merge.conflictStyle=diff3 merge x`, []string{"git -c merge.conflictStyle=diff3 merge x"}},
		{`git -c alias.x='!rm' x y`, []string{"git -c alias.x=!rm x y", "rm y"}},
		{`git -c alias.x='!sh -c' x 'rm y'`, []string{"git -c alias.x=!sh -c x rm y", "sh -c rm y", "rm y"}},
		{`git -c alias.x='checkout' X -- a`, []string{"git -c alias.x=checkout X -- a", "git checkout -- a"}},
		{`git -c alias.x='!rm' other`, []string{"git -c alias.x=!rm other", "rm"}},
		{`git -c alias.x='rebase -x "rm y"' x main`, []string{"git -c alias.x=rebase -x \"rm y\" x main", "git rebase -x rm y main", "rm y"}},
	}
	for _, tt := range tests {
		a, ok := commandsAre(t, tt.line, tt.want)
		if !ok {
			continue
		}
		if len(a.Commands[0].Notes) == 0 && a.Commands[0].Transparent {
			t.Errorf("Analyze(%q): git is transparent; want it decided", tt.line)
		}
		for _, c := range a.Commands[1:] {
			if !c.Dir.Unknown && !c.Dir.AtTop {
				t.Errorf("Analyze(%q): %q runs in %v; want the top of the work tree or a directory not known", tt.line, c.Source, c.Dir)
			}
		}
	}
}

// TestGitRunsWhere: git runs a rebase's --exec, an alias, a pager at the
// top of the work tree (-C moves where that is looked for); foreach in
// each submodule, filter-branch's filters in a temporary tree and a
// transport's command in the repository it reaches, which the line does
// not show.
func TestGitRunsWhere(t *testing.T) {
	for _, tt := range []struct {
		line string
		want Dir
	}{
		{`git rebase -x 'rm x' main`, Dir{Paths: []string{""}, AtTop: true}},
		{`git -c alias.x='!rm y' x`, Dir{Paths: []string{""}, AtTop: true}},
		{`cd sub && git -C a -C /b -C c rebase -x 'rm x' main`, Dir{Paths: []string{"/b/c"}, AtTop: true}},
		{`git -C "$D" rebase -x 'rm x' main`, Dir{Unknown: true}},
		{`git --git-dir=x rebase -x 'rm x' main`, Dir{Unknown: true}},
		{`git submodule foreach 'rm x'`, Dir{Unknown: true}},
		{`git filter-branch --tree-filter 'rm x' HEAD`, Dir{Unknown: true}},
		{`git fetch --upload-pack='rm x' ../r`, Dir{Unknown: true}},
	} {
		a := Analyze(tt.line, Options{})
		c := a.Commands[len(a.Commands)-1]
		if formsOf(&Analysis{Commands: []*Command{c}})[0] != "rm x" && formsOf(&Analysis{Commands: []*Command{c}})[0] != "rm y" {
			t.Errorf("Analyze(%q): last command %q; want the one git runs", tt.line, formsOf(a))
			continue
		}
		got := c.Dir
		if got.Unknown != tt.want.Unknown || got.AtTop != tt.want.AtTop || !tt.want.Unknown && !slices.Equal(got.Paths, tt.want.Paths) {
			t.Errorf("Analyze(%q): the command git runs runs in %+v; want %+v", tt.line, got, tt.want)
		}
	}
}

// TestGitRunsComputed: a word computed at run time where git reads an
// option that runs a command may be that option.
func TestGitRunsComputed(t *testing.T) {
	for _, line := range []string{
		`git rebase $X main`,
		`git rebase -x "$X" main`,
		`git -c "$K" log`,
		`git $SUB -x 'rm x'`,
		`git submodule foreach "$X"`,
		`git filter-branch "$F" 'rm x'`,
		`git --config-env=alias.x=V x`,
		`git --config-env core.pager=V log`,
	} {
		a := Analyze(line, Options{})
		if !hasNote(a, NotStatic) {
			t.Errorf("Analyze(%q): no note of a word not static (commands %q)", line, formsOf(a))
		}
	}
}

// TestGitUnseenConfig: configuration that makes git read more
// configuration, or run hooks, from a file or directory the line does not
// show needs approval whatever rule names git: --git-dir names a
// repository whose config file the agent may have written ("git
// --git-dir=x st" ran x/config's alias st under Bash(git:*)).
func TestGitUnseenConfig(t *testing.T) {
	for _, line := range []string{
		`git -c include.path=x.cfg log`,
		`git -c includeIf.onbranch:main.path=x.cfg log`,
		`git -c core.hooksPath=h commit -m x`,
		`git -c protocol.ext.allow=always fetch 'ext::sh -c x'`,
		`git clone -c core.hooksPath=h r d`,
		`git --exec-path=./bin frob`,
		`git --git-dir=x st`,
		`git --git-dir x st`,
		`git -C sub --git-dir=.git log`,
	} {
		a := Analyze(line, Options{})
		if !slices.ContainsFunc(a.Commands[0].Notes, func(n Note) bool { return n.Kind == Unparsed }) {
			t.Errorf("Analyze(%q): notes %+v; want one no rule can vouch for", line, a.Commands[0].Notes)
		}
	}
}

// commandsAre analyzes line and reports, failing t when they are not,
// whether its commands are want (formsOf's rendering, in order).
func commandsAre(t *testing.T, line string, want []string) (*Analysis, bool) {
	t.Helper()
	a := Analyze(line, Options{})
	if got := formsOf(a); !slices.Equal(got, want) {
		t.Errorf("Analyze(%q) commands = %q; want %q", line, got, want)
		return a, false
	}
	return a, true
}
