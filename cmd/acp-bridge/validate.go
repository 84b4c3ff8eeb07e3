package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/governance"
	"github.com/acp-bridge/acp-bridge/internal/manifest"
)

// validateReport is the --json output of acp-bridge validate.
type validateReport struct {
	// Valid is true when every file is valid.
	Valid bool                 `json:"valid"`
	Files []validateFileReport `json:"files"`
}

// validateFileReport is one file's result.
type validateFileReport struct {
	File  string `json:"file"`
	Valid bool   `json:"valid"`
	// Policy is "governance" for a GOVERNANCE.md, "policy" for a
	// POLICY.md, empty for a manifest.
	Policy string `json:"policy,omitempty"`
	// ID, Kind and Tier are the manifest's, when it is valid.
	ID   string        `json:"id,omitempty"`
	Kind manifest.Kind `json:"kind,omitempty"`
	Tier manifest.Tier `json:"tier,omitempty"`
	// Grants lists the capabilities a valid manifest grants.
	Grants   []string           `json:"grants,omitempty"`
	Problems manifest.ErrorList `json:"problems"`
	// Warnings are a valid GOVERNANCE.md's problems that do not stop the
	// bridge (a missing or cyclic extends parent), as policy check and the
	// bridge print them.
	Warnings []string `json:"warnings,omitempty"`
}

// runValidate checks ACP.md manifests and prints every problem of every file
// as file:line:col: field: message. It exits 1 if any file is invalid, 2 on
// bad usage.
func runValidate(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "acp-bridge validate", "acp-bridge validate [--json] FILE...",
		"Checks AIP-44 ACP.md manifests against schemas/ACP.schema.json and the file-system rules, and\n"+
			"AIP-7 policies (a file named GOVERNANCE.md or POLICY.md) as the bridge loads them. Every problem\n"+
			"is printed as file:line:col; the exit status is 1 if any file is invalid.")
	asJSON := fs.Bool("json", false, "print a machine-readable JSON report")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError(e, "acp-bridge validate", "validate: no manifest files given")
	}
	report := validateReport{Valid: true}
	for _, file := range fs.Args() {
		report.Files = append(report.Files, validateFile(file))
		if !report.Files[len(report.Files)-1].Valid {
			report.Valid = false
		}
	}
	if *asJSON {
		b, err := json.MarshalIndent(report, "", "  ")
		if err != nil {
			return fmt.Errorf("validate: writing report: %v", err)
		}
		// The problems quote the files; a JSON line holds no newline, so
		// each is made printable on its own.
		lines := bytes.Split(b, []byte("\n"))
		for i, l := range lines {
			lines[i] = audit.PrintableJSON(l)
		}
		if _, err := fmt.Fprintf(e.stdout, "%s\n", bytes.Join(lines, []byte("\n"))); err != nil {
			return fmt.Errorf("validate: writing report: %v", err)
		}
	} else {
		// The problems quote the files, which may be the agent's.
		e := &env{stdin: e.stdin, stdout: audit.PrintableLines(e.stdout), stderr: audit.PrintableLines(e.stderr)}
		for _, f := range report.Files {
			for _, w := range f.Warnings {
				fmt.Fprintln(e.stderr, "warning:", w)
			}
			switch {
			case f.Valid && f.Policy != "":
				fmt.Fprintf(e.stdout, "%s: valid (%s)\n", f.File, f.Policy)
				continue
			case f.Valid:
				fmt.Fprintf(e.stdout, "%s: valid (kind %s, tier %s)\n", f.File, f.Kind, f.Tier)
				continue
			}
			for _, p := range f.Problems {
				fmt.Fprintln(e.stdout, p)
			}
		}
	}
	if !report.Valid {
		return &exitError{code: 1}
	}
	return nil
}

// validateFile loads one manifest, or one AIP-7 policy file (named
// GOVERNANCE.md or POLICY.md), and reports on it.
func validateFile(file string) validateFileReport {
	switch base := filepath.Base(file); {
	case strings.HasSuffix(base, "GOVERNANCE.md"):
		p, err := governance.LoadPolicy(file)
		r := policyReport(file, "governance", err)
		if err == nil {
			r.Warnings = p.Warnings
		}
		return r
	case strings.HasSuffix(base, "POLICY.md"):
		return policyReport(file, "policy", governance.CheckPolicyFile(file))
	}
	r := validateFileReport{File: file, Problems: manifest.ErrorList{}}
	m, err := manifest.Load(file)
	if err != nil {
		if !errors.As(err, &r.Problems) {
			r.Problems = manifest.ErrorList{{File: file, Msg: err.Error()}}
		}
		return r
	}
	r.Valid, r.ID, r.Kind, r.Tier = true, m.ID, m.Kind, m.AIP44().Tier
	r.Grants = []string{}
	for _, c := range m.Capabilities().List() {
		r.Grants = append(r.Grants, c.String())
	}
	return r
}

// policyReport reports on a policy file from the problems err holds (a
// governance.ErrorList), in the manifest's error shape.
func policyReport(file, kind string, err error) validateFileReport {
	r := validateFileReport{File: file, Policy: kind, Problems: manifest.ErrorList{}}
	if err == nil {
		r.Valid = true
		return r
	}
	var list governance.ErrorList
	if !errors.As(err, &list) {
		r.Problems = manifest.ErrorList{{File: file, Msg: err.Error()}}
		return r
	}
	for _, e := range list {
		r.Problems = append(r.Problems, &manifest.Error{File: e.File, Line: e.Line, Column: e.Col, Msg: e.Msg})
	}
	return r
}
