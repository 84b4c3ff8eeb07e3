package schemas

import (
	"bytes"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile returns the schema in FS named name, compiled. With assertFormat,
// its "format" keywords are assertions (a "date-time" must be one) rather
// than annotations.
func Compile(name string, assertFormat bool) (*jsonschema.Schema, error) {
	data, err := FS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading embedded %s: %v", name, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decoding embedded %s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	if assertFormat {
		c.AssertFormat()
	}
	url := "acp-bridge:///schemas/" + name
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("loading %s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %v", name, err)
	}
	return s, nil
}
