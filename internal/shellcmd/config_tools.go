package shellcmd

import (
	"slices"
	"strings"
)

// The configuration writers of Ruby's, Python's and PHP's package
// managers, of gh, git's lfs and maintenance, kubectl and the AWS CLI
// (config_writes.go has the others and how they are read).

// bundleConfig reads Bundler's "config set|unset" and the older "config
// NAME VALUE" and "config --delete NAME": the user's ~/.bundle/config
// (--global) or the application's .bundle/config (--local); without
// either, both.
func bundleConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, "--gemfile")
	if !ok || sub != "config" && sub != "" {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(rest)
	verb, _ := a.operand(0)
	switch {
	case a.computed, verb == "set", verb == "unset", a.has("--delete"):
	case verb == "get", verb == "list", len(a.operands) < 2:
		return ConfigChange{}, false
	}
	var files []ConfigFile
	if !a.has("--local") {
		files = append(files, homeFiles("~/.bundle/config")...)
	}
	if !a.has("--global") {
		files = append(files, homeFiles(".bundle/config")...)
	}
	return changeWith("bundle config", files, nil, nil)
}

// poetryConfig reads "poetry config KEY VALUE" and "--unset KEY": the
// user's config.toml, or with --local the project's poetry.toml.
func poetryConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, "--directory", "-C", "--project", "-P")
	if !ok || sub != "config" && sub != "" {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(rest)
	if !a.computed && !a.has("--unset") && (a.has("--list") || len(a.operands) < 2) {
		return ConfigChange{}, false
	}
	files := homeFiles(userConfig("pypoetry/config.toml"), "~/.config/pypoetry/config.toml")
	if a.has("--local") {
		files = homeFiles("poetry.toml")
	}
	return changeWith("poetry config", dedupeFiles(files), nil, nil)
}

// condaConfig reads "conda config" with --set, --add, --append,
// --prepend, --remove, --remove-key, --stdin or --write-default: the
// user's .condarc, the one --file names, or the installation's
// (--system) or the active environment's (--env).
func condaConfig(name string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args)
	if !ok || sub != "config" && sub != "" {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(rest, "--file")
	if !a.computed && !a.has("--set", "--add", "--append", "--prepend", "--remove", "--remove-key", "--stdin", "--write-default") {
		return ConfigChange{}, false
	}
	files := homeFiles(a.values("--file")...)
	if a.has("--system") {
		files = append(files, ConfigFile{Path: ".condarc of " + name + "'s installation", Computed: true})
	}
	if a.has("--env") {
		files = append(files, ConfigFile{Path: ".condarc of the active environment", Computed: true})
	}
	if len(files) == 0 {
		files = homeFiles("~/.condarc")
	}
	return changeWith(name+" config", files, nil, nil)
}

// composerConfig reads "composer config -g|--global KEY VALUE" (and
// --unset, --editor): Composer's home config.json or auth.json (--auth).
// Without --global it writes the project's composer.json.
func composerConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, "--working-dir", "-d")
	if !ok || sub != "config" && sub != "" {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(rest, "--file", "-f")
	if !a.computed && !a.has("--unset", "-e", "--editor") && (a.has("-l", "--list") || len(a.operands) < 2) {
		return ConfigChange{}, false
	}
	files := homeFiles(a.values("--file", "-f")...)
	if len(files) == 0 {
		file := "config.json"
		if a.has("-a", "--auth") {
			file = "auth.json"
		}
		if a.has("-g", "--global") {
			files = homeFiles(userConfig("composer/"+file), "~/.config/composer/"+file, "~/.composer/"+file)
		} else {
			files = homeFiles("composer.json")
			if file == "auth.json" {
				files = homeFiles("auth.json")
			}
		}
	}
	return changeWith("composer config", dedupeFiles(files), nil, nil)
}

// ghConfig reads "gh config set", "gh alias set|delete|import" (gh's
// config.yml) and "gh auth login|logout|switch|refresh" (its hosts.yml),
// and "gh auth setup-git", which sets git's credential helper in the
// user's git configuration.
func ghConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, "-R", "--repo")
	if !ok {
		return ConfigChange{}, false
	}
	verb, _, _ := subcommand(rest, "-h", "--hostname")
	dir := "~/.config/gh/"
	switch {
	case sub == "config" && (verb == "set" || verb == ""),
		sub == "alias" && (verb == "set" || verb == "delete" || verb == "import" || verb == ""):
		return changeWith("gh "+sub, homeFiles(dir+"config.yml", dir+"hosts.yml"), nil, nil)
	case sub == "auth" && (verb == "login" || verb == "logout" || verb == "switch" || verb == "refresh" || verb == ""):
		return changeWith("gh auth", homeFiles(dir+"hosts.yml"), nil, nil)
	case sub == "auth" && verb == "setup-git":
		return changeWith("gh auth", homeFiles("~/.gitconfig", "~/.config/git/config"), nil, nil)
	case sub == "":
		return changeWith("gh", homeFiles(dir+"config.yml", dir+"hosts.yml"), nil, nil)
	}
	return ConfigChange{}, false
}

