// Package accp implements the Agent Context Compression Protocol of
// draft-benzing-accp-00 up to Level 3: the frame grammar (section 3.1), the
// envelope and delivery rules (3.5-3.7), intents, abbreviations and the
// operation registry (4), hot/warm/cold state with checkpoints and deltas
// (5), the schema registry with negotiation and the profiles of section 10
// (6, 10), token budgets counted with o200k_base, streaming, and the codec
// API of section 7.1.
//
// # Frames
//
// A frame is one line, header, body and metadata:
//
//	@research>done:analyze{d:q3_sales|f:[rev:-12%QoQ,churn:+3.2%]|nx:@strategy:plan}[mid:493027715563,seq:3,ts:1714000000]
//
// ParseFrame reads it into a Frame (agent "research", intent "done",
// operation "analyze", params d, f, nx, and the metadata) or rejects it
// whole with an *Error carrying the draft's code: E1001 for anything
// outside the grammar (whitespace, an unescaped delimiter, an unknown
// escape, a duplicate key, nesting deeper than Limits.MaxDepth, more than
// Limits.MaxElements values, a frame longer than Limits.MaxFrameBytes),
// E1002 for an intent that is not registered, E1004 for a number that is
// not canonical. Format and AppendFrame write the canonical form: maps
// sorted by key, canonical numbers, minimal escapes, no whitespace.
//
// The grammar, as implemented (ABNF of 3.1 plus the extensions marked *):
//
//	frame     = header body [metadata]
//	header    = "@" agent-id ">" intent
//	body      = ":" operation "{" [param *("|" param)] "}"
//	metadata  = "[" param *("," param) "]"
//	param     = key ":" value
//	value     = "~" / array / map / ref / agent-ref* / scalar
//	array     = "[" [item *("," item)] "]"
//	item      = value / key ":" value           ; * a pair, as in 3.2
//	map       = "{" [mkey ":" value *("," mkey ":" value)] "}"
//	mkey      = 1*(ALPHA / DIGIT / "_" / "\u" 4HEXDIG) / "\'"   ; * escapes
//	ref       = "$" 1*(ALPHA / DIGIT / "_" / ".")
//	agent-ref = "@" agent-id [":" operation]      ; * as in 3.2, 6.3, 10.5
//	scalar    = "true" / "false" / integer / decimal / string
//	string    = ["\'"] 1*(safe-char / escape)    ; * "\'" marker
//	          / "\'"                             ; * the empty string
//	          / "\#" json-number                 ; * a non-canonical number
//	safe-char = VCHAR except delimiter / non-ASCII except space and control
//	escape    = "\" delimiter / "\_" / "\n" / "\t" / "\r" / "\u" 4HEXDIG
//
// # Decisions where the draft is silent or contradicts itself
//
// The draft's own examples break its ABNF. This package accepts them by
// giving each construct one typed meaning, so nothing becomes ambiguous and
// everything else stays strict:
//
//   - "@agent" in value position (who:@dev_team, esc:@supervisor,
//     nx:@strategy:plan) is an agent reference, KindAgent, optionally with an
//     operation. A literal string starting with "@" is written "\@".
//   - "key:value" inside an array (f:[rev:-12%QoQ,...]) is a pair,
//     KindPair: an ordered one-entry map. A string item cannot hold a raw
//     ":", so the reading is unambiguous.
//   - "$" followed by ref characters is always a ref. Refs whose first
//     segment is warm, cold, ctx or hot are state references and resolve on
//     decode; any other (the draft's budget:$42.30) is kept as an opaque
//     KindRef, never guessed into a number.
//   - Maps in the draft are not sorted ({task_3:done,task_4:wip,budget:...}),
//     so the parser accepts any order (and rejects duplicates); the encoder
//     always sorts.
//   - "null" in 5.4 is the string "null"; ACCP's null is "~", which removes
//     a key in a delta.
//   - The 10.x envelopes ("mid:...", no ts) fail the MUSTs of 3.5; Decode
//     rejects them unless Options.LenientEnvelope is set. mid and seq are
//     always required.
//   - The examples write spaces as "_" (What_are_Q3_findings?). Frames may
//     not hold whitespace, so "_" in a string means a space and "\_" an
//     underscore, except in the "\'" form, where "_" is literal and which
//     the encoder uses for identifiers such as end_turn or toolu_01abc.
//     "sprint_14" in the draft therefore reads as "sprint 14".
//
// Lossless JSON needs what the draft lacks: the empty string ("\'"),
// strings that look like numbers or booleans ("\'42", "\'true"), JSON
// numbers with no canonical form ("\#1e5", "\#1.0", "\#-0"), newlines and
// other controls ("\n", "\u0001"), and map keys of any characters
// ("zed\u002Edev"). Non-ASCII text is written as UTF-8 except whitespace
// and control characters. Every extension is a "\" followed by a character
// that is not a delimiter, which the draft's grammar forbids, so no
// conformant frame changes meaning.
//
// # Sessions, state and the pipeline
//
// A Session numbers outgoing frames (Encode fills mid, seq, ts, sid) and
// checks incoming ones (Decode): a repeated mid is E3002, a seq that is not
// the next one E3003 (the frame is not consumed, so a retransmission fits),
// frames past their ttl and frames of a cancelled correlation id are
// dropped silently. Encode applies schema compaction, the 4.2
// abbreviations, default omission, then the 3.4 budget: strings over 50
// characters move to cold state as $cold refs, and a frame still over 240
// tokens is split into an ST sequence (stream:frame) that Decode
// reassembles. ST streams are reordered by chunk index and complete on the
// final chunk or on an end frame with the stream's cid. Decode resolves $warm/$cold/$ctx refs (E2001, E2002, E5002
// for another session's state unless granted), expands keys and fills
// defaults. Checkpoint (automatic on done, esc, comp and over 400 hot
// tokens) writes a summary of at most 100 tokens to $warm.ckpt_N and the raw
// frames to $cold.ckpt_N; StateDelta and sync:state frames carry 5.4
// deltas.
//
// Mapping ACP JSON-RPC messages to frames and back lives in subpackage
// acpmap.
package accp
