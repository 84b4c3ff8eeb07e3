package shellcmd

import (
	"slices"
	"testing"
)

// TestZshModifiersRead: a modifier zsh applies to a parameter, unbraced or
// in braces, is read as the bash operator that gives its value where bash
// has one; several in a row, one after a subscript and one bash has no
// operator for are listed as not followed; text bash reads the same way
// in zsh (a default value, an offset, a ':' before no modifier) is left.
func TestZshModifiersRead(t *testing.T) {
	tests := []struct {
		src, want string
		unread    []string
	}{
		{src: `$x:r x`, want: `${x%.*} x`},
		{src: `"$x:l" x`, want: `"${x,,}" x`},
		{src: `$x:u`, want: `${x^^}`},
		{src: `cat $x:e`, want: `cat ${x##*.}`},
		{src: `$x:t $x:h`, want: `${x##*/} ${x%/*}`},
		{src: `$x:s/l/r/ x`, want: `${x/l/r} x`},
		{src: `$x:s/l/r x`, want: `${x/l/r} x`},
		{src: `$x:gs/l/r/ x`, want: `${x//l/r} x`},
		{src: `${x:r} x`, want: `${x%.*} x`},
		{src: `${x:s/l/r/} x`, want: `${x/l/r} x`},
		{src: `echo > $x:s/m/md/`, want: `echo > ${x/m/md}`},
		{src: `$x:r:l x`, unread: []string{`$x:r:l`}},
		{src: `$x:a x`, unread: []string{`$x:a`}},
		{src: `$x:h2 x`, unread: []string{`$x:h2`}},
		{src: `$x:s/*/r/ x`, unread: []string{`$x:s/*/r/`}},
		{src: `$a[2]:r x`, unread: []string{`$a[2]:r`}},
		{src: `${x:q}`, unread: []string{`${x:q}`}},
		{src: `echo ${x:-a} ${x:0:1} ${x: -1} $HOME:$PATH '$x:r' \$x:r`},
	}
	for _, tt := range tests {
		got, unread, ok := zshSubscripted(tt.src)
		if !ok {
			got = ""
		}
		if got != tt.want || !slices.Equal(unread, tt.unread) {
			t.Errorf("zshSubscripted(%q) = %q, unread %q; want %q, unread %q", tt.src, got, unread, tt.want, tt.unread)
		}
	}
}
