package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Beside the interpreters, many programs run a source file they are
// given, compiling it first or not: "java Evil.java" (Java's source
// launcher), "jshell x.jsh", "kotlin x.main.kts", "swift x.swift",
// "go run x.go". The file is code the line runs as much as a Python
// script is, so its text is read as the line's own (scriptFiles), and a
// line that runs one may read its code from any file it names (runsCode).
// What a build of a whole package or project runs (go test ./...,
// cargo test, pytest's conftest.py) is not read: docs/security.md, Limits.

// sourceRunners run the source files their operands name: each static
// operand that is not an option is read as code. A compiler that only
// writes an output is not one (javac, rustc, gcc), but one that may run
// what it compiles in the same command is (kotlinc -script, nim c -r,
// tcc -run).
var sourceRunners = setOf(
	// the JVM's: Java's single-file source launcher and its shell,
	// Groovy, Kotlin, Scala, Clojure
	"java", "jshell", "groovy", "kotlin", "kotlinc", "scala", "scala-cli", "amm", "clojure", "clj", "bb",
	// compiled languages run from source
	"swift", "dart", "crystal", "nim", "zig", "v", "tcc", "runghc", "runhaskell", "ocaml",
	// other languages' interpreters
	"julia", "elixir", "escript", "guile", "racket", "sbcl", "clisp", "pwsh", "powershell", "osascript",
	"coffee", "ts-node", "babel-node", "gjs", "qjs", "rhino", "hy")

// goRunFiles returns the .go files "go run" (after go's -C and its own
// flags) builds and runs: the operands ending ".go" up to the first that
// does not, after which the words are the program's arguments. A
// package named by its directory or import path is not read. nil for any
// other go command.
func goRunFiles(form []shellcmd.Word) []string {
	dir, i := goChdir(form, "")
	if i >= len(form) || form[i].Text != "run" {
		return nil
	}
	var out []string
	for _, w := range form[i+1:] {
		switch {
		case w.Kind != shellcmd.Static:
			continue // a flag's computed value, or a word the shell splits
		case strings.HasSuffix(w.Text, ".go"):
			out = append(out, joinRaw(dir, w.Text))
		case !strings.HasPrefix(w.Text, "-") && len(out) > 0:
			return out // the program's own arguments follow
		}
	}
	return out
}
