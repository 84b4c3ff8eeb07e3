package audit

// The records governance writes hold the same few member names again and
// again: a decision's rule and reason, the session, a call's status and
// its mirror (toolCall), an output's type, content and text. Whether a
// name names a secret (isSecretKey) or is written under another name
// (keyRenamed) depends on the name alone, and for these the answer is
// no: commonKey gives it with one switch, rather than folding the name
// and comparing it with every secret suffix, or looking it up among the
// strings known clean, for each member of each record. FuzzCommonKey
// checks that every common name is neither.

// commonKey reports whether k is one of the member names records commonly
// hold, none of which names a secret or is renamed.
func commonKey(k string) bool {
	switch k {
	case "type", "text", "content", "kind", "path", "status", "session", "rule", "reason",
		"toolCall", "violation", "enforcement", "advisories", "policyRule", "sessionUpdate", "replay",
		"method", "direction", "size", "title", "locations", "line", "stdout", "stderr", "exitCode",
		"command", "args", "cwd", "toolCallId", "oldText", "newText", "terminalId":
		return true
	}
	return false
}
