package governance

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// A Cargo.toml names the files and directories cargo builds from in TOML,
// whose keys and values take many spellings: a quoted key ("path" =, or
// "p\u0061th" =) is the bare one, a dotted key (rb.path =) an inline
// table's, an array runs over lines. tomlEntries reads a TOML document
// (TOML 1.0, with go-toml, as cargo's toml crate reads it) as a list of its
// values, each with its whole key (the tables it is in and its own dotted
// key, every part unquoted), so that what a manifest names is read once,
// whatever its spelling. A document that is no TOML (a duplicate key, a bad
// escape) is an error: cargo refuses it too, and the caller fails closed.

// tomlEntry is one value of a TOML document: a string (str set), or any
// other scalar (its text in raw); an array's elements are entries of the
// array's key, and so are the tables of an array of tables.
type tomlEntry struct {
	key []string
	str string
	// isStr says the value is a string.
	isStr bool
	// raw is the text of a value that is no string (true, 1, a date).
	raw string
}

// tomlEntries returns the values of the TOML document text, keys in
// sorted order within each table and arrays in their order, or an error
// saying where it is no TOML.
func tomlEntries(text string) ([]tomlEntry, error) {
	var doc map[string]any
	if err := toml.Unmarshal([]byte(strings.TrimPrefix(text, "\ufeff")), &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("line %d, column %d: %w", row, col, err)
		}
		return nil, err
	}
	var out []tomlEntry
	appendTOMLValue(&out, nil, doc)
	return out, nil
}

// appendTOMLValue appends the entries of v, the value at key, to out.
func appendTOMLValue(out *[]tomlEntry, key []string, v any) {
	switch v := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(v))
		for name := range v {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			appendTOMLValue(out, append(key[:len(key):len(key)], name), v[name])
		}
	case []any:
		for _, e := range v {
			appendTOMLValue(out, key, e)
		}
	case string:
		*out = append(*out, tomlEntry{key: key, str: v, isStr: true})
	default:
		*out = append(*out, tomlEntry{key: key, raw: tomlScalarText(v)})
	}
}

// tomlScalarText returns the text of a TOML scalar that is no string.
func tomlScalarText(v any) string {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case time.Time:
		return v.Format(time.RFC3339Nano)
	default:
		return fmt.Sprint(v)
	}
}
