package governance

import (
	"strconv"
	"strings"
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// maxAnalyses bounds the command lines an engine keeps the analysis of.
const maxAnalyses = 512

// maxAnalysedLine bounds the length of a line whose analysis is kept.
const maxAnalysedLine = 1024

// analyses keeps the analyses of pure command lines (shellcmd.Pure),
// which depend on nothing but the line's text: an agent runs the same
// few lines again and again. The analysis is the shell grammar's reading
// of the text, not a decision; every decision is made again from it. With
// it are kept what decideCommands reads of each of its commands that is a
// function of the command alone (commandFacts): how each command rule's
// pattern matches it, its description and the words that may name files.
// Nothing kept depends on the file system or the request. It is safe for
// concurrent use; the analyses it returns are shared and must not be
// changed.
type analyses struct {
	// rules are the engine's command rules (Engine.rulesFor(catCommand)),
	// set before the engine decides anything.
	rules []*rule

	mu sync.Mutex
	m  map[string]*keptLine // guarded by mu
}

// keptLine is a kept analysis and the facts of its commands.
type keptLine struct {
	a    *shellcmd.Analysis
	cmds []commandFacts // per a.Commands
}

// commandFacts is what decideCommands reads of one simple command c of a
// command line's own analysis (not of an argv reading) that is a function
// of c alone (and of the engine's rules).
type commandFacts struct {
	what    string   // "running " + strconv.Quote(c.Source)
	details []string // describeCommand(c)
	key     string   // decideCommands' key of c
	args    []argWord
	// matched holds, for each rule of analyses.rules whose command
	// pattern matches c at all (matchCommand), in their order, its index
	// and how it matches.
	matched []ruleMatch
}

// ruleMatch is how the rule of index rule matches a command.
type ruleMatch struct {
	rule int
	ruleLevel
}

// ruleLevel is how a command rule matches a command: the best level over
// its forms, and the first form at that level.
type ruleLevel struct {
	level matchLevel
	at    int
}

// analyze returns shellcmd.Analyze(line, opts), kept when line is pure.
func (c *analyses) analyze(line string, opts shellcmd.Options) *shellcmd.Analysis {
	a, _ := c.analyzeKept(line, opts)
	return a
}

// analyzeKept is analyze, with the facts of the analysis's commands when
// it is kept (nil otherwise).
func (c *analyses) analyzeKept(line string, opts shellcmd.Options) (*shellcmd.Analysis, *keptLine) {
	if len(line) > maxAnalysedLine || !shellcmd.Pure(line) {
		return shellcmd.Analyze(line, opts), nil
	}
	c.mu.Lock()
	k, ok := c.m[line]
	c.mu.Unlock()
	if ok {
		return k.a, k
	}
	k = c.keep(shellcmd.Analyze(line, opts))
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxAnalyses {
		c.m = make(map[string]*keptLine)
	}
	c.m[line] = k
	c.mu.Unlock()
	return k.a, k
}

// keep returns a with the facts of its commands.
func (c *analyses) keep(a *shellcmd.Analysis) *keptLine {
	k := &keptLine{a: a, cmds: make([]commandFacts, len(a.Commands))}
	for i, cmd := range a.Commands {
		k.cmds[i] = factsOfCommand(cmd, c.rules)
	}
	return k
}

// factsOfCommand returns the commandFacts of cmd under rules.
func factsOfCommand(c *shellcmd.Command, rules []*rule) commandFacts {
	f := commandFacts{what: "running " + strconv.Quote(c.Source), details: describeCommand(c), args: commandArgs(c)}
	f.key = commandKey(f.what, f.details, c)
	for i, r := range rules {
		if m := matchCommand(r, c); m.level != noMatch {
			f.matched = append(f.matched, ruleMatch{rule: i, ruleLevel: m})
		}
	}
	return f
}

// commandKey is decideCommands' key of the command c reported as what
// with details: the readings of one request that agree are reported once.
func commandKey(what string, details []string, c *shellcmd.Command) string {
	return what + "\x00" + strings.Join(details, "\x00") + "\x00" + c.Dir.String()
}
