package soak

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// AgentConfig configures ServeAgent.
type AgentConfig struct {
	// Mix is the text the turns carry.
	Mix Mix
	// Messages is the number of session/update notifications in each turn.
	Messages int
	// UsageEvery makes message i of a turn a usage_update (the agent's own
	// context figures) where i%UsageEvery == 0 and an agent_message_chunk
	// would be there, so every UsageEvery-th message when UsageEvery is a
	// multiple of ten; optional, zero means none (the soak's mixes carry
	// none).
	UsageEvery int
}

// ServeAgent is a fake ACP agent on r and w: it answers initialize and
// session/new, and each session/prompt with a turn of cfg.Messages
// session/update notifications of cfg.Mix (and usage_update every
// cfg.UsageEvery) followed by the prompt's result.
// Any other request gets an empty result. It returns when r ends.
func ServeAgent(r io.Reader, w io.Writer, cfg AgentConfig) error {
	t := newTurn(cfg.Mix, 1, cfg.UsageEvery)
	in := bufio.NewReaderSize(r, 1<<20)
	out := bufio.NewWriterSize(w, 256<<10)
	sessions, turns := 0, 0
	cwd := map[string]string{}
	var buf []byte
	for {
		line, err := in.ReadBytes('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading requests: %v", err)
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
				Cwd       string `json:"cwd"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &req) != nil || req.ID == nil || req.Method == "" {
			continue // notifications and responses need no answer
		}
		reply := func(result string) {
			out.WriteString(`{"jsonrpc":"2.0","id":`)
			out.Write(req.ID)
			out.WriteString(`,"result":` + result + "}\n")
		}
		switch req.Method {
		case "initialize":
			reply(`{"protocolVersion":1,"agentCapabilities":{"loadSession":false},"authMethods":[]}`)
		case "session/new":
			sessions++
			id := "soak-" + strconv.Itoa(sessions)
			cwd[id] = req.Params.Cwd
			reply(`{"sessionId":"` + id + `"}`)
		case "session/prompt":
			turns++
			for i := 0; i < cfg.Messages; i++ {
				buf = t.message(buf[:0], req.Params.SessionID, cwd[req.Params.SessionID], turns, i)
				if _, err := out.Write(buf); err != nil {
					return fmt.Errorf("writing turn: %v", err)
				}
			}
			reply(`{"stopReason":"end_turn"}`)
		default:
			reply(`{}`)
		}
		if err := out.Flush(); err != nil {
			return fmt.Errorf("writing: %v", err)
		}
	}
}
