package adapter

// Gemini CLI runs a run_shell_command in its dir_path, resolved against
// the session's directory, when the model gives one. Its permission
// request carries the command as its title and the directory only in its
// text ("[in DIR] (description)"), no rawInput and no location, so the
// bridge would decide the command in the session's directory: `touch x`
// with dir_path "secrets" is judged as ./x and writes secrets/x. A line
// that changes directory itself (`cd secrets && touch x`) is followed by
// the bridge, so Gemini is told to run the command that way instead.

// geminiShellDirPattern matches run_shell_command arguments (Gemini's
// stable JSON: sorted keys, no spaces) whose dir_path is neither empty nor
// "." (both run in the session's directory). It has no quantifier after a
// group, which Gemini's ReDoS heuristic would drop.
const geminiShellDirPattern = `"dir_path":"(?:[^".]|\.[^"])`

// geminiShellDirRule is the rule refusing such a call, in every mode,
// above every rule the policy's own rules become.
func geminiShellDirRule() GeminiRule {
	return GeminiRule{ToolName: "run_shell_command", ArgsPattern: geminiShellDirPattern, Decision: "deny",
		Priority: geminiDenyPriority + 1, Source: "built-in: a shell command runs in the session's directory",
		DenyMessage: "acp-bridge cannot see run_shell_command's dir_path in the permission request and would judge the " +
			"command in the wrong directory; run it without dir_path, as cd DIR && COMMAND"}
}
