package accp

import "testing"

// TestParsedContainersDoNotAlias checks that the containers of a parsed
// frame, which small frames carve from shared slabs, do not overlap:
// appending to one must leave the others intact.
func TestParsedContainersDoNotAlias(t *testing.T) {
	tests := []struct {
		name  string
		frame string
	}{
		{"typical", typical200B},
		{"pairs in an array", `@a>req:x{f:[rev:-12%,@b:plan,n:1]|m:{k:v}}[mid:1,seq:2]`},
		{"nested lists", `@a>req:x{l:[[1,2],[3],[]]|m:{a:[x,y],b:{c:~}}}[seq:2]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFrame(tt.frame)
			if err != nil {
				t.Fatal(err)
			}
			want := f.String()
			extra := Field{"zz", String("appended")}
			var grow func(v *Value)
			grow = func(v *Value) {
				switch v.Kind {
				case KindArray:
					for i := range v.List {
						grow(&v.List[i])
					}
					_ = append(v.List, String("appended"))
				case KindMap, KindPair:
					for i := range v.Fields {
						grow(&v.Fields[i].Val)
					}
					_ = append(v.Fields, extra)
				}
			}
			for _, set := range [][]Field{f.Params, f.Meta} {
				for i := range set {
					grow(&set[i].Val)
				}
				_ = append(set, extra)
			}
			if got := f.String(); got != want {
				t.Errorf("appending to one container changed another:\n got %s\nwant %s", got, want)
			}
		})
	}
}
