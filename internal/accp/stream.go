package accp

import (
	"strconv"
	"strings"
)

// assembly buffers the chunks of one stream (section 10.4) until the final
// chunk and every chunk before it have arrived, in any order.
type assembly struct {
	chunks map[int64]string
	final  int64 // index of the final chunk, -1 until seen
}

// maxStreamChunks bounds one stream's buffer.
const maxStreamChunks = 1 << 16

// addChunk records an ST-schema chunk under its correlation id and returns
// the assembled stream once complete.
func (s *Session) addChunk(cid string, m *Message) (*StreamResult, error) {
	if cid == "" {
		return nil, errorf(CodeParse, -1, "stream chunk without a correlation id")
	}
	idxV, ok := m.Field("chunk_index")
	if !ok {
		return nil, errorf(CodeParse, -1, "stream chunk without chunk_index")
	}
	idx, err := strconv.ParseInt(idxV.Str, 10, 64)
	if err != nil || idx < 0 || idx >= maxStreamChunks {
		return nil, errorf(CodeInvalidType, -1, "chunk_index %q out of range", idxV.Str)
	}
	a := s.streams[cid]
	if a == nil {
		a = &assembly{chunks: map[int64]string{}, final: -1}
		s.streams[cid] = a
	}
	if _, dup := a.chunks[idx]; dup {
		return nil, errorf(CodeDuplicate, -1, "stream %s chunk %d received twice", cid, idx)
	}
	d, _ := m.Field("data")
	if d.Kind == KindString {
		a.chunks[idx] = d.Str
	} else {
		a.chunks[idx] = string(AppendValue(nil, d))
	}
	if fin, _ := m.Field("is_final"); fin.Kind == KindBool && fin.Bool {
		a.final = idx
	}
	if a.final < 0 || int64(len(a.chunks)) != a.final+1 {
		return nil, nil
	}
	var b strings.Builder
	for i := int64(0); i <= a.final; i++ {
		part, ok := a.chunks[i]
		if !ok {
			return nil, nil
		}
		b.WriteString(part)
	}
	delete(s.streams, cid)
	return &StreamResult{Data: b.String(), Chunks: int(a.final + 1)}, nil
}

// endStream closes the stream of cid on an "end" frame (section 4.1): the
// chunks received so far must run from 0 without a hole (E3003 otherwise).
// It returns nil when no stream is open under cid.
func (s *Session) endStream(cid string) (*StreamResult, error) {
	a := s.streams[cid]
	if a == nil {
		return nil, nil
	}
	delete(s.streams, cid)
	var b strings.Builder
	for i := int64(0); i < int64(len(a.chunks)); i++ {
		part, ok := a.chunks[i]
		if !ok {
			return nil, errorf(CodeSequenceGap, -1, "stream %s ended with chunk %d missing", cid, i)
		}
		b.WriteString(part)
	}
	return &StreamResult{Data: b.String(), Chunks: len(a.chunks)}, nil
}
