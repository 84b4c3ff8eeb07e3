package acpwire

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// The bridge matches each response to the request it answers by the
// request's id, and features act on what it matched (a person's allow of a
// permission request covers that tool call). A peer answers under its own
// spelling of the id it read: the TypeScript SDK under JSON.stringify's,
// so "p\u00ad" comes back as "p" and a raw soft hyphen. Two requests the
// bridge keyed apart but a peer reads as one id would let the answer to
// one be taken for the answer to the other. So ids are keyed by the value
// every JSON reader reads, and an id JSON readers read differently is
// refused.

// idProblem returns why a raw id must be refused, or "": it is not a
// string, number or null; it is a string with invalid UTF-8 or an
// unpaired surrogate escape, which JSON readers replace or keep in
// different ways (TextDecoder and encoding/json replace bad bytes in
// different numbers, JavaScript keeps a lone surrogate, serde_json
// refuses it); or it is a number too large for a double, which JavaScript
// reads as Infinity; or it is a number a peer reading it as a double
// writes back as another (1.00000000000000000001, which JavaScript writes
// back as 1), while acp-go-sdk keeps the decimal it is, so the answer
// matches the request for one and not for the other.
func idProblem(id []byte) string {
	if len(id) == 0 {
		return "id is not a string, number or null"
	}
	switch c := id[0]; {
	case c == '"':
		if !printableASCII(id) && !jsontext.Value(id).IsValid() {
			return "id is a string with invalid UTF-8 or an unpaired surrogate, which JSON readers decode differently"
		}
		return ""
	case c == '-' || c >= '0' && c <= '9':
		if plainInt(id) {
			return ""
		}
		f, err := strconv.ParseFloat(string(id), 64)
		if err != nil {
			return "id is a number too large for JSON-RPC peers to read alike (JavaScript reads it as Infinity)"
		}
		if !exactDouble(id, f) {
			return "id is a number JSON-RPC peers write back differently (a double rounds it), so an answer may match the request for one peer and not another"
		}
		return ""
	case c == 'n' && string(id) == "null":
		return ""
	}
	return "id is not a string, number or null"
}

// idKey returns a map key for a raw id. Ids that JSON readers hold equal
// share a key: a string by the string it decodes to ("\u0061" and "a",
// "p\u00ad" and "p" with a raw soft hyphen), a number by the double
// JavaScript reads (1.0, 1e0 and 1). An id idProblem refuses gets a key no
// other id has.
func idKey(id json.RawMessage) string {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return ""
	}
	switch c := id[0]; {
	case c == '"':
		if printableASCII(id) {
			return string(id)
		}
		if !jsontext.Value(id).IsValid() {
			break
		}
		if s, ok := rawjson.String(id); ok {
			return `"` + s + `"`
		}
	case c == '-' || c >= '0' && c <= '9':
		if plainInt(id) {
			return string(id)
		}
		f, err := strconv.ParseFloat(string(id), 64)
		if err != nil {
			break
		}
		if f == math.Trunc(f) && math.Abs(f) < 1e15 {
			return strconv.FormatInt(int64(f), 10)
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	case c == 'n' && string(id) == "null":
		return "null"
	}
	// Refused ids match nothing: no decoded string or number starts so.
	return "!" + string(id)
}

// printableASCII reports whether a JSON string is written with printable
// ASCII only and no escape: its own spelling is the string it decodes to.
func printableASCII(s []byte) bool {
	if len(s) < 2 || s[len(s)-1] != '"' {
		return false
	}
	for _, c := range s[1 : len(s)-1] {
		if c < 0x20 || c > 0x7e || c == '\\' || c == '"' {
			return false
		}
	}
	return true
}

// plainInt reports whether a number is written as a non-negative integer
// of up to 15 digits without leading zeros: its own canonical form.
func plainInt(n []byte) bool {
	if len(n) > 15 || (n[0] == '0' && len(n) > 1) {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxExactIDBytes bounds the number ids exactDouble reads exactly: longer
// ones are no ids a peer writes, and are refused.
const maxExactIDBytes = 64

// exactDouble reports whether the JSON number n, whose double is f, is
// the number a peer that read it as a double writes back (JavaScript's
// shortest form of f): 0.1 and 1e300 are, 1.00000000000000000001 (written
// back as 1) and 9007199254740993 (as 9007199254740992) are not, and a
// reader that keeps the decimal (acp-go-sdk) matches the answer to no
// request.
func exactDouble(n []byte, f float64) bool {
	if len(n) > maxExactIDBytes {
		return false
	}
	// An exponent past any double's (0e5000, which acp-go-sdk refuses
	// to read at all) is no id a peer writes back.
	if i := bytes.IndexAny(n, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimPrefix(string(n[i+1:]), "+")); err != nil || e > 400 || e < -400 {
			return false
		}
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return false
	}
	back, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return ok && r.Cmp(back) == 0
}
