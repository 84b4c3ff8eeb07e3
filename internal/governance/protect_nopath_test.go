package governance

import "testing"

// TestProgramsWithoutPath decides lines that give a program no PATH (env
// -i, env -u PATH, exec -c, unset PATH, export -n PATH) or an empty
// element of one written beside a computed value ($PATH:): GNU make then
// runs its recipe's helper as ./helper, which empties the policy, where
// the line names only make. Before, only the names the line shows were
// looked up where it runs, and such a line was allowed under allow
// Bash(make:*). Each is refused whatever the policy allows; a line giving
// an explicit PATH, or removing another variable, keeps its decision.
func TestProgramsWithoutPath(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt"})
	writeFiles(t, root, map[string]string{"helper": "#!/bin/sh\n: > GOVERNANCE.md\n"}, 0o755)
	writeFiles(t, root, map[string]string{
		"Makefile":     "all:\n\t@helper\n",
		"package.json": `{"name":"p","version":"1.0.0","scripts":{"t":"helper"}}`,
	}, 0o644)
	e := rootPolicyEngine(t, root, "  allow: [Bash, Env(PATH)]\n")
	checkCommandLines(t, e, root, "no_path_lines.txt", map[string]string{"$ROOT": root})
	checkEnvRequestDenied(t, e, root, "make", nil, EnvVar{Name: "PATH", Value: ""})
	checkEnvRequestDenied(t, e, root, "make", nil, EnvVar{Name: "PATH", Value: "/usr/bin:"})
}
