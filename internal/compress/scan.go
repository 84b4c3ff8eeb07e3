package compress

import "bytes"

// A fast scanner for the streaming path. The bridge has already checked
// every message with json.Valid, so these functions only find where values
// start and end; they skip strings with bytes.IndexByte instead of walking
// them byte by byte, which matters for multi-kilobyte text chunks. Keys are
// compared as raw bytes: a key written with escapes does not match, and the
// message then passes untouched, which is the safe outcome.

// eachMember calls fn with the raw key (without quotes) and raw value of
// each member of obj until fn returns false. obj must be valid JSON; a
// non-object yields nothing.
func eachMember(obj []byte, fn func(key, val []byte) bool) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i = skipWS(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kEnd := skipStr(obj, i)
		if kEnd < i+2 || obj[kEnd-1] != '"' {
			return // an unterminated key: not JSON, nothing to find
		}
		key := obj[i+1 : kEnd-1]
		i = skipWS(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		vStart := skipWS(obj, i+1)
		vEnd := skipVal(obj, vStart)
		if vEnd <= vStart || !fn(key, obj[vStart:vEnd]) {
			return
		}
		i = skipWS(obj, vEnd)
		if i < len(obj) && obj[i] == ',' {
			i = skipWS(obj, i+1)
		}
	}
}

// eachElement calls fn with each raw element of the array arr until fn
// returns false.
func eachElement(arr []byte, fn func(val []byte) bool) {
	i := skipWS(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = skipWS(arr, i+1)
	for i < len(arr) && arr[i] != ']' {
		end := skipVal(arr, i)
		if end <= i || !fn(arr[i:end]) {
			return
		}
		i = skipWS(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipWS(arr, i+1)
		}
	}
}

// member returns the raw value of key in obj.
func member(obj []byte, key string) (val []byte, ok bool) {
	eachMember(obj, func(k, v []byte) bool {
		if string(k) == key {
			val, ok = v, true
			return false
		}
		return true
	})
	return val, ok
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipStr returns the index just after the string starting at b[i] == '"'.
func skipStr(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// structural holds the bytes skipVal stops at inside an object or array:
// a string's quote and the brackets. A table lookup a byte is quicker than
// bytes.IndexAny here, whose distances to the next quote are short.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// skipVal returns the index just after the value starting at b[i].
func skipVal(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipStr(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			for i < len(b) && !structural[b[i]] {
				i++
			}
			if i >= len(b) {
				return len(b)
			}
			switch b[i] {
			case '"':
				i = skipStr(b, i)
				continue
			case '{', '[':
				depth++
			default:
				depth--
			}
			i++
			if depth == 0 {
				return i
			}
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}