// gitLFSConfig reads "git-lfs install|uninstall".
func gitLFSConfig(_ string, args []Word) (ConfigChange, bool) {
	return lfsInstall(args)
}

// gitConfigElsewhere reads the git subcommands that write git
// configuration outside the repository: "git lfs install|uninstall" (the
// user's, the system's or the repository's, by --local, --system,
// --worktree, --file) and "git maintenance register|unregister|start|
// stop" (the user's, or --config-file).
func gitConfigElsewhere(_ string, args []Word) (ConfigChange, bool) {
	form := append([]Word{{Kind: Static, Text: "git"}}, args...)
	g := GitOptions(form)
	if g.At >= len(form) {
		return ConfigChange{}, false
	}
	switch staticText(form[g.At]) {
	case "lfs":
		return lfsInstall(form[g.At+1:])
	case "maintenance":
		verb, rest, ok := subcommand(form[g.At+1:])
		if !ok || verb != "" && !slices.Contains([]string{"register", "unregister", "start", "stop"}, verb) {
			return ConfigChange{}, false
		}
		a := splitConfigArgs(rest, "--config-file", "--scheduler")
		files := homeFiles(a.values("--config-file")...)
		if len(files) == 0 {
			files = homeFiles("~/.gitconfig", "~/.config/git/config")
		}
		return changeWith("git maintenance", files, nil, nil)
	}
	return ConfigChange{}, false
}

// lfsInstall reads the words after "lfs": install and uninstall write
// the user's git configuration unless --local, --worktree, --system or
// --file says which.
func lfsInstall(args []Word) (ConfigChange, bool) {
	verb, rest, ok := subcommand(args)
	if !ok || verb != "install" && verb != "uninstall" && verb != "" {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(rest, "--file")
	files := homeFiles(a.values("--file")...)
	if a.has("--local") {
		files = append(files, homeFiles(".git/config")...)
	}
	if a.has("--worktree") {
		files = append(files, homeFiles(".git/config.worktree")...)
	}
	if a.has("--system") {
		files = append(files, homeFiles("/etc/gitconfig")...)
	}
	if len(files) == 0 || a.computed {
		files = append(files, homeFiles("~/.gitconfig", "~/.config/git/config")...)
	}
	return changeWith("git lfs "+verb, files, nil, nil)
}

// kubectlConfig reads kubectl's config writers (set, set-cluster,
// set-context, set-credentials, unset, use-context, delete-*,
// rename-context): the kubeconfig (--kubeconfig, or ~/.kube/config).
// A user's exec command is a program kubectl runs.
func kubectlConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, kubectlValued...)
	if !ok || sub != "config" && sub != "" {
		return ConfigChange{}, false
	}
	verb, _, ok := subcommand(rest, kubectlValued...)
	if !ok || strings.HasPrefix(verb, "get-") || verb == "view" || verb == "current-context" {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(args, "--kubeconfig")
	files := homeFiles(a.values("--kubeconfig")...)
	if len(files) == 0 {
		files = homeFiles("~/.kube/config")
	}
	var keys []string
	for _, w := range args {
		if t := staticText(w); w.Kind != Static || strings.Contains(t, "exec") {
			keys = append(keys, t)
		}
	}
	return changeWith("kubectl config", files, keys, func(key string) (string, bool) {
		return "kubectl runs the exec command of a user's credentials", true
	})
}

// awsConfig reads "aws configure" and "aws configure set|import|sso":
// the user's ~/.aws/config and credentials. A profile's
// credential_process and the cli_pager are programs the CLI runs.
func awsConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, awsValued...)
	if !ok || sub != "configure" && sub != "" {
		return ConfigChange{}, false
	}
	verb, after, _ := subcommand(rest, awsValued...)
	if slices.Contains([]string{"get", "list", "list-profiles", "export-credentials"}, verb) {
		return ConfigChange{}, false
	}
	var keys []string
	if verb == "set" || verb == "" {
		keys = splitConfigArgs(after, awsValued...).operands
	}
	return changeWith("aws configure", homeFiles("~/.aws/config", "~/.aws/credentials"), keys, func(key string) (string, bool) {
		k := strings.ToLower(key)
		if k == "credential_process" || strings.HasSuffix(k, ".credential_process") || k == "cli_pager" || strings.HasSuffix(k, ".cli_pager") {
			return "the AWS CLI runs the program it names", true
		}
		return "", false
	})
}
