package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// hostileCase is one attack: the lines the agent sends and what must hold
// afterwards.
type hostileCase struct {
	name     string
	file     string // testdata file and line, for failure messages
	lines    []string
	ides     []string
	setups   []setupStep
	approve  bool
	agent    string
	audits   []string
	noAudits []string // no audit line may contain any: a record of what did not happen
	noRefuse bool
	told     bool
	secrets  []string
	forged   []string
	// agentStderr: what the agent writes to its stderr as it starts
	// (@agent-stderr, placeholders expanded).
	agentStderr string
	// forgedLog: no line of the bridge's stderr may start with any
	// (@forged-log): the agent's stderr passing for the bridge's log.
	forgedLog []string
	// archiveForged: no entry of the conversation archive compression
	// writes that says the person spoke may hold any (@archive-forged):
	// the agent's text passing for the person's words.
	archiveForged []string
	// agentExits: the agent exits in its turn (@agent-exits); the error
	// the prompt is answered with must act on no terminal.
	agentExits bool
	rssMB      int
	control    bool
	wants      []string
	asked      []string // some permission request the IDE saw must contain each
	// needs: programs the IDE's terminals must find (@needs); a case whose
	// attack runs a program that is missing proves nothing, so it fails.
	needs   []string
	repeat  int    // the next message line is sent this many times
	auth    string // @auth-methods: the agent's authMethods (JSON)
	files   []fileWant
	answers []answerWant

	// approveShown: the person allows a permission request only when
	// what Zed shows of it (zedShows) is this text (@approve-shown).
	approveShown string
	// listed: the sessions of the agent's session/list answer (JSON,
	// @listed-sessions); the IDE lists them and loads the first.
	listed string
	// listedAnswer: the line the agent answers session/list with, raw
	// (@listed-answer); the IDE lists and loads as with listed.
	listedAnswer string
	// press: the person presses the button labelled this (@press).
	press string
	// decideLate: the person answers the permission requests only once
	// the agent's attack lines have all reached the IDE (@decide-late).
	decideLate bool
	// lastFirst: with decideLate, the person answers the latest request
	// first (@answer-last-first), as one answers the dialog on top.
	lastFirst bool
	// mcpServer: the IDE offers its MCP server "ide" over ACP in the
	// session it opens (@mcp-server).
	mcpServer bool
	// compress: the bridge runs with --compress on, its cache in the run
	// directory, and these flags of its own (@compress).
	compress []string
	// compressOn says @compress was given.
	compressOn bool
	// rollover: before its prompt the IDE has compression roll the session
	// over to a fresh agent session (@rollover), then loads that agent
	// session by its own id.
	rollover bool
	// modeOption: the agent shows its mode as a configuration option
	// (category "mode", "auto" when a session opens), and the IDE sets it to
	// this value once its session is open, as the person picking it
	// (@mode-option).
	modeOption string
	// openedMode: the agent shows its mode as a configuration option and
	// opens the IDE's session in this mode (a rollover's fresh one in
	// "auto"); the IDE sets nothing (@opened-mode).
	openedMode string
	// protocol: the ACP protocol version the IDE asks for in initialize and
	// the agent answers with, whatever it is asked (@protocol); 0 is 1.
	protocol int
	// agentCaps: members the agent adds to the agentCapabilities of its
	// initialize answer (@agent-caps, a JSON object).
	agentCaps string
	// opens: workspace files the person opens in the editor once the
	// session is open (@opens), which an IDE doing next edit suggestions
	// for the agent tells it of.
	opens []string
	// rules are rules the case adds to the suite's policy (@rule), each
	// its list (deny, ask or allow) and the rule.
	rules [][2]string
	// endTurn: the line the agent answers the prompt with (@end-turn),
	// {{REQID}} standing for the prompt's id; the IDE then prompts
	// again, and the agent sends next in that second turn.
	endTurn string
	// next are the message lines after @next-turn, sent in the second
	// turn; inNext says parseCase has passed @next-turn.
	next   []string
	inNext bool
	// loadAnswer: the line the agent answers session/load with, raw
	// (@load-answer), {{REQID}} standing for the request's id.
	loadAnswer string
	// rolledAnswer: the result the agent answers a rollover's session/new
	// with, a JSON object (@rolled-answer), in place of its own.
	rolledAnswer string
}

// fileWant is a workspace file's content after the run: it must (@want-file)
// or must not (@not-file) hold text.
type fileWant struct {
	name, text string
	held       bool
	// kept: a file the policy protects, which must still hold text
	// (@kept-file); one changed or gone is a bypass, not a failure.
	kept bool
}

