package shellcmd

import (
	"strings"
	"sync"
)

// npm's commands and aliases as npm 11.19.1 lists them (lib/utils/cmd-list.js).
const (
	npmCommandList = "access adduser approve-scripts audit bugs cache ci completion config dedupe deny-scripts " +
		"deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund get help help-search init " +
		"install install-ci-test install-scripts install-test link ll login logout ls org outdated owner pack ping " +
		"pkg prefix profile prune publish query rebuild repo restart root run sbom search set shrinkwrap stage star " +
		"stars start stop team test token trust undeprecate uninstall unpublish unstar update version view whoami"
	npmAliasList = "author=owner home=docs issues=bugs info=view show=view find=search add=install " +
		"unlink=uninstall remove=uninstall rm=uninstall r=uninstall un=uninstall rb=rebuild list=ls ln=link " +
		"create=init i=install it=install-test cit=install-ci-test u=update up=update c=config s=search " +
		"se=search tst=test t=test ddp=dedupe v=view run-script=run clean-install=ci " +
		"clean-install-test=install-ci-test x=exec why=explain la=ll verison=version ic=ci innit=init " +
		"in=install ins=install inst=install insta=install instal=install isnt=install isnta=install " +
		"isntal=install isntall=install install-clean=ci isntall-clean=ci hlep=help dist-tags=dist-tag " +
		"upgrade=update udpate=update rum=run sit=install-ci-test urn=run ogr=org add-user=adduser"
)

// npmNames are npm's commands and its aliases, and every word npm
// abbreviates (the commands and the aliases' names), read once.
var npmNames = sync.OnceValues(func() (aliases map[string]string, words []string) {
	aliases = make(map[string]string)
	words = strings.Fields(npmCommandList)
	for _, a := range strings.Fields(npmAliasList) {
		k, v, _ := strings.Cut(a, "=")
		aliases[k] = v
		words = append(words, k)
	}
	return aliases, words
})

// npmCommand is the command npm runs for the word sub, as its deref
// reads it: a camelCase spelling as its kebab-case one (addUser), an
// alias (c for config, i for install), or any prefix of a command or an
// alias that begins no other ("publ" for publish, "conf" for config). A
// word that names none is returned as it stands.
func npmCommand(sub string) string {
	if strings.ContainsAny(sub, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		var b strings.Builder
		for _, r := range sub {
			if r >= 'A' && r <= 'Z' {
				b.WriteString("-" + string(r+'a'-'A'))
				continue
			}
			b.WriteRune(r)
		}
		sub = b.String()
	}
	aliases, words := npmNames()
	if sub == "" {
		return sub
	}
	found := ""
	for _, w := range words {
		switch {
		case w == sub:
			found = w
		case !strings.HasPrefix(w, sub):
			continue
		case found == "":
			found = w
		case found != sub:
			found = "\x00" // a prefix of two words: npm names neither
		}
		if found == sub {
			break
		}
	}
	if found == "" || found == "\x00" {
		return sub
	}
	for aliases[found] != "" {
		found = aliases[found]
	}
	return found
}

// NpmCommand is npmCommand: the npm command the word sub names.
func NpmCommand(sub string) string { return npmCommand(sub) }
