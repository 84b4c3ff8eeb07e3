// Package aacp parses, validates and encodes AACP packets, the pipe-delimited
// coordination messages of the Agent Action Compression Protocol
// (draft-mackay-aacp, version 1.1).
//
// # Packets
//
// A packet is one line of text: two positional fields, the action verb (TASK)
// and the business domain (DOM), then named key:value fields:
//
//	FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json
//
// The grammar this package accepts, in ABNF (RFC 5234):
//
//	packet  = task "|" dom *( "|" field )
//	task    = token                      ; FETCH, PROC, FLAG, ...
//	dom     = token                      ; HR, FIN, SALES, ...
//	token   = %x41-5A *( %x41-5A / DIGIT / "_" / "-" )
//	field   = key ":" value              ; split at the first unescaped ":"
//	key     = ALPHA *( ALPHA / DIGIT / "_" / "-" / "." )
//	value   = *( vchar / escape )
//	vchar   = any UTF-8 character but "|", "\" and controls
//	escape  = "\" ( "\" / "|" / ":" )
//
// Nothing is trimmed: white space belongs to the field it is in, so " FETCH"
// is a malformed TASK and "subj:Hello " ends with a space.
//
// Named fields are decoded by name (Packet.Get), never by position: the
// reference implementation's positional decoder reads field 2 as res: and
// field 7 as return:, which is wrong for every v1.1 example, where return:
// comes right after DOM.
//
// # Escaping
//
// The draft defines no way to put "|" or ":" inside a value. This package
// defines one: a backslash escapes the next character, and only "\\", "\|"
// and "\:" are defined; any other backslash sequence is an error (E010). The
// encoder escapes "\" and "|". It writes ":" as is, because only the first
// unescaped ":" of a field separates the key from the value, so "\:" is
// accepted on input but never needed. Consequences:
//
//   - A packet whose values contain no "\" or "|" (every packet in the
//     draft) has no escapes: it parses as before and encodes to the same
//     bytes (Packet.String is the identity on it).
//   - Parse(p.String()) returns p for every valid packet p.
//
// # Validation
//
// Parse collects every problem of a packet at once, each with a Code, the
// field concerned and a 1-based byte column. Error codes (E001-E016) reject
// the packet: a missing or malformed TASK or DOM, a missing or empty return:
// or aacp:, a field that is not key:value, an empty slot, a duplicate key,
// a bad escape, a control character, or a packet over MaxPacketBytes.
// Warnings (W001-W009) never reject, as draft sections 5, 7, 13 and 14
// require: an unknown but well-formed TASK or DOM value (forward
// compatibility), a missing p:, a priority other than 1-3, a version other
// than 1.1, an unknown key, sentiment: without tone:, ltv: without ccy:, and
// an empty optional value.
//
// # Encoding
//
// RuleEncoder turns a natural-language instruction into a packet with fixed
// keyword rules and regular-expression extractors: the same instruction always
// yields the same bytes. Registry wraps it in the three-tier fallback of draft
// section 6.3: (1) the SHA-256 of the normalised instruction finds a cached
// packet; (2) otherwise the best keyword match among cached instructions and
// rules, if it reaches the threshold; (3) otherwise a pluggable Encoder (none
// by default, so tier 3 fails with ErrNoEncoder), whose packet is validated
// and cached. The registry is a JSON file created with mode 0600 and replaced
// atomically on every change.
package aacp
