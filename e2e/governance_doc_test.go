package e2e

// governanceDoc is a workspace GOVERNANCE.md the scenarios run under: the
// AIP-7 frontmatter naming it (name, title and description, version
// 1.0.0), its compact Claude-syntax rule list rules (the lines beneath
// "rules:", each ending in a newline), and a heading of its title.
func governanceDoc(name, title, description, rules string) string {
	return "---\nschema: governance.workspace/v1\nname: " + name + "\ntitle: " + title + "\ndescription: " + description +
		"\nversion: 1.0.0\nrules:\n" + rules + "---\n\n# " + title + "\n"
}
