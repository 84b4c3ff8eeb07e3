package manifest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/acp-bridge/acp-bridge/schemas"
)

// SchemaFile is the name of the manifest schema in schemas.FS.
const SchemaFile = "ACP.schema.json"

// printer words the schema library's own messages.
var printer = message.NewPrinter(language.English)

// compiledSchema is the manifest schema, compiled on first use.
var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return schemas.Compile(SchemaFile, false)
})

// validateSchema checks t's document against the manifest schema and
// records each failure at the YAML node it concerns.
func (t *tree) validateSchema() error {
	s, err := compiledSchema()
	if err != nil {
		return err
	}
	err = s.Validate(t.root)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("validating against %s: %v", SchemaFile, err)
	}
	for _, leaf := range leaves(ve, nil) {
		t.report(leaf)
	}
	return nil
}

// leaves returns the innermost errors of e: those that say what is wrong,
// rather than which combinator failed.
func leaves(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(out, e)
	}
	if _, ok := e.ErrorKind.(*kind.Contains); ok {
		// The causes say why each item failed to match; the point is
		// that none did.
		return append(out, e)
	}
	for _, c := range e.Causes {
		out = leaves(c, out)
	}
	return out
}

// keywordLocation returns where in the schema e failed, as a JSON pointer
// fragment such as "/$defs/aip44/properties/acp_rev/pattern".
func keywordLocation(e *jsonschema.ValidationError) string {
	_, frag, _ := strings.Cut(e.SchemaURL, "#")
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		frag += "/" + strings.Join(kp, "/")
	}
	return frag
}

// Messages for rules whose generic wording would not tell a user what to do,
// by the end of the schema keyword location that failed. The $defs names
// make cross-field rules recognisable here.
var ruleMessages = []struct{ suffix, msg string }{
	{"/$defs/serverNeedsOperator/then/properties/metadata/properties/aip44/required", "required when kind is server (the AIP-9 OPERATOR.md the server exposes)"},
	{"/$defs/sandboxedNeedsSandbox/then/required", "required when tier is sandboxed (the AIP-36 SANDBOX.md profile)"},
	{"/$defs/externalAuditNeedsRef/then/required", "required when audit kind is external (where the log goes)"},
	{"/$defs/auditOffHasNoRef/then/properties/ref", "not allowed when audit kind is off"},
	{"/$defs/singleTransportIsStdio/const", "must be stdio, or a list that includes stdio (AIP-44: every runtime MUST support stdio)"},
	{"/$defs/transportsIncludeStdio/contains", "must include stdio (AIP-44: every runtime MUST support stdio)"},
	{"/$defs/transports/else/minItems", "must list at least one transport"},
	{"/properties/name/pattern", "must be kebab-case: lower-case letters and digits in words joined by single hyphens"},
	{"/properties/id/pattern", "must be 2 to 64 lower-case letters, digits or hyphens, starting with a letter or digit"},
	{"/properties/version/pattern", "must be a semantic version such as 1.2.3 or 1.0.0-rc.1 (semver.org)"},
	{"/properties/tags/items/pattern", "must be lower-case letters, digits and hyphens (at most 64), starting with a letter or digit"},
	{"/$defs/aip44/properties/acp_rev/pattern", "must be a commit SHA of agentclientprotocol/agent-client-protocol: 7 to 40 lower-case hex digits"},
}

// report records one schema failure with a message a manifest author can act on.
func (t *tree) report(e *jsonschema.ValidationError) {
	loc := keywordLocation(e)
	path := e.InstanceLocation
	msg := ""
	for _, r := range ruleMessages {
		if strings.HasSuffix(loc, r.suffix) {
			msg = r.msg
			break
		}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		if msg == "" {
			msg = "missing required field"
		}
		parent := t.lookup(path).field
		for _, name := range k.Missing {
			field := name
			if parent != "" {
				field = parent + "." + name
			}
			t.errorAtPath(path, field, msg)
		}
		return
	case *kind.AdditionalProperties:
		// The validator lists them in map order: sorted, the report is
		// the same every time.
		for _, name := range slices.Sorted(slices.Values(k.Properties)) {
			sub := append(path[:len(path):len(path)], name)
			if l, ok := t.at[pointer(sub)]; ok && l.key != nil {
				t.errorAt(l.key, l.field, "unknown field")
			} else {
				t.errorAtPath(sub, "", "unknown field "+name)
			}
		}
		return
	case *kind.UniqueItems:
		// Point at the second of the two equal items.
		sub := append(path[:len(path):len(path)], fmt.Sprint(k.Duplicates[1]))
		l := t.lookup(sub)
		t.errorAtPath(sub, "", fmt.Sprintf("duplicate of %s", strings.TrimSuffix(l.field, fmt.Sprintf("[%d]", k.Duplicates[1]))+fmt.Sprintf("[%d]", k.Duplicates[0])))
		return
	}
	if msg == "" {
		msg = genericMessage(e)
	}
	if k, ok := e.ErrorKind.(*kind.Type); ok && k.Got == "string" && len(k.Want) == 1 && k.Want[0] == "boolean" {
		if v, _ := t.get(path).(string); yaml11Bools[strings.ToLower(v)] {
			msg += fmt.Sprintf(" (YAML 1.2 reads %s as a string: write true or false)", v)
		}
	}
	t.errorAtPath(path, "", msg)
}

// yaml11Bools are the YAML 1.1 spellings of booleans that YAML 1.2, and so
// this parser, reads as strings.
var yaml11Bools = map[string]bool{"yes": true, "no": true, "on": true, "off": true, "y": true, "n": true}

// genericMessage words a schema failure in YAML terms.
func genericMessage(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = jsonTypeName(w)
		}
		msg := fmt.Sprintf("must be %s, not %s", strings.Join(want, " or "), jsonTypeName(k.Got))
		if len(k.Want) == 1 && k.Want[0] == "string" && (k.Got == "number" || k.Got == "integer" || k.Got == "boolean") {
			msg += " (quote it to make YAML read it as a string)"
		}
		return msg
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		return fmt.Sprintf("must be one of %s (got %q)", strings.Join(want, ", "), fmt.Sprint(k.Got))
	case *kind.MinLength:
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("must be at least %d characters long", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("must be at most %d characters long, not %d", k.Want, k.Got)
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %d items", k.Want)
	case *kind.FalseSchema:
		return "not allowed here"
	}
	return e.ErrorKind.LocalizedString(printer)
}

// jsonTypeName names a JSON Schema type the way a YAML author would.
func jsonTypeName(t string) string {
	switch t {
	case "object":
		return "a mapping"
	case "array":
		return "a list"
	case "string":
		return "a string"
	case "boolean":
		return "true or false"
	case "integer":
		return "an integer"
	case "number":
		return "a number"
	case "null":
		return "null"
	}
	return t
}
