package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestRunnersRunTheirCommand: a tool runner's command is its next form
// (pyenv 2.4 runs rm x for "pyenv exec rm x"), so a rule refusing rm meets
// it while the runner's own rule matches the whole line; options the
// runner is known to take are read past, one it does not know makes every
// later word a candidate command too, and a subcommand that runs nothing
// runs nothing.
func TestRunnersRunTheirCommand(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string // forms among the commands'
		not  []string // forms that must not be there
	}{
		{"uv run rm x", []string{"uv run rm x => rm x"}, nil},
		{"uv run --with requests pytest", []string{"uv run --with requests pytest => pytest"}, []string{"requests pytest"}},
		{"uv run --frozen pytest", []string{"uv run --frozen pytest => pytest"}, nil},
		{"uv run --new-flag a rm x", []string{"uv run --new-flag a rm x => a rm x", "rm x"}, nil},
		{"uv tool run rm x", []string{"uv tool run rm x => rm x"}, nil},
		{"uv pip install rm", []string{"uv pip install rm"}, []string{"rm"}},
		{"poetry run rm x", []string{"poetry run rm x => rm x"}, nil},
		{"bundle exec rm x", []string{"bundle exec rm x => rm x"}, nil},
		{"pyenv exec rm x", []string{"pyenv exec rm x => rm x"}, nil},
		{"conda run -n base rm x", []string{"conda run -n base rm x => rm x"}, nil},
		{"mise exec node@20 -- rm x", []string{"mise exec node@20 -- rm x => rm x"}, nil},
		{"mise exec -c 'rm x'", []string{"rm x"}, nil},
		{"nix-shell --run 'rm x'", []string{"rm x"}, nil},
		{"nix develop -c bash -c 'rm x'", []string{"rm x"}, nil},
		{"nix shell nixpkgs#hello -c rm x", []string{"nix shell nixpkgs#hello -c rm x => rm x"}, nil},
		{"nvm exec 20 rm x", []string{"nvm exec 20 rm x => rm x"}, nil},
		{"corepack pnpm exec rm x", []string{"corepack pnpm exec rm x => pnpm exec rm x => rm x"}, nil},
		{"proot rm x", []string{"proot rm x => rm x"}, nil},
		{"npm exec -- rm x", []string{"npm exec -- rm x => rm x"}, nil},
		{"npm x rm x", []string{"npm x rm x => rm x"}, nil},
		{"npm exe --yes -- rm x", []string{"npm exe --yes -- rm x => rm x"}, nil},
		{"npm --prefix d exec -- rm x", []string{"npm --prefix d exec -- rm x => rm x"}, nil},
		{"npm --otp 1 exec -- rm x", []string{"npm --otp 1 exec -- rm x => rm x"}, nil},
		{"npm exec --package=p -- rm x", []string{"npm exec --package=p -- rm x => rm x"}, nil},
		{"npm exec -c 'rm x'", []string{"rm x"}, nil},
		{"npm run exec", []string{"npm run exec"}, []string{"exec"}},
		{"pnpm dlx rm x", []string{"pnpm dlx rm x => rm x"}, nil},
		{"pnpm --filter web exec rm x", []string{"pnpm --filter web exec rm x => rm x"}, nil},
		{"pnpm exec -c 'rm x'", []string{"rm x"}, nil},
		{"yarn dlx -p p rm x", []string{"yarn dlx -p p rm x => rm x"}, nil},
		{"yarn exec rm x", []string{"yarn exec rm x => rm x"}, nil},
		{"bun x rm x", []string{"bun x rm x => rm x"}, nil},
		{"bun x --bun rm x", []string{"bun x --bun rm x => rm x"}, nil},
		{"bun run x", []string{"bun run x"}, []string{"x"}},
	} {
		forms := formsOf(Analyze(tt.line, Options{}))
		for _, w := range tt.want {
			if !slices.Contains(forms, w) {
				t.Errorf("Analyze(%q) forms %q, want %q among them", tt.line, forms, w)
			}
		}
		for _, n := range tt.not {
			if slices.ContainsFunc(forms, func(f string) bool { return f == n || strings.HasSuffix(f, "=> "+n) }) {
				t.Errorf("Analyze(%q) forms %q, want no %q", tt.line, forms, n)
			}
		}
	}
}