// answerWant is a person's answer the audit log must record (@approval): a
// user:ide approval.recorded record, approved or not, whose line holds text.
type answerWant struct {
	approved bool
	text     string
}

// setupStep creates one thing in the workspace before the run.
type setupStep struct {
	kind, name, arg string
}

var allIDEs = []string{"js", "go", "sh"}

// knownIDEs are the variants a case may name with @ide: allIDEs; zed,
// which reads params as serde_json does (see zedReader) and runs terminals
// as js does, only where a case names it; and zsh, which reads as js does
// and runs terminals with zsh -i -c (see runIDEs).
var knownIDEs = append(allIDEs[:len(allIDEs):len(allIDEs)], "zed", "zsh")

// runIDEs returns the variants a case runs under: its own, and zsh too when
// it opens a terminal that a shell runs (a case of js, sh or zed), so every
// terminal attack is also read as a person whose $SHELL is zsh has Zed run
// it (zsh on every terminal case costs the suite about 10 s on 2 cores).
func runIDEs(c hostileCase) []string {
	if contains(c.ides, "zsh") || !opensTerminal(c.lines) {
		return c.ides
	}
	for _, v := range c.ides {
		if v == "js" || v == "sh" || v == "zed" {
			return append(c.ides[:len(c.ides):len(c.ides)], "zsh")
		}
	}
	return c.ides
}

// opensTerminal reports whether a case's lines ask for a terminal.
func opensTerminal(lines []string) bool {
	for _, l := range lines {
		if strings.Contains(l, "terminal/create") {
			return true
		}
	}
	return false
}

// defaultIDEs are the variants a case names without @ide: both readers,
// and sh too when the case opens a terminal (the variants differ only in
// how terminals run); runIDEs adds zsh to a case that opens a terminal.
func defaultIDEs(lines []string) []string {
	if opensTerminal(lines) {
		return allIDEs
	}
	return []string{"js", "go"}
}

