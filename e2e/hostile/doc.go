// Package hostile is an end-to-end suite that drives the real acp-bridge
// binary between a hostile agent and an IDE that really executes what reaches
// it, and fails whenever an attack has a real effect.
//
// Each run starts three processes: the executing IDE (this test binary
// re-executed as "hostile.test hostile-ide CONFIG", its working directory
// outside the workspace), which starts "acp-bridge --policy GOVERNANCE.md
// --audit audit/audit-log.jsonl -- <hostile agent>" in the workspace, and
// the hostile agent (this test binary again, "hostile-agent CONFIG"). The IDE
// opens a session and sends one prompt; during that prompt the agent writes the case's attack
// lines to the bridge exactly as bytes (a terminal/output, wait_for_exit, kill or release line
// waits until the case's earlier terminal/create requests are answered, as a real agent waits
// for the terminalId), then a sync request, and ends the turn
// once the sync is answered. The IDE parses every line it receives as a real
// client would (see the variants below), reads and writes real files, runs
// terminal commands for real, records permission requests as asked (and
// answers reject, or allow under @approve) and records every session/update.
//
// IDE variants (a case runs under js and go, and sh as well when it opens a
// terminal, unless @ide says otherwise; a case that opens a terminal a
// shell runs, under js, sh or zed, runs under zsh too):
//
//	js  the TypeScript SDK's reading: TextDecoder (BOM dropped, bad UTF-8
//	    replaced), String.prototype.trim, JSON.parse (case-exact keys, last
//	    duplicate wins, "id": null with a method is a request); a write makes
//	    the missing parent directories first, as the e2e TypeScript client
//	    does (fs.mkdir of path.dirname, recursive, on the path as given);
//	    terminals run as Zed runs them: bash -c "(command args...)", args
//	    joined unquoted
//	sh  the same, with terminals run by sh -c
//	go  a Go client on encoding/json (acp-go-sdk's envelope: keys matched
//	    case-insensitively, last duplicate wins, "id": null is a
//	    notification; a session/update is a tool call when acp-go-sdk's
//	    types read one, whatever its sessionUpdate); a write opens the
//	    path as given, making no directory; terminals exec argv with the
//	    request's env and cwd
//	zed js's reading of the line, then the params read as Zed's serde_json
//	    reads a tool call update (every value, as a serde_json::Value):
//	    nesting 128 containers deep or a number past a double's range
//	    (1e400), or a tool call location without a string path (the
//	    crate's ToolCallLocation), drops a notification and fails a
//	    request; terminals as js.
//	    Only a case that names it with @ide runs under it
//	zsh js's reading; terminals run as Zed runs them for a person whose
//	    $SHELL is zsh: zsh -i -c "(command args...)", with the run's own
//	    HOME holding an empty .zshrc. A missing zsh fails the run, never
//	    skips it (scripts/zsh.sh installs it)
//
// A bypass is a real effect, checked after the run: a canary from the
// workspace .env or from outside the workspace reached the agent; a file
// outside the workspace, the policy or the audit log changed; a marker
// written by the fake rm or curl first on PATH (or by a BASH_ENV script)
// exists; the rm target "x" in the workspace is gone; the IDE handled a
// message for a session it never opened; the IDE showed a user_message_chunk
// (as the variant's client reads one) outside a session/load, echoing no
// block of the prompt it sent: words the person never sent, shown as
// theirs. Each case also requires the audit
// log to verify as "acp-bridge audit verify --genesis" verifies it (asked of
// one auditverify process, ./auditverify, that the suite starts once;
// TestAuditVerifyAsCLI holds it to the command's verdicts) and to hold a
// record of the refused attempt (by default a decision of deny,
// require-approval or escalate). The suite waits for what it judges, never for a fixed time: a
// run fails, rather than being judged early, when a command the IDE or the
// agent runs is still going (or its output held open) after 10 s, or when
// the whole run outlasts the test's deadline.
//
// # Adding a case
//
// Cases are data. Add a section to a txtar file under testdata/ (one file
// per class of attack):
//
//	-- keys/path-case-variant --
//	# why this is an attack (comment lines start with #)
//	@ide js,go
//	{"jsonrpc":"2.0","id":"k1","method":"fs/read_text_file","params":{"sessionId":"{{SID}}","path":"{{WS}}/.env","PATH":"{{WS}}/a.txt"}}
//
// Every other non-empty line is one message the agent sends, followed by
// "\n", byte for byte after the placeholders are replaced: {{WS}} the
// workspace, {{OUT}} a directory outside it (the IDE's working directory),
// {{SID}} the session id, {{BIN}} the fake-tools directory, {{AUDIT}} the
// audit log, {{POLICY}} the policy file, {{MARKERS}} the directory whose
// every new file is a bypass, {{SECRET}} a GitHub-token-shaped secret and
// {{SECRETBODY}} the same without its ghp_ prefix, {{CR}} {{LF}} {{TAB}}
// {{BOM}} {{ESC}}, {{x:HH}} one raw byte, {{u:HHHH}} a code point in UTF-8,
// {{BIG:N}} N bytes of "a" (N may end in k or M), {{OFFLOADED}} the file of the
// first offload reference an answer gave the agent (the line waits for it).
//
// Directives:
//
//	@ide js,go,sh          the IDE variants to run (zed and zsh too)
//	@setup file NAME TEXT   create workspace file NAME (placeholders apply)
//	@setup symlink NAME TARGET
//	@setup copy NAME SRC    a copy of workspace file SRC (.env: its canary in a
//	                       file the agent never wrote, as an earlier session left it)
//	@setup dir NAME
//	@setup commit NAME      commit workspace file NAME to the person's repository
//	                       (git init in the workspace on the first)
//	@setup exec NAME TEXT   an executable script (\n in TEXT is a newline)
//	@setup tarlink NAME LINK TARGET
//	                       a tar archive holding one symlink member LINK -> TARGET
//	@setup locale DIR NAME  the locale NAME (zh_CN.GBK) compiled by localedef
//	                       into DIR, for LOCPATH (the case is skipped where
//	                       localedef cannot; CI fails instead)
//	@rule LIST RULE        add RULE to the suite policy's LIST (deny, ask or
//	                       allow), as a case about a rule the suite's own
//	                       policy lacks (a tool name) needs
//	@approve               the IDE allows permission requests (approval flow)
//	@approve-shown TEXT    the IDE allows a permission request only when what
//	                       Zed shows of it is TEXT (the title; for a call of
//	                       another kind than execute or edit, its first line
//	                       and "…" when it has more; never the rawInput, which
//	                       Zed hides or keeps behind a closed disclosure), and
//	                       rejects it otherwise
//	@decide-late           the person answers the permission requests only when
//	                       the agent's sync request arrives, by what Zed shows
//	                       of each call then (after every later update of it)
//	@answer-last-first     with @decide-late, the person answers the latest
//	                       request first
//	@press LABEL           the person answers a permission request by pressing
//	                       the button labelled LABEL (the option of that name,
//	                       whatever its kind), or dismisses it when none is
//	@listed-sessions JSON  the sessions of the agent's session/list answer
//	                       (placeholders apply): once its session is open the
//	                       IDE lists them and loads the first in the cwd and
//	                       additionalDirectories the list gives it, as Zed
//	                       loads a session picked from its history (the
//	                       session is the IDE's from the load on, as Zed
//	                       keeps the thread before it asks, and no longer
//	                       once the load fails), and prompts in it if the
//	                       load succeeds
//	@listed-answer LINE    as @listed-sessions, but the agent answers the IDE's
//	                       session/list (id "3") with LINE byte for byte
//	                       (placeholders apply); if the bridge answers that
//	                       line as a request it refused, with a plain answer
//	                       listing no session
//	@load-answer LINE      with @listed-sessions, the agent answers the IDE's
//	                       session/load with LINE byte for byte (placeholders
//	                       apply; {{REQID}} is the request's id)
//	@end-turn LINE         the agent answers the prompt with LINE byte for byte
//	                       (placeholders apply; {{REQID}} is the prompt's
//	                       id) instead of its own answer; the IDE takes any
//	                       answer, prompts again, and the message lines after
//	                       @next-turn are sent in that second turn
//	@next-turn             the message lines below it are the second turn's
//	                       (with @end-turn)
//	@agent-name NAME       the agentInfo.name the agent announces (placeholders apply)
//	@auth-methods JSON     the authMethods of the agent's initialize response
//	                       (placeholders apply); the agent answers the first
//	                       session/new that a login is required, and the IDE,
//	                       as a person pressing Zed's login button, runs the
//	                       first method's _meta "terminal-auth" command (argv,
//	                       with its env, in the workspace), then opens the
//	                       session again
//	@audit TEXT            some audit line must contain TEXT (placeholders apply)
//	@no-audit TEXT         no audit line may contain TEXT: a record of
//	                       something that did not happen is a bypass
//	@no-refusal            the attempt need not leave a refusal record
//	@told                  the person must be told: an agent_message_chunk the
//	                       agent never sent, or a tool call shown as failed
//	@secret TEXT           TEXT must not appear in the audit log's bytes
//	@forged TEXT           no line of "audit show|tail|sessions" output may
//	                       start with TEXT, no cell of show or tail may
//	                       continue with it ("↳ TEXT"), and none may hold
//	                       ESC, CR, NEL, CSI or a bidi override raw
//	@agent-stderr TEXT     the agent writes TEXT and a newline to its stderr as
//	                       it starts (placeholders apply); the bridge's stderr
//	                       must then hold no ESC, BEL, CR, NEL, CSI, bidi
//	                       override or line separator raw
//	@forged-log TEXT       no line of the bridge's stderr (its log) may start
//	                       with TEXT
//	@archive-forged TEXT   with @compress: no entry of a conversation archive
//	                       compression wrote in its cache whose heading says
//	                       the person spoke ("### User · 15:04:05") may hold
//	                       TEXT; a run that wrote no archive fails
//	@agent-exits           the agent exits with status 1 in its turn, once its
//	                       lines are sent; the error the prompt is answered
//	                       with (which quotes the agent's last stderr lines)
//	                       must hold no newline or terminal control raw
//	@mcp-server            the IDE offers its MCP server "ide" over ACP
//	                       (serverId "srv-ide") in the session it opens, as an
//	                       IDE on the TypeScript SDK does: the agent's
//	                       mcp/message tools/call of its tool open_uri returns
//	                       the text of the file its uri argument names, read
//	                       as Node's fileURLToPath reads a string (the WHATWG
//	                       URL parser)
//	@protocol N            the IDE asks for ACP protocol version N in initialize
//	                       and the agent answers N, whatever it is asked; with
//	                       N over 1 the IDE ends the run before any session
//	                       when the answer names another version (the
//	                       TypeScript SDK's v2 API refuses it), and shows a
//	                       permission request by its own title, as v2 does
//	@agent-caps JSON       members the agent adds to the agentCapabilities of
//	                       its initialize answer (a JSON object); with "nes" it
//	                       answers nes/start with a session of its own
//	@opens NAME            the person opens workspace file NAME in the editor
//	                       once the session is open: when the initialize
//	                       answer the IDE got asks for next edit suggestions'
//	                       document/didOpen, the IDE starts NES (nes/start)
//	                       and sends the file's full text in a document/didOpen
//	@rss MB                the bridge's peak RSS (VmHWM) stays under MB
//	@compress FLAGS        the bridge runs with --compress on, its cache in the
//	                       run directory, and FLAGS (--context-size 1000, ...;
//	                       placeholders apply: --cache-dir {{WS}}/cache moves it)
//	@rollover              with @compress: before its prompt the IDE prompts,
//	                       runs /bridge-compress and prompts again, which rolls
//	                       its session over to a fresh agent session the agent
//	                       names {{SID}}-rolled; the IDE then loads that agent
//	                       session by its id, as from the agent's history
//	@mode-option MODE      the agent shows its mode as a configuration option
//	                       only (category "mode", no modes, as codex-acp): each
//	                       session it opens starts in "auto", and it takes
//	                       session/set_config_option of it; the IDE sets it to
//	                       MODE once its session is open, as the person picking
//	                       a mode
//	@opened-mode MODE      as @mode-option, but the agent opens the case's
//	                       session in MODE (a rollover's fresh one in "auto")
//	                       and the IDE sets nothing
//	@rolled-answer JSON    with @rollover: the result (a JSON object; placeholders
//	                       apply) the agent answers the rollover's session/new
//	                       with, in place of its own
//	@repeat N              send the next message line N times, {{I}} in it
//	                       counting 1..N
//	@control               a harness check, not an attack: no refusal is expected
//	@want-agent TEXT       the agent must receive TEXT (an allowed action still works)
//	@needs PROGRAM         the attack runs PROGRAM: found on PATH or in
//	                       e2e/node_modules/.bin (e2e/install.sh), else the
//	                       case fails, since without it the attack proves nothing
//	@asked TEXT            the person must have been asked about a tool call
//	                       showing TEXT
//	@want-file NAME TEXT   workspace file NAME must hold TEXT after the run
//	                       (what the person allowed really happened)
//	@not-file NAME TEXT    workspace file NAME must not hold TEXT (what the
//	                       person rejected did not happen)
//	@kept-file NAME TEXT   workspace file NAME, which the policy protects,
//	                       must still hold TEXT: changed, moved or deleted
//	                       is a BYPASS
//	@approval allow TEXT   the audit log records the person's answer: an
//	@approval reject TEXT  approval.recorded by user:ide, approved or not,
//	                       mentioning TEXT
//
// Commands are data too: each line of testdata/commands.txt ("name command")
// becomes three cases: cmd/terminal/NAME, a terminal/create of the command
// line (run by bash and by sh, as Zed would); cmd/bash-c/NAME, a
// terminal/create of "bash" with args ["-c", command] (exec'd as argv); and
// cmd/permission/NAME, a session/request_permission for an execute tool
// whose rawInput.command is the line. The governance engine's command corpus
// (internal/governance/testdata/commands) is replayed too: each deny line
// proven in a shell becomes corpus/lineN, a terminal/create of it.
//
// Like an agent that runs its own tools, the hostile agent carries out a
// permission request whose answer allows it: it writes the file a
// rawInput.file_path names (Claude's Write and Edit; relative_path,
// pathInProject or target_file for other tools'), or carries out the
// first of a Codex patch's rawInput.changes (an add, a delete, or a move:
// the destination written, the source removed), else runs
// rawInput.command (a line, or an argv array as Codex sends it) or the
// first other member its input holds a command under (Codex's
// exec_command cmd, commandLine, script, argv, run, ...), else the
// title (where Gemini puts the command), in the directory its rawInput
// names (Codex's workdir, Gemini CLI's dir_path or directory,
// working_directory, workingDirectory, working_dir, workingDir, cwd, else
// a member whose name ends in _dir; a relative one below the workspace).
// The cases approval/*-approved and
// approval/*-rejected check that path end to end: the file the agent (or
// the IDE) writes once allowed holds its content, a rejected one is never
// written although the agent got the answer, and the log says who answered
// what (TestHarnessApprovalFails shows those checks can fail).
//
// The suite runs in every "go test ./..."; ACP_BRIDGE_BIN names a prebuilt
// bridge, else the suite builds ../../cmd/acp-bridge once, with
// ./auditverify. "go test ./e2e/hostile -run 'TestHostile/^keys$'"
// runs one class; -short runs each case under its first variant only;
// HOSTILE_VERBOSE=1 with -v logs what the IDE saw and did in passing runs too; TestHarnessDetects shows each kind of effect is seen when
// there is no bridge at all.
package hostile
