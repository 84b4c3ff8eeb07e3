package acpmap

import (
	"slices"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// The mapping writes an array of two or more objects that share one key set
// as a table: a "cols" pair naming the keys, then one array of values per
// object, "[cols:[id,name],[a,A],[b,B]]". Lists such as available commands,
// modes and permission options then name their keys once instead of in
// every element. accp.FromJSON never produces a pair, so an array that
// starts with one is unambiguous.

const colsKey = "cols"

// toValue converts JSON to a Value, using tables where they fit.
func toValue(x any) (accp.Value, error) {
	switch t := x.(type) {
	case []any:
		if cols := tableCols(t); cols != nil {
			items := make([]accp.Value, 0, len(t)+1)
			head := make([]accp.Value, len(cols))
			for i, c := range cols {
				head[i] = accp.String(c)
			}
			items = append(items, accp.Value{Kind: accp.KindPair, Fields: []accp.Field{{Key: colsKey, Val: accp.Array(head...)}}})
			for _, e := range t {
				m := e.(map[string]any)
				row := make([]accp.Value, len(cols))
				for i, c := range cols {
					v, err := toValue(m[c])
					if err != nil {
						return accp.Value{}, err
					}
					row[i] = v
				}
				items = append(items, accp.Array(row...))
			}
			return accp.Array(items...), nil
		}
		items := make([]accp.Value, len(t))
		for i, e := range t {
			v, err := toValue(e)
			if err != nil {
				return accp.Value{}, err
			}
			items[i] = v
		}
		return accp.Array(items...), nil
	case map[string]any:
		fields := make([]accp.Field, 0, len(t))
		for k, e := range t {
			v, err := toValue(e)
			if err != nil {
				return accp.Value{}, err
			}
			fields = append(fields, accp.Field{Key: k, Val: v})
		}
		return accp.Map(fields...), nil
	}
	return accp.FromJSON(x)
}

// tableCols returns the shared sorted key set of an array of two or more
// non-empty objects, or nil.
func tableCols(arr []any) []string {
	if len(arr) < 2 {
		return nil
	}
	first, ok := arr[0].(map[string]any)
	if !ok || len(first) == 0 {
		return nil
	}
	cols := make([]string, 0, len(first))
	for k := range first {
		cols = append(cols, k)
	}
	slices.Sort(cols)
	for _, e := range arr[1:] {
		m, ok := e.(map[string]any)
		if !ok || len(m) != len(cols) {
			return nil
		}
		for _, c := range cols {
			if _, ok := m[c]; !ok {
				return nil
			}
		}
	}
	return cols
}

// fromValue is the inverse of toValue.
func fromValue(v accp.Value) any {
	switch v.Kind {
	case accp.KindArray:
		if head, ok := tableHead(v.List); ok {
			return fromTable(head, v.List[1:])
		}
		out := make([]any, len(v.List))
		for i, e := range v.List {
			out[i] = fromValue(e)
		}
		return out
	case accp.KindMap:
		out := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			out[f.Key] = fromValue(f.Val)
		}
		return out
	}
	return v.ToJSON()
}

// fromTable converts the rows of a table with columns head. tableHead has
// checked the whole shape before anything is converted, so that fromValue,
// falling back to a plain array when it is not a table, converts each
// value once: nested malformed tables would otherwise take time doubling
// with every level.
func fromTable(head, rows []accp.Value) []any {
	out := make([]any, 0, len(rows))
	for _, row := range rows {
		m := make(map[string]any, len(head))
		for i, c := range head {
			m[c.Str] = fromValue(row.List[i])
		}
		out = append(out, m)
	}
	return out
}
