package rawjson

import (
	"errors"
	"fmt"
)

// ReadObject reads the JSON object starting at b[i] (white space before it
// allowed) in one pass: it calls member with each member's name as written
// (quotes and escapes included; see Key) and the offset in b of its value
// (always inside b), and member returns the offset just past that value, having read the value
// with ReadObject or ReadArray, or passed over it with SkipValue. So a
// caller descends into the members it reads and skips the rest, and no byte
// of b is scanned twice, as it would be by Members of a Members value.
// ReadObject returns the offset just past the object. Like Members it
// finds the structure of b, not whether b is valid JSON (strings' contents
// are not checked): run it on bytes already validated.
func ReadObject(b []byte, i int, member func(name []byte, at int) (int, error)) (int, error) {
	i, empty, err := opening(b, i, '{')
	if err != nil || empty {
		return i, err
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, fmt.Errorf("rawjson: expected member name at offset %d", i)
		}
		kend, err := skipString(b, i)
		if err != nil {
			return 0, err
		}
		name := b[i:kend]
		i = skipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return 0, fmt.Errorf("rawjson: expected ':' at offset %d", i)
		}
		at := skipSpace(b, i+1)
		if at >= len(b) {
			return 0, fmt.Errorf("rawjson: unexpected end of input")
		}
		end, err := member(name, at)
		if err != nil {
			return 0, err
		}
		if end <= at || end > len(b) {
			return 0, fmt.Errorf("rawjson: member %s read to offset %d, outside its value at %d", name, end, at)
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ',' {
			return closing(b, i, '}')
		}
		i = skipSpace(b, i+1)
	}
}

// ReadArray reads the JSON array starting at b[i] (white space before it
// allowed) as ReadObject reads an object: elem gets the offset of each
// element and returns the offset just past it. ReadArray returns the offset
// just past the array.
func ReadArray(b []byte, i int, elem func(at int) (int, error)) (int, error) {
	i, empty, err := opening(b, i, '[')
	if err != nil || empty {
		return i, err
	}
	for {
		if i >= len(b) {
			return 0, fmt.Errorf("rawjson: unterminated array")
		}
		end, err := elem(i)
		if err != nil {
			return 0, err
		}
		if end <= i || end > len(b) {
			return 0, fmt.Errorf("rawjson: element read to offset %d, outside its value at %d", end, i)
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ',' {
			return closing(b, i, ']')
		}
		i = skipSpace(b, i+1)
	}
}

// SkipValue returns the offset just past the JSON value starting at b[i]
// (white space before it allowed), finding its end as Members does.
func SkipValue(b []byte, i int) (int, error) {
	return skipValue(b, skipSpace(b, i), 0)
}

// opening returns the offset of the first member or element of the object
// ('{') or array ('[') that starts at b[i] (white space before it allowed),
// or, when it is empty, empty and the offset just past it.
func opening(b []byte, i int, opener byte) (next int, empty bool, err error) {
	what, closer := "object", byte('}')
	if opener == '[' {
		what, closer = "array", ']'
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != opener {
		return 0, false, fmt.Errorf("rawjson: not an %s at offset %d", what, i)
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == closer {
		return i + 1, true, nil
	}
	return i, false, nil
}

// closing returns the offset just past b[i] if it is closer, which ends the
// object ('}') or array (']') whose last member or element ended before i,
// and otherwise an error saying what was expected there.
func closing(b []byte, i int, closer byte) (int, error) {
	switch {
	case i < len(b) && b[i] == closer:
		return i + 1, nil
	case i < len(b):
		return 0, fmt.Errorf("rawjson: expected ',' or '%c' at offset %d", closer, i)
	case closer == '}':
		return 0, errors.New("rawjson: unterminated object")
	}
	return 0, errors.New("rawjson: unterminated array")
}
