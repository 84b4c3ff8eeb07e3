package hostile

import (
	"encoding/json"
	"fmt"
	"sort"
)

// authRequired is the JSON-RPC error code of an agent that wants the person
// to log in first (ACP's auth_required).
const authRequired = -32000

// authMethodSeen is what an IDE reads of one of the agent's auth methods.
// Zed runs a method whose _meta holds "terminal-auth" (in a method of any
// type) as a terminal task of that command, args and env when the person
// presses its button (crates/agent_servers: meta_terminal_auth_task, which
// needs label and command); that is what this IDE does.
type authMethodSeen struct {
	ID   string `json:"id"`
	Meta struct {
		TerminalAuth *struct {
			Label   string            `json:"label"`
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"terminal-auth"`
	} `json:"_meta"`
}

// logIn does what a person does in Zed when session/new answers that
// authentication is required: press the button of the first auth method
// the initialize response (the whole line init) offers that the IDE runs
// in a terminal, which runs it in the workspace. It returns whether one
// ran.
func (ide *executingIDE) logIn(init []byte) bool {
	var resp struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(init, &resp) != nil {
		return false
	}
	var r struct {
		AuthMethods []authMethodSeen `json:"authMethods"`
	}
	if ide.rd.params(resp.Result, &r) != nil {
		return false
	}
	for _, m := range r.AuthMethods {
		t := m.Meta.TerminalAuth
		if t == nil || t.Label == "" || t.Command == "" {
			continue
		}
		p := terminalParams{Command: t.Command, Args: t.Args, Cwd: ide.cfg.Workspace}
		names := make([]string, 0, len(t.Env))
		for n := range t.Env {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p.Env = append(p.Env, envVar{Name: n, Value: t.Env[n]})
		}
		run := runTerminal("go", p) // a task: argv, not a line
		ide.action("login %q: %q %q env=%v: exit %d %s", m.ID, p.Command, p.Args, p.Env, run.exitCode, run.err)
		if run.overran {
			ide.fail("login %q ran over %v and was ended: its effects may be missing", m.ID, runTimeout)
		}
		return true
	}
	return false
}

// openSession sends session/new; when the agent answers that the person
// must log in, the IDE logs in (logIn) and asks again, once.
func (ide *executingIDE) openSession(init []byte, params string) ([]byte, error) {
	ans, err := ide.call(sessionNewID, "session/new", params)
	if err != nil {
		return nil, err
	}
	var e struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(ans, &e) != nil || e.Error == nil || e.Error.Code != authRequired {
		return ans, nil
	}
	if !ide.logIn(init) {
		ide.action("login: the agent asks for a login and offers no method the IDE runs")
	}
	ans, err = ide.call(sessionNewID, "session/new", params)
	if err != nil {
		return nil, fmt.Errorf("after logging in: %v", err)
	}
	return ans, nil
}
