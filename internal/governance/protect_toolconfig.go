package governance

// toolConfig are the files in a workspace from which the person's own
// tools run a command with no act of the person's that runs the project:
// cd into a directory, opening a terminal in the IDE, starting a REPL or a
// debugger there, any command of the package manager, a file saved in the
// IDE, or the IDE's run and debug configurations, which the person starts
// by a name while the command stays out of sight. An agent that wrote one
// would have its command run later, outside the bridge. They are protected
// as agentConfig is, beneath every workspace root and at any depth.
//
// Each was checked against the tool's documentation or source, or by
// running it:
//   - mise, once activated in the person's shell, runs mise.toml's
//     [hooks] (cd, enter, leave) and env._.source on cd and at each prompt;
//     its trust is bound to the path, not the content, unless paranoid, so
//     a config the person trusted once runs what the agent writes into it.
//     Its names: mise.toml, .mise.toml, mise.local.toml, .mise.local.toml,
//     .mise/, mise/config.toml, .config/mise.toml, .config/mise/, and rtx's
//     .rtx.toml.
//   - Devbox runs devbox.json's init_hook on devbox shell and, through the
//     .envrc its direnv integration writes (which watches devbox.json), on
//     the next cd or prompt.
//   - Zed's terminal sources the activate script of a virtual environment
//     in .venv or venv (and env, .env: detect_venv, on by default) each
//     time a terminal opens, and VS Code's Python extension activates the
//     selected environment in new terminals too; but the environment is
//     the agent's to make and use ("source .venv/bin/activate && pytest",
//     "rm -rf .venv", pip writing its bin/), and its programs come first on
//     the person's PATH once activated, so protecting the activate scripts
//     would refuse everyday lines while leaving the programs beside them
//     open. They are left to the policy (Edit(**/bin/activate*)).
//   - Yarn runs the file .yarnrc.yml's yarnPath names (.yarnrc's yarn-path
//     for Yarn 1), and loads its plugins, on every yarn command, yarn
//     --version included; both usually lie in .yarn/releases and
//     .yarn/plugins.
//   - pdb runs ./.pdbrc (its ! lines are Python) when it starts, irb the
//     first of ./.irbrc, ./irb.rc, ./_irbrc when the person has none in the
//     home directory, Pry ./.pryrc, and R (RStudio opening the project)
//     ./.Rprofile and ./.Renviron (which may name another profile).
//   - VS Code's .vscode/launch.json and Zed's .zed/debug.json are debug
//     configurations, programs (and a preLaunchTask) the IDE runs when the
//     person picks one by its name; JetBrains IDEs keep run configurations
//     in .idea/workspace.xml and .run/, startup tasks and File Watchers
//     (commands run whenever a matching file changes) in .idea/.
//   - hk runs the steps of hk.pkl, and lint-staged the commands of its
//     configuration, from the git hooks they install, on each commit.
//
// Not protected, because they run no command of the file's own: .gitmodules
// (git refuses an update = !command it did not get from .git/config),
// .gitattributes (its filters and drivers are defined in git's
// configuration), .editorconfig, .clang-format, .nvmrc and .python-version
// (version names; pyenv ignores a path there), .vscode/extensions.json
// (the person is asked to install from the marketplace), .gdbinit and
// .lldbinit (gdb's auto-load safe-path and lldb's target.load-cwd-lldbinit
// refuse a project's by default), an IPython profile in the workspace
// (IPython looks for none in the working directory). A build the person
// starts on purpose runs the project's own code and is a documented limit
// (.npmrc and .pnpmfile.cjs with package.json's scripts, Pipfile,
// .cargo/config.toml with build.rs, flake.nix).
var toolConfig = []configLocation{
	{"mise.toml", "mise's configuration, whose hooks and env._.source run commands on cd where mise is activated", false, false},
	{".mise.toml", "mise's configuration, whose hooks and env._.source run commands on cd where mise is activated", false, false},
	{"mise.local.toml", "mise's configuration, whose hooks and env._.source run commands on cd where mise is activated", false, false},
	{".mise.local.toml", "mise's configuration, whose hooks and env._.source run commands on cd where mise is activated", false, false},
	{".mise", "mise's configuration, whose hooks and env._.source run commands on cd where mise is activated", true, true},
	{"mise/config.toml", "mise's configuration, whose hooks and env._.source run commands on cd where mise is activated", false, false},
	{".config/mise.toml", "mise's configuration, whose hooks and env._.source run commands on cd where mise is activated", false, false},
	{".config/mise", "mise's configuration, whose hooks and env._.source run commands on cd where mise is activated", true, false},
	{".rtx.toml", "rtx's configuration, mise's under its former name, whose env._.source runs commands on cd", false, false},
	{"devbox.json", "Devbox's configuration, whose init_hook runs on devbox shell and, through its direnv integration, on cd", false, false},
	{".yarnrc.yml", "Yarn's configuration, whose yarnPath and plugins run on every yarn command", false, false},
	{".yarnrc", "Yarn's configuration, whose yarn-path runs on every yarn command", false, false},
	{".yarn/releases", "the Yarn release yarnPath names, run on every yarn command", true, false},
	{".yarn/plugins", "Yarn's plugins, loaded on every yarn command", true, false},
	{".vscode/launch.json", "VS Code's debug configurations, programs and tasks the IDE runs", false, false},
	{".zed/debug.json", "Zed's debug configurations, programs the IDE runs", false, false},
	{".idea", "the JetBrains project configuration, whose run configurations, startup tasks and file watchers are commands the IDE runs", true, true},
	{".run", "JetBrains run configurations, commands the IDE runs", true, true},
	{".pdbrc", "pdb's startup file, Python that pdb runs when it starts in that directory", false, false},
	{".irbrc", "irb's startup file, Ruby that irb runs when it starts in that directory", false, false},
	{"_irbrc", "irb's startup file, Ruby that irb runs when it starts in that directory", false, false},
	{"irb.rc", "irb's startup file, Ruby that irb runs when it starts in that directory", false, false},
	{".pryrc", "Pry's startup file, Ruby that Pry runs when it starts in that directory", false, false},
	{".Rprofile", "R's startup profile, R code that R runs when it starts in that directory", false, false},
	{".Renviron", "R's startup environment, which can name the profile R runs when it starts in that directory", false, false},
	{"hk.pkl", "hk's configuration, the git hooks it runs", false, false},
	{".lintstagedrc", "lint-staged's configuration, commands a git hook runs", false, false},
	{".lintstagedrc.json", "lint-staged's configuration, commands a git hook runs", false, false},
	{".lintstagedrc.yaml", "lint-staged's configuration, commands a git hook runs", false, false},
	{".lintstagedrc.yml", "lint-staged's configuration, commands a git hook runs", false, false},
	{".lintstagedrc.js", "lint-staged's configuration, commands a git hook runs", false, false},
	{".lintstagedrc.mjs", "lint-staged's configuration, commands a git hook runs", false, false},
	{".lintstagedrc.cjs", "lint-staged's configuration, commands a git hook runs", false, false},
	{"lint-staged.config.js", "lint-staged's configuration, commands a git hook runs", false, false},
	{"lint-staged.config.mjs", "lint-staged's configuration, commands a git hook runs", false, false},
	{"lint-staged.config.cjs", "lint-staged's configuration, commands a git hook runs", false, false},
}
