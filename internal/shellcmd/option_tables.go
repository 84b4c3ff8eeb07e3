package shellcmd

import "strings"

// optionTableSpecs are the options of programs a policy's rules often
// restrict by option ("rm -rf:*", "curl -X POST:*"), in the form
// gitSubOptionSpecs uses, as each program's "--help" (GNU coreutils 9.1,
// curl 7.88) lists them: a rule's option and the command's are compared
// by what they mean, so "rm --recursive --force" and "rm -R -f" are
// "rm -rf". Every program here reads its options as getopt_long does:
// clusters of letters, a long option by any unique prefix, options after
// operands too, "--" ending them.
var optionTableSpecs = map[string]string{
	"rm": "f/force i/ I/ /interactive=? /one-file-system /no-preserve-root /preserve-root=? r/recursive " +
		"R/recursive d/dir v/verbose",
	"cp": "a/archive /attributes-only /backup=? b/ /copy-contents d/ f/force i/interactive H/ l/link " +
		"L/dereference n/no-clobber P/no-dereference p/ /preserve=? /no-preserve= /parents R/recursive " +
		"r/recursive /reflink=? /remove-destination /sparse= /strip-trailing-slashes s/symbolic-link " +
		"S/suffix= t/target-directory= T/no-target-directory u/update=? v/verbose x/one-file-system Z/ /context=?",
	"mv": "/backup=? b/ f/force i/interactive n/no-clobber /strip-trailing-slashes S/suffix= " +
		"t/target-directory= T/no-target-directory u/update=? v/verbose Z/context",
	"ln": "/backup=? b/ d/directory F/directory f/force i/interactive L/logical n/no-dereference " +
		"P/physical r/relative s/symbolic S/suffix= t/target-directory= T/no-target-directory v/verbose",
	"chmod": "c/changes f/silent v/verbose /no-preserve-root /preserve-root /reference= R/recursive",
	"chown": "c/changes f/silent v/verbose /dereference h/no-dereference /from= /no-preserve-root " +
		"/preserve-root /reference= R/recursive H/ L/ P/",
	"chgrp": "c/changes f/silent v/verbose /dereference h/no-dereference /no-preserve-root /preserve-root " +
		"/reference= R/recursive H/ L/ P/",
	"curl": "X/request= d/data= /data-binary= /data-raw= /data-urlencode= F/form= o/output= O/remote-name " +
		"T/upload-file= u/user= H/header= k/insecure L/location x/proxy= K/config= s/silent S/show-error " +
		"f/fail v/verbose i/include I/head G/get e/referer= A/user-agent= b/cookie= c/cookie-jar= " +
		"n/netrc /url= w/write-out= m/max-time= r/range= C/continue-at= /compressed q/disable",
}

// optionTables are optionTableSpecs read into options.
var optionTables = parseOptionSpecs(optionTableSpecs)

// ReadOptions reads args, the words after a program's name (after its
// subcommand for git: key "git push"), with the options the bridge knows
// the program to have: git's subcommands' (gitSubOptionSpecs) and
// optionTableSpecs'. known is false for a program neither lists; its
// words are then read as ReadGitArgs reads a subcommand it does not know.
func ReadOptions(key string, args []Word) (g GitArgs, known bool) {
	if sub, ok := strings.CutPrefix(key, "git "); ok {
		g = ReadGitArgs(sub, args)
		return g, g.known
	}
	table, known := optionTables[key]
	return readOptionWords(table, known, args), known
}

// OptionWord is one option word as ReadOptions read it.
type OptionWord struct {
	// Names are the options it may be: one, unless a prefix is
	// ambiguous; what was typed for a program whose options the table
	// does not hold.
	Names []string
	// Negated: a "--no-" form takes the option back.
	Negated bool
	// Value is its value, when HasValue.
	Value    Word
	HasValue bool
}

// Options returns the option words read, in order.
func (g GitArgs) Options() []OptionWord {
	out := make([]OptionWord, 0, len(g.opts))
	for _, o := range g.opts {
		out = append(out, OptionWord{Names: o.names, Negated: o.neg, Value: o.value, HasValue: o.hasValue})
	}
	return out
}
