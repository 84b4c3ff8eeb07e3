package accp

// Frame is one parsed ACCP frame: header (agent, intent), body (operation and
// params) and metadata (the envelope fields and any others). Params and Meta
// keep wire order; keys are unique.
type Frame struct {
	Agent  string
	Intent string
	Op     string
	Params []Field
	Meta   []Field
}

// Param returns the value of a body parameter.
func (f *Frame) Param(key string) (Value, bool) { return lookup(f.Params, key) }

// MetaValue returns the value of a metadata field.
func (f *Frame) MetaValue(key string) (Value, bool) { return lookup(f.Meta, key) }

func lookup(fields []Field, key string) (Value, bool) {
	for _, f := range fields {
		if f.Key == key {
			return f.Val, true
		}
	}
	return Value{}, false
}

// SetParam sets or replaces a body parameter.
func (f *Frame) SetParam(key string, v Value) { f.Params = set(f.Params, key, v) }

// SetMeta sets or replaces a metadata field.
func (f *Frame) SetMeta(key string, v Value) { f.Meta = set(f.Meta, key, v) }

func set(fields []Field, key string, v Value) []Field {
	for i := range fields {
		if fields[i].Key == key {
			fields[i].Val = v
			return fields
		}
	}
	return append(fields, Field{key, v})
}
