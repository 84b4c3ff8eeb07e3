package audit

import (
	"encoding"
	"fmt"
	"log/slog"
)

// PrintableAttr is a slog.HandlerOptions.ReplaceAttr that makes the
// message and every attribute value printable (see Printable) as the
// handler would write it: a string, a TextMarshaler's text, a byte slice,
// anything else as fmt's %+v. Log lines quote the agent's text (a session
// id, an auth method's id, a path, an error that quotes a message), and
// slog's text handler quotes only what strconv calls unprintable: a
// variation selector, a Hangul filler or the braille blank reach the
// terminal as they are, so that "login" followed by fillers and
// "level=ERROR" reads as an attribute of its own.
func PrintableAttr(_ []string, a slog.Attr) slog.Attr {
	var s string
	switch a.Value.Kind() {
	case slog.KindString:
		s = a.Value.String()
	case slog.KindAny:
		switch v := a.Value.Any().(type) {
		case encoding.TextMarshaler:
			b, err := v.MarshalText()
			if err != nil {
				return a
			}
			s = string(b)
		case []byte:
			s = string(v)
		default:
			s = fmt.Sprintf("%+v", v)
		}
	default:
		return a
	}
	a.Value = slog.StringValue(Printable(s))
	return a
}
