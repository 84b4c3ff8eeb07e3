// Package shellcmd finds every command a shell command line runs, the way
// bash and a POSIX sh will run it, so a policy can judge each one.
//
// Analyze parses a line with mvdan.cc/sh/v3/syntax in the bash and the POSIX
// dialects and walks the whole tree of each: every simple command, in
// pipelines, lists, subshells, { } groups, function bodies, coproc,
// if/for/while/case, command and process substitutions and redirections,
// wherever it sits. Each simple command becomes a Command whose Forms are its
// words after brace expansion and quote removal, followed by the words of
// what each wrapper it starts with runs:
//
//	sudo -u root timeout --signal KILL 5 rm -rf x
//
// has the forms [sudo -u root timeout --signal KILL 5 rm -rf x],
// [timeout --signal KILL 5 rm -rf x] and [rm -rf x]. A shell string a wrapper
// or shell runs (bash -c '...', su -c, script -c, flock -c, watch, eval, a
// here-document fed to a shell, a trap action, an alias value) is parsed as
// shell in turn and its commands are added to the analysis.
//
// A Word is Static when its value is known from the text alone ($'\x72m' and
// "r"m are rm), Glob when it is a pattern the shell matches against file
// names at run time (/usr/bin/r[m]), and Dynamic when its value comes from an
// expansion (parameters, command substitution, arithmetic, $"...", tilde).
// Notes on a Command say why no rule can vouch for it: its command word is
// not static, a wrapper's options were not understood, or it runs code the
// analysis cannot see (python -c, eval, source, a shell reading its input).
// Assignments lists every variable the line sets, for an environment
// policy, and Redirects every file its redirections open.
//
// The package decides nothing: internal/governance matches its commands
// against rules.
package shellcmd
