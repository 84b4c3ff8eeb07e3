package governance

import "testing"

// TestGoToolListProblem checks how a tool flag list value is split and
// which flag of it is not known to be quiet.
func TestGoToolListProblem(t *testing.T) {
	checkFunc(t, "goToolListProblem", goToolListProblem, map[string]string{
		"":                      "",
		"-N -l":                 "",
		"all=-N -l":             "",
		"./internal/...=-m":     "",
		"-X main.v=1 -s":        "",
		"-X=main.v=1":           "",
		`-X "main.v=a b" -w`:    "",
		"-X":                    "-X",
		"-cpuprofile=/x":        "-cpuprofile=/x",
		"all=-l -memprofile /x": "-memprofile",
		"-extld=./evil":         "-extld=./evil",
		"-m=2 -l=4":             "",
		"-N=yes":                "-N=yes",
		"main.go":               "main.go",
		"-X main.v=1 x":         "x",
		`"-N`:                   `"-N`,
		`'-N'x`:                 `'-N'x`,
	})
}
