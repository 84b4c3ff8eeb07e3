package shellcmd

import "regexp"

// bash reads two operators it does not document, ${x~} and ${x~~}, which
// toggle the case of the value's first character and of all of them: w=RM;
// ${w~~} x runs rm x. The grammar here does not parse them, so such a line
// needed approval, and ran rm once approved. A line holding one is also
// read with each written as the operators that lower and raise the case
// (${x,} and ${x^}, ${x,,} and ${x^^}), whose values hold every all-lower
// and all-upper name a toggle gives (caseToggleReadings): the commands and
// names of each reading are decided as the line's.

// caseToggleAll and caseToggleOne match the start of ${x~~...} and of
// ${x~...}, x a name or an array element.
var (
	caseToggleAll = regexp.MustCompile(`\$\{(#?[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?)~~`)
	caseToggleOne = regexp.MustCompile(`\$\{(#?[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?)~`)
)

// caseToggleReadings returns src with every case toggle written as the
// operator lowering case, and as the one raising it; nothing where src
// holds none.
func caseToggleReadings(src string) []string {
	if !caseToggleOne.MatchString(src) {
		return nil
	}
	as := func(op string) string {
		out := caseToggleAll.ReplaceAllString(src, "$${$1"+op+op)
		return caseToggleOne.ReplaceAllString(out, "$${$1"+op)
	}
	return []string{as(","), as("^")}
}