// testCases loads the cases of testdata, failing t when one does not parse.
func testCases(t *testing.T) []hostileCase {
	t.Helper()
	cases, err := loadCases("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// loadCases reads every testdata/*.txtar and testdata/commands.txt.
func loadCases(dir string) ([]hostileCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var cases []hostileCase
	seen := map[string]string{}
	add := func(cs []hostileCase) error {
		for _, c := range cs {
			if prev, ok := seen[c.name]; ok {
				return fmt.Errorf("%s: case %q already defined at %s", c.file, c.name, prev)
			}
			seen[c.name] = c.file
			cases = append(cases, c)
		}
		return nil
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		cs, err := parseArchive(filepath.Base(f), data)
		if err != nil {
			return nil, err
		}
		if err := add(cs); err != nil {
			return nil, err
		}
	}
	cmdFile := filepath.Join(dir, "commands.txt")
	data, err := os.ReadFile(cmdFile)
	if err != nil {
		return nil, err
	}
	cs, err := parseCommands("commands.txt", data)
	if err != nil {
		return nil, err
	}
	if err := add(cs); err != nil {
		return nil, err
	}
	if cs, err = loadCorpus(corpusFile); err != nil {
		return nil, err
	}
	if err := add(cs); err != nil {
		return nil, err
	}
	return cases, nil
}

// parseArchive turns each file section of a txtar archive into a case.
func parseArchive(name string, data []byte) ([]hostileCase, error) {
	var cases []hostileCase
	for _, s := range splitTxtar(data) {
		c, err := parseCase(name, s.name, s.data)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// section is one "-- name --" file of a txtar archive.
type section struct {
	name string
	data []byte
}

// splitTxtar splits a txtar archive (golang.org/x/tools/txtar's format: a
// comment, then sections opened by "-- name --" lines) into its sections.
func splitTxtar(data []byte) []section {
	var out []section
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		if name, ok := sectionName(line); ok {
			out = append(out, section{name: name})
		} else if len(out) > 0 {
			s := &out[len(out)-1]
			s.data = append(append(s.data, line...), '\n')
		}
		data = rest
	}
	return out
}

func sectionName(line []byte) (string, bool) {
	s := string(line)
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

// parseCase reads one case section: directives, comments and message lines.
func parseCase(file, name string, data []byte) (hostileCase, error) {
	c := hostileCase{name: name, file: file + ":" + name}
	if name == "" || strings.ContainsAny(name, " \t") {
		return c, fmt.Errorf("%s: case name %q must be one word", file, name)
	}
	for i, line := range strings.Split(string(data), "\n") {
		where := fmt.Sprintf("%s: case %s line %d", file, name, i+1)
		switch {
		case strings.TrimSpace(line) == "", strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "@"):
			if err := c.directive(line); err != nil {
				return c, fmt.Errorf("%s: %v", where, err)
			}
		default:
			if _, err := expand(strings.ReplaceAll(line, "{{I}}", "1"), placeholders{}); err != nil {
				return c, fmt.Errorf("%s: %v", where, err)
			}
			dst := &c.lines
			if c.inNext {
				dst = &c.next
			}
			if c.repeat == 0 {
				*dst = append(*dst, line)
				continue
			}
			for n := 1; n <= c.repeat; n++ {
				*dst = append(*dst, strings.ReplaceAll(line, "{{I}}", strconv.Itoa(n)))
			}
			c.repeat = 0
		}
	}
	if len(c.lines) == 0 {
		return c, fmt.Errorf("%s: case %s sends nothing", file, name)
	}
	if c.inNext != (c.endTurn != "") {
		return c, fmt.Errorf("%s: case %s: @end-turn and @next-turn go together", file, name)
	}
	if c.ides == nil {
		c.ides = defaultIDEs(c.lines)
	}
	return c, nil
}

// directive applies one @ line to c.
func (c *hostileCase) directive(line string) error {
	word, rest, _ := strings.Cut(line[1:], " ")
	rest = strings.TrimSpace(rest)
	switch on, list := c.target(word); {
	case on != nil:
		*on = true
		return nil
	case list != nil && rest == "":
		return fmt.Errorf("@%s needs an argument", word)
	case list != nil:
		*list = append(*list, rest)
		return nil
	}
	switch word {
	case "ide":
		c.ides = nil
		for _, v := range strings.Split(rest, ",") {
			v = strings.TrimSpace(v)
			if !contains(knownIDEs, v) {
				return fmt.Errorf("unknown IDE variant %q (want js, go, sh, zed or zsh)", v)
			}
			c.ides = append(c.ides, v)
		}
	case "setup":
		kind, rest2, _ := strings.Cut(rest, " ")
		nm, arg, _ := strings.Cut(strings.TrimSpace(rest2), " ")
		switch kind {
		case "file", "symlink", "exec", "hardlink", "copy", "tarlink", "locale":
			if nm == "" || arg == "" {
				return fmt.Errorf("@setup %s needs a name and an argument", kind)
			}
		case "dir", "fifo", "commit":
			if nm == "" {
				return fmt.Errorf("@setup %s needs a name", kind)
			}
		default:
			return fmt.Errorf("unknown @setup kind %q (want file, symlink, hardlink, copy, dir, fifo, commit, exec, tarlink or locale)", kind)
		}
		c.setups = append(c.setups, setupStep{kind: kind, name: nm, arg: arg})
	case "approve-shown":
		return setText(&c.approveShown, word, rest, "the text the person must see")
	case "end-turn":
		if _, err := expand(strings.ReplaceAll(rest, answeredIDPlaceholder, ""), placeholders{}); err != nil {
			return err
		}
		return setText(&c.endTurn, word, rest, "the line ending the turn")
	case "next-turn":
		c.inNext = true
	case "load-answer":
		if _, err := expand(strings.ReplaceAll(rest, answeredIDPlaceholder, ""), placeholders{}); err != nil {
			return err
		}
		return setText(&c.loadAnswer, word, rest, "the line answering session/load")
	case "agent-name":
		return setText(&c.agent, word, rest, "an argument")
	case "agent-stderr":
		return setText(&c.agentStderr, word, rest, "the text the agent writes to its stderr")
	case "auth-methods":
		return setJSONArray(&c.auth, word, rest)
	case "press":
		return setText(&c.press, word, rest, "the label of a button")
	case "listed-sessions":
		return setJSONArray(&c.listed, word, rest)
	case "listed-answer":
		return setText(&c.listedAnswer, word, rest, "the line answering session/list")
	case "compress":
		c.compressOn, c.compress = true, strings.Fields(rest)
	case "mode-option":
		return setText(&c.modeOption, word, rest, "the mode the person picks")
	case "opened-mode":
		return setText(&c.openedMode, word, rest, "the mode the session opens in")
	case "rolled-answer":
		if !json.Valid([]byte(rest)) || !strings.HasPrefix(rest, "{") {
			return fmt.Errorf("@%s wants a JSON object, got %q", word, rest)
		}
		c.rolledAnswer = rest
	case "agent-caps":
		if !json.Valid([]byte(rest)) || !strings.HasPrefix(rest, "{") {
			return fmt.Errorf("@%s wants a JSON object, got %q", word, rest)
		}
		c.agentCaps = rest
	case "opens":
		if rest == "" || strings.ContainsAny(rest, " \t") {
			return fmt.Errorf("@opens needs one workspace file name, got %q", rest)
		}
		c.opens = append(c.opens, rest)
	case "protocol":
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("@protocol wants an ACP protocol version, got %q", rest)
		}
		c.protocol = n
	case "rss":
		n, err := strconv.Atoi(rest)
		if err != nil || n <= 0 {
			return fmt.Errorf("@rss wants a number of megabytes, got %q", rest)
		}
		c.rssMB = n
	case "repeat":
		n, err := strconv.Atoi(rest)
		if err != nil || n <= 0 || n > 100000 {
			return fmt.Errorf("@repeat wants a count up to 100000, got %q", rest)
		}
		c.repeat = n
	case "want-file", "not-file", "kept-file":
		nm, text, _ := strings.Cut(rest, " ")
		if nm == "" || strings.TrimSpace(text) == "" {
			return fmt.Errorf("@%s needs a workspace file name and a text", word)
		}
		c.files = append(c.files, fileWant{name: nm, text: strings.TrimSpace(text), held: word != "not-file", kept: word == "kept-file"})
	case "rule":
		list, rule, _ := strings.Cut(rest, " ")
		if list != "deny" && list != "ask" && list != "allow" || strings.TrimSpace(rule) == "" {
			return fmt.Errorf("@rule wants deny, ask or allow and a rule, got %q", rest)
		}
		c.rules = append(c.rules, [2]string{list, strings.TrimSpace(rule)})
	case "approval":
		answer, text, _ := strings.Cut(rest, " ")
		if answer != "allow" && answer != "reject" || strings.TrimSpace(text) == "" {
			return fmt.Errorf("@approval wants allow or reject and a text, got %q", rest)
		}
		c.answers = append(c.answers, answerWant{approved: answer == "allow", text: strings.TrimSpace(text)})
	default:
		return fmt.Errorf("unknown directive @%s", word)
	}
	return nil
}

// setText sets *dst to rest, the argument of directive word, which must
// not be empty; what names the argument in the error.
func setText(dst *string, word, rest, what string) error {
	if rest == "" {
		return fmt.Errorf("@%s needs %s", word, what)
	}
	*dst = rest
	return nil
}

// setJSONArray sets *dst to rest, the argument of directive word, which
// must be a JSON array.
func setJSONArray(dst *string, word, rest string) error {
	if !json.Valid([]byte(rest)) || !strings.HasPrefix(rest, "[") {
		return fmt.Errorf("@%s wants a JSON array, got %q", word, rest)
	}
	*dst = rest
	return nil
}

// target returns what the directive word sets in c: a switch it turns
// on (it takes no argument) or a list it adds its argument to; neither
// for a directive of another kind.
func (c *hostileCase) target(word string) (on *bool, list *[]string) {
	switches := map[string]*bool{
		"approve":           &c.approve,
		"no-refusal":        &c.noRefuse,
		"told":              &c.told,
		"control":           &c.control,
		"decide-late":       &c.decideLate,
		"answer-last-first": &c.lastFirst,
		"rollover":          &c.rollover,
		"agent-exits":       &c.agentExits,
		"mcp-server":        &c.mcpServer,
	}
	lists := map[string]*[]string{
		"audit":          &c.audits,
		"no-audit":       &c.noAudits,
		"secret":         &c.secrets,
		"forged":         &c.forged,
		"forged-log":     &c.forgedLog,
		"archive-forged": &c.archiveForged,
		"asked":          &c.asked,
		"want-agent":     &c.wants,
		"needs":          &c.needs,
	}
	return switches[word], lists[word]
}

// parseCommands turns each "name command" line into the three command cases.
func parseCommands(file string, data []byte) ([]hostileCase, error) {
	var cases []hostileCase
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, cmd, ok := strings.Cut(line, " ")
		cmd = strings.TrimLeft(cmd, " ")
		if !ok || cmd == "" {
			return nil, fmt.Errorf("%s:%d: want \"name command\"", file, i+1)
		}
		if _, err := expand(cmd, placeholders{}); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, i+1, err)
		}
		where := fmt.Sprintf("%s:%d", file, i+1)
		// Inside a JSON string a control character is written escaped.
		q := strings.NewReplacer("{{LF}}", `\n`, "{{CR}}", `\r`, "{{TAB}}", `\t`, "{{ESC}}", `\u001b`).Replace(jsonString(cmd))
		cases = append(cases,
			hostileCase{name: "cmd/terminal/" + name, file: where, ides: []string{"js", "sh"}, lines: []string{
				`{"jsonrpc":"2.0","id":"c1","method":"terminal/create","params":{"sessionId":"{{SID}}","command":` + q + `,"args":[],"cwd":"{{WS}}"}}`}},
			hostileCase{name: "cmd/bash-c/" + name, file: where, ides: []string{"go"}, lines: []string{
				`{"jsonrpc":"2.0","id":"c2","method":"terminal/create","params":{"sessionId":"{{SID}}","command":"bash","args":["-c",` + q + `],"cwd":"{{WS}}"}}`}},
			hostileCase{name: "cmd/permission/" + name, file: where, ides: []string{"js"}, lines: []string{
				`{"jsonrpc":"2.0","id":"c3","method":"session/request_permission","params":{"sessionId":"{{SID}}","toolCall":{"toolCallId":"tc-c3","title":` + q + `,"kind":"execute","rawInput":{"command":` + q + `}},"options":[{"optionId":"allow-once","name":"Allow","kind":"allow_once"},{"optionId":"reject-once","name":"Reject","kind":"reject_once"}]}}`}},
		)
	}
	return cases, nil
}

