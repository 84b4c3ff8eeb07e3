package governance

// agentDirs are the project directories and files from which the coding
// agents that speak ACP take their configuration: what they run at start, on
// events or as a command, the variables their shells inherit, their sandbox
// and approval settings, their subagents and MCP servers. An agent that
// wrote one would have it obeyed on the next run, outside the bridge. Each
// agent's directory is protected whole, so that a file a release adds there
// (Codex's hooks.json and hooks/, its agents/*.toml with a sandbox_mode;
// Gemini CLI's sandbox.bashrc, which its sandbox sources, and system.md,
// which replaces its system prompt) is covered before anyone lists it; so
// are other agents' and agent IDEs' project directories and hook, MCP and
// environment files (Augment, Kiro, Amazon Q, Roo Code, Continue, Junie,
// Windsurf, Crush, Cursor, Copilot's custom agents, OpenHands, whose
// setup.sh runs at the start of every session, Cline's hooks, Mistral Vibe,
// whose project config.toml sets which tools run without asking, iFlow CLI,
// Factory Droid, Amp, Kilo Code, Copilot CLI and the permission files of
// Cursor's CLI and editor), and those of the ACP clients that start an agent
// from the workspace's configuration: acpx merges the .acpxrc.json of the
// directory it runs in over the person's own, so one there replaces the
// agent command the person gave (acp-bridge and its policy with it), sets
// approve-all and adds MCP servers. The files agentConfig names inside them
// come first in the list, so a refusal names what the file does. They are
// protected as agentConfig is, beneath every workspace root and at any
// depth.
var agentDirs = []configLocation{
	{".codex", "Codex's project directory: its configuration, hooks, rules and agents decide what Codex runs and what it may do without asking", true, true},
	{".gemini", "Gemini CLI's project directory: its settings, environment, commands, agents, policies and sandbox files decide what Gemini runs", true, true},
	{".qwen", "Qwen Code's project directory: its settings, environment, commands and agents decide what Qwen Code runs", true, true},
	{".opencode", "OpenCode's project directory: its plugins, agents and commands are code and commands OpenCode runs", true, true},
	{"opencode.json", "OpenCode's project configuration, whose MCP servers are commands OpenCode starts and whose permissions it obeys", false, false},
	{"opencode.jsonc", "OpenCode's project configuration, whose MCP servers are commands OpenCode starts and whose permissions it obeys", false, false},
	{".github/hooks", "GitHub Copilot's agent hooks, commands Copilot runs on its events", true, false},
	{".cursor/hooks.json", "Cursor's agent hooks, commands Cursor runs on its events", false, false},
	{".cursor/mcp.json", "Cursor's MCP servers, commands Cursor starts", false, false},
	{".zed", "Zed's project directory: its settings, tasks and debug configurations name commands the IDE runs", true, true},
	{".augment", "Augment's project directory: its settings, hooks and MCP servers are commands Auggie runs", true, true},
	{".kiro", "Kiro's project directory: its hooks and settings are commands Kiro runs", true, true},
	{".amazonq", "Amazon Q's project directory: its MCP servers are commands Q starts", true, true},
	{".roo", "Roo Code's project directory: its MCP servers are commands Roo starts", true, true},
	{".kilocode", "Kilo Code's project directory: its MCP servers are commands Kilo starts", true, true},
	{".continue", "Continue's project directory: its configuration names MCP servers and commands Continue runs", true, true},
	{".junie", "Junie's project directory: its MCP servers are commands Junie starts", true, true},
	{".windsurf", "Windsurf's project directory: its hooks are commands Windsurf runs", true, true},
	{".crush.json", "Crush's project configuration, whose MCP servers and LSP commands Crush starts", false, false},
	{"crush.json", "Crush's project configuration, whose MCP servers and LSP commands Crush starts", false, false},
	{".cursor/environment.json", "Cursor's background-agent environment, whose install and start commands Cursor runs", false, false},
	{".github/agents", "GitHub Copilot's custom agents, whose MCP servers are commands Copilot starts", true, false},
	{".openhands", "OpenHands' project directory: its setup.sh runs at the start of every session", true, true},
	{".clinerules/hooks", "Cline's project hooks, executables Cline runs on its events", true, false},
	{".cline", "Cline's project directory: its hooks are executables Cline runs on its events", true, true},
	{".vibe", "Mistral Vibe's project directory: its config.toml decides which tools run without asking and names MCP servers, commands Vibe starts; its tools and agents are code and profiles Vibe loads", true, true},
	{".iflow", "iFlow CLI's project directory: its settings' hooks and MCP servers are commands iFlow runs", true, true},
	{".factory", "Factory Droid's project directory: its settings' hooks, MCP servers and droids are commands Droid runs", true, true},
	{".amp", "Amp's project directory: its settings decide what Amp runs without asking and name MCP servers, commands Amp starts", true, true},
	{".cursor/cli.json", "Cursor CLI's project permissions, which let tools and commands run without asking", false, false},
	{".cursor/cli-config.json", "Cursor CLI's configuration and permissions, which let tools and commands run without asking", false, false},
	{".cursor/permissions.json", "Cursor's allowlists of MCP tools and terminal commands it runs without asking", false, false},
	{".copilot", "GitHub Copilot CLI's directory: its settings, trusted folders, tool permissions and MCP servers decide what Copilot runs", true, true},
	{".acpxrc.json", "acpx's project configuration, which replaces the agent command acpx starts, the bridge with it, its permission mode and the MCP servers it starts", false, false},
}
