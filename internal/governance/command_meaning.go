package governance

import (
	"path"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A restricting prefix rule that names a subcommand or options ("git push
// --force:*", "rm -rf:*", "kubectl delete:*") means what they do, however
// a command spells them: the program reads its options in any order, in
// clusters or apart, by a long name or a prefix of one, before its
// subcommand's name or after its operands. Matched word by word, "rm -r -f
// x", "rm --recursive --force x", "git -C . push --force" and "git push
// origin -f" would each pass such a deny rule, and a policy whose default
// allows would run them. ruleMeaning matches those spellings too; an allow
// rule still vouches only for the words it names.

// ruleMeaning is what a restricting prefix rule's words mean.
type ruleMeaning struct {
	// key names the option table: the program, or "git SUB".
	key string
	// fold: the table does not know the program, so its options'
	// letters are compared without regard to case, as the rule's words
	// are.
	fold bool
	// positionals are the rule's words after the program that are not
	// options or their values: a subcommand, operands.
	positionals []string
	// options are the options the rule names.
	options []shellcmd.OptionWord
	// plusForce: a git push refspec starting with "+" is a forced
	// update, as --force is, and so is every update --mirror makes.
	plusForce bool
}

// newRuleMeaning reads the words of a prefix rule; nil when the rule
// names the program alone.
func newRuleMeaning(words []string) *ruleMeaning {
	if len(words) < 2 {
		return nil
	}
	// A rule naming the program by path names it by its last element, as
	// restricting rules match it.
	m := &ruleMeaning{key: strings.ToLower(path.Base(words[0]))}
	args := words[1:]
	if m.key == "git" && !strings.HasPrefix(args[0], "-") {
		m.key += " " + strings.ToLower(args[0])
		m.positionals = append(m.positionals, args[0])
		args = args[1:]
	}
	read, known := shellcmd.ReadOptions(m.key, ruleWords(args, false))
	if !known {
		m.fold = true
		read, _ = shellcmd.ReadOptions(m.key, ruleWords(args, true))
	}
	for _, w := range read.Operands {
		m.positionals = append(m.positionals, w.Text)
	}
	m.options = read.Options()
	if m.key == "git push" {
		for _, o := range m.options {
			m.plusForce = m.plusForce || !o.Negated && len(o.Names) == 1 && o.Names[0] == "force"
		}
	}
	return m
}

// ruleWords makes rule words shell words; lower lower-cases option
// words.
func ruleWords(ws []string, lower bool) []shellcmd.Word {
	out := make([]shellcmd.Word, len(ws))
	for i, w := range ws {
		if lower && strings.HasPrefix(w, "-") {
			w = strings.ToLower(w)
		}
		out[i] = shellcmd.Word{Kind: shellcmd.Static, Text: w}
	}
	return out
}

// match reports how form, whose command word the caller has matched,
// means what the rule does: its positionals in order, with only options
// and what may be their values between them, and every option the rule
// names given, with the rule's value where it gives one.
func (m *ruleMeaning) match(form []shellcmd.Word) matchLevel {
	args := form[1:]
	level := m.matchPositionals(args)
	if level == noMatch {
		return noMatch
	}
	words := args
	if m.fold {
		words = make([]shellcmd.Word, len(args))
		for i, w := range args {
			if w.Kind == shellcmd.Static && strings.HasPrefix(w.Text, "-") {
				w.Text = strings.ToLower(w.Text)
			}
			words[i] = w
		}
	}
	read, _ := shellcmd.ReadOptions(m.key, words)
	if !m.givesOptions(read) {
		return noMatch
	}
	if read.Computed {
		// A word known only when the line runs may be any option: the
		// options are surely given only if they are without it.
		var known []shellcmd.Word
		for _, w := range words {
			if w.Kind != shellcmd.Dynamic {
				known = append(known, w)
			}
		}
		if sure, _ := shellcmd.ReadOptions(m.key, known); !m.givesOptions(sure) {
			level = mayMatch
		}
	}
	return level
}

// givesOptions reports whether read gives every option the rule names.
func (m *ruleMeaning) givesOptions(read shellcmd.GitArgs) bool {
	for _, o := range m.options {
		if !m.gives(read, o) {
			return false
		}
	}
	return true
}

// gives reports whether read gives the rule's option o.
func (m *ruleMeaning) gives(read shellcmd.GitArgs, o shellcmd.OptionWord) bool {
	if m.plusForce && len(o.Names) == 1 && o.Names[0] == "force" {
		if read.Has("mirror") {
			return true
		}
		for _, w := range read.Operands {
			if w.Kind != shellcmd.Static || strings.HasPrefix(w.Text, "+") {
				return true // a forced refspec, or a word that may be one
			}
		}
	}
	for _, name := range o.Names {
		if o.Negated {
			if read.HasNo(name) {
				return true
			}
			continue
		}
		if !read.Has(name) {
			continue
		}
		if !o.HasValue {
			return true
		}
		for _, v := range read.Values(name) {
			if v.Kind == shellcmd.Dynamic || v.Matches(o.Value.Text, true) {
				return true
			}
		}
		if read.Computed {
			return true
		}
	}
	return false
}

// names reports whether w names the rule's positional j: npm's
// subcommand by any alias or abbreviation npm takes ("npm i" installs,
// "npm publ" publishes), every other word as it is matched word by word.
func (m *ruleMeaning) names(j int, w shellcmd.Word) bool {
	if w.Matches(m.positionals[j], true) {
		return true
	}
	return m.key == "npm" && j == 0 && w.Kind == shellcmd.Static &&
		shellcmd.NpmCommand(w.Text) == shellcmd.NpmCommand(strings.ToLower(m.positionals[0]))
}

// matchPositionals reports how args can hold the rule's positionals in
// order: before, between and after them only option words, and words
// that follow an option word and may be its value. A word known only at
// run time may be any of these, so a match through one is mayMatch.
func (m *ruleMeaning) matchPositionals(args []shellcmd.Word) matchLevel {
	k := len(m.positionals)
	if k == 0 {
		return doesMatch
	}
	// reach[j][s]: the best level at which the words read so far hold
	// positionals[:j] in state s (afterOption: the last word was an
	// option word that may take the next as its value; ended: "--" was
	// read, so every word after it is an operand).
	const afterOption, ended = 1, 2
	reach, next := make([][4]matchLevel, k), make([][4]matchLevel, k)
	reach[0][0] = doesMatch
	best := noMatch
	for _, w := range args {
		clear(next)
		lift := func(j, s int, l matchLevel) {
			if j == k {
				best = max(best, l)
			} else {
				next[j][s] = max(next[j][s], l)
			}
		}
		live := false
		for j := range reach {
			for s, l := range reach[j] {
				if l == noMatch {
					continue
				}
				live = true
				end := s & ended
				switch t := w.Text; {
				case w.Kind == shellcmd.Dynamic:
					may := min(l, mayMatch)
					lift(j, end|afterOption, may)
					lift(j+1, end, may)
				case end == 0 && w.Kind == shellcmd.Static && t == "--":
					lift(j, ended, l)
				case end == 0 && strings.HasPrefix(t, "-") && len(t) > 1:
					if strings.Contains(t, "=") {
						lift(j, 0, l)
					} else {
						lift(j, afterOption, l)
					}
				default:
					if m.names(j, w) {
						lift(j+1, end, l)
					}
					if s&afterOption != 0 {
						lift(j, end, l) // the option's value
					}
				}
			}
		}
		if !live || best == doesMatch {
			break
		}
		reach, next = next, reach
	}
	return best
}