// jsonString is s as a JSON string literal without HTML escaping; braces of
// placeholders survive because they are not escaped.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // a string always encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// placeholders are the values of one run's {{NAME}} placeholders.
type placeholders struct {
	ws, out, sid, bin, audit, policy, secret, markers string
}

// expand replaces the placeholders of line. With zero placeholders it only
// checks the syntax.
func expand(line string, p placeholders) ([]byte, error) {
	var out []byte
	for {
		i := strings.Index(line, "{{")
		if i < 0 {
			return append(out, line...), nil
		}
		out = append(out, line[:i]...)
		j := strings.Index(line[i:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("unterminated placeholder at %q", line[i:])
		}
		name := line[i+2 : i+j]
		line = line[i+j+2:]
		val, err := p.value(name)
		if err != nil {
			return nil, err
		}
		out = append(out, val...)
	}
}

// value returns what the placeholder {{name}} stands for.
func (p placeholders) value(name string) ([]byte, error) {
	named := map[string]string{
		"WS": p.ws, "OUT": p.out, "SID": p.sid, "BIN": p.bin, "AUDIT": p.audit, "POLICY": p.policy,
		"SECRET": p.secret, "SECRETBODY": strings.TrimPrefix(p.secret, "ghp_"), "MARKERS": p.markers,
		"CR": "\r", "LF": "\n", "TAB": "\t", "BOM": "\uFEFF", "ESC": "\x1b",
		// Known only once the agent has the reference (sendScript).
		"OFFLOADED": offloadedPlaceholder,
	}
	if v, ok := named[name]; ok {
		return []byte(v), nil
	}
	kind, arg, ok := strings.Cut(name, ":")
	if !ok {
		return nil, fmt.Errorf("unknown placeholder {{%s}}", name)
	}
	switch kind {
	case "x":
		n, err := strconv.ParseUint(arg, 16, 8)
		if err != nil || len(arg) != 2 {
			return nil, fmt.Errorf("{{x:HH}} wants two hex digits, got %q", arg)
		}
		return []byte{byte(n)}, nil
	case "u":
		n, err := strconv.ParseUint(arg, 16, 32)
		if err != nil || n > 0x10FFFF {
			return nil, fmt.Errorf("{{u:HHHH}} wants a code point, got %q", arg)
		}
		return []byte(string(rune(n))), nil
	case "BIG":
		mult := 1
		switch {
		case strings.HasSuffix(arg, "k"):
			mult, arg = 1<<10, strings.TrimSuffix(arg, "k")
		case strings.HasSuffix(arg, "M"):
			mult, arg = 1<<20, strings.TrimSuffix(arg, "M")
		}
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 || n*mult > 64<<20 {
			return nil, fmt.Errorf("{{BIG:N}} wants a size up to 64M, got %q", arg)
		}
		return bytes.Repeat([]byte("a"), n*mult), nil
	}
	return nil, fmt.Errorf("unknown placeholder {{%s}}", name)
}
