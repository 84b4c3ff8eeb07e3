package adapter

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGeminiTrustedServers: the MCP servers marked trusted in the settings
// Gemini CLI reads (system defaults, system, user, workspace, extensions)
// are found, read as Gemini reads them (comments, trailing commas); a file
// the bridge cannot read one way only counts as trusting every server, and
// says so.
func TestGeminiTrustedServers(t *testing.T) {
	home, ws, etc := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".gemini", "settings.json"), `{"mcpServers":{"notes":{"command":"node","trust":true},"web":{"command":"x","trust":false},"db":{"command":"y"}}}`)
	write(filepath.Join(home, ".gemini", "extensions", "e1", "gemini-extension.json"), `{"name":"e1","mcpServers":{"ext":{"command":"z","trust":true}}}`)
	write(filepath.Join(ws, ".gemini", "settings.json"), `{"mcpServers":{"repo":{"command":"r","trust":"yes"}}}`)
	env := []string{"HOME=" + home, "GEMINI_CLI_SYSTEM_SETTINGS_PATH=" + filepath.Join(etc, "settings.json")}
	files := geminiSettingsFiles(env, ws)
	got, unread := geminiTrustedServers(files)
	if want := []string{"ext", "notes", "repo"}; !slices.Equal(got, want) || len(unread) != 0 {
		t.Errorf("trusted %q (unread %q), want %q", got, unread, want)
	}
	// Comments and trailing commas, as Gemini takes them.
	write(filepath.Join(etc, "system-defaults.json"), "{\n  // a comment Gemini takes\n  \"mcpServers\": {\"sys\": {\"trust\": true,},},\n}\n")
	got, unread = geminiTrustedServers(geminiSettingsFiles(env, ws))
	if want := []string{"ext", "notes", "repo", "sys"}; !slices.Equal(got, want) || len(unread) != 0 {
		t.Errorf("with comments: trusted %q (unread %q), want %q", got, unread, want)
	}
	// A name spelled in another case is not Gemini's; one named twice may
	// be read either way.
	write(filepath.Join(etc, "system-defaults.json"), `{"mcpServers": {"a": {"Trust": true}}}`)
	if got, _ = geminiTrustedServers(geminiSettingsFiles(env, ws)); slices.Contains(got, "a") {
		t.Errorf("Trust spelled in another case counted: %q", got)
	}
	write(filepath.Join(etc, "system-defaults.json"), `{"mcpServers": {"a": {"trust": false, "trust": true}}}`)
	got, unread = geminiTrustedServers(geminiSettingsFiles(env, ws))
	if !slices.Contains(got, geminiTrustAny) || len(unread) != 1 || !strings.Contains(unread[0], "system-defaults.json") {
		t.Errorf("with a member named twice: trusted %q, unread %q; want every server, and the file named", got, unread)
	}
}

// TestTrustedDenies: every rule that asks about a trusted server's tools
// (an ask rule naming it or all MCP tools, a path an ask rule names, the
// default ask) is written for that server as a deny one step above it; the
// policy's allows, denies and rules of other tools are left alone.
func TestTrustedDenies(t *testing.T) {
	rules, _ := BuildGeminiPolicy(Rules{
		Ask:     []string{"mcp__notes__read_text", "mcp__web__*", "Read(**/.env)", "Bash(git push:*)"},
		Allow:   []string{"mcp__notes__list"},
		Deny:    []string{"mcp__notes__delete"},
		Default: "require-approval",
	}, "/ws")
	var got []string
	for _, d := range trustedDenies(rules, []string{"notes"}) {
		if d.Decision != "deny" || !strings.Contains(d.DenyMessage, `"notes", trusted`) {
			t.Errorf("%+v: want a deny saying the server is trusted", d)
		}
		got = append(got, d.MCPName+" "+d.ToolName+" "+d.ArgsPattern)
	}
	want := []string{" mcp_notes_read_text ", "notes * " + `"(?:|.*/)\.env"`, "notes * "}
	if !slices.Equal(got, want) {
		t.Errorf("denies for the trusted server notes:\n%q\nwant\n%q", got, want)
	}
	// A policy that allows by default asks about nothing by default.
	for _, def := range []string{"allow", ""} {
		rules, _ := BuildGeminiPolicy(Rules{Deny: []string{"Bash(rm:*)"}, Allow: []string{"mcp__notes__list"}, Default: def}, "/ws")
		if d := trustedDenies(rules, []string{"notes", geminiTrustAny}); len(d) != 0 {
			t.Errorf("default %q: denies %+v, want none", def, d)
		}
	}
	for _, d := range trustedDenies(rules, []string{geminiTrustAny}) {
		if d.MCPName == "" && !strings.HasPrefix(d.ToolName, "mcp_") {
			t.Errorf("%+v: a deny for every server's tools must name MCP tools only", d)
		}
	}
}

// FuzzGeminiSettings: reading any settings file never fails the bridge: a
// file it cannot read counts every server as trusted, and the names are
// sorted and unique.
func FuzzGeminiSettings(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"notes":{"command":"node","trust":true}}}`))
	f.Add([]byte("{\n// c\n\"mcpServers\": {\"a\": {\"trust\": true,},},\n}"))
	f.Add([]byte(`{"mcpServers":{"a":{"trust":false,"trust":true}}}`))
	f.Add([]byte(`[1,2`))
	f.Add([]byte(`{"mcpServers":{"*":{"trust":true}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, unread := geminiTrustedServers([]string{path})
		if len(unread) > 0 && !slices.Contains(got, geminiTrustAny) {
			t.Fatalf("%q: trusted %q, unread %q: a file not read must trust every server", b, got, unread)
		}
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("%q: trusted %q, not sorted and unique", b, got)
		}
	})
}

// TestGeminiSystemSettings: the system settings path is Gemini CLI's for
// each platform (getSystemSettingsPath in its bundle).
func TestGeminiSystemSettings(t *testing.T) {
	for goos, want := range map[string]string{
		"linux":   "/etc/gemini-cli/settings.json",
		"darwin":  "/Library/Application Support/GeminiCli/settings.json",
		"windows": `C:\ProgramData\gemini-cli\settings.json`,
	} {
		if got := geminiSystemSettings(goos); got != want {
			t.Errorf("%s: %q, want %q", goos, got, want)
		}
	}
}
