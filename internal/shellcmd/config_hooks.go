package shellcmd

// The git hook managers' install commands write the repository's hooks
// or its configuration's core.hooksPath without naming either: "pre-commit
// install" writes .git/hooks/pre-commit (and the hook types -t names),
// "lefthook install" and overcommit's --install the hooks of every type
// it runs, husky ("husky install", "husky init", and bare "husky") sets
// core.hooksPath in .git/config. The person's next commit then runs them,
// outside the bridge. Their paths are written from where the line runs:
// a .git at any depth is protected whole, so a subdirectory's name is
// refused as the top's would be.

// hookInstallers read the hook managers' install and uninstall commands.
var hookInstallers = map[string]func(args []Word) []string{
	"pre-commit": func(args []Word) []string {
		sub, rest, ok := subcommand(args, "-c", "--config")
		if !ok || sub != "install" && sub != "uninstall" && sub != "" {
			return nil
		}
		a := splitConfigArgs(rest, "-t", "--hook-type", "-c", "--config")
		types := a.values("-t", "--hook-type")
		if len(types) == 0 || a.computed {
			types = append(types, "pre-commit")
		}
		out := make([]string, 0, len(types))
		for _, t := range types {
			out = append(out, ".git/hooks/"+t)
		}
		return out
	},
	"lefthook": func(args []Word) []string {
		if sub, _, ok := subcommand(args); ok && (sub == "install" || sub == "uninstall" || sub == "add" || sub == "") {
			return []string{".git/hooks/"}
		}
		return nil
	},
	"overcommit": func(args []Word) []string {
		a := splitConfigArgs(args)
		if a.has("--install", "-i", "--uninstall", "-u") || a.computed {
			return []string{".git/hooks/"}
		}
		return nil
	},
	"husky": func(args []Word) []string {
		sub, _, ok := subcommand(args, "-d", "--directory")
		switch {
		case ok && (sub == "install" || sub == "init" || sub == ""):
		case !ok && !onlyHelpOptions(args):
			// husky 9 installs when run bare ("npx husky", its prepare
			// script), and the bin of husky's current source takes only
			// -d/--directory.
		default:
			return nil
		}
		return []string{".git/config"}
	},
}

// onlyHelpOptions reports whether args are one or more help or version
// options and nothing else.
func onlyHelpOptions(args []Word) bool {
	for _, a := range args {
		switch a.Text {
		case "-h", "--help", "-v", "-V", "--version":
			if a.Kind != Static {
				return false
			}
		default:
			return false
		}
	}
	return len(args) > 0
}

// hookInstallConfig is hookInstallers' reading as a configuration change.
func hookInstallConfig(name string, args []Word) (ConfigChange, bool) {
	paths := hookInstallers[name](args)
	if len(paths) == 0 {
		return ConfigChange{}, false
	}
	return changeWith(name+" install", homeFiles(paths...), nil, nil)
}
