package shellcmd

// zshQuoting follows, through a line read byte by byte, whether a place is
// inside double quotes, where a "'" quotes nothing and zsh's $=x still
// splits, a command substitution or backquotes (each a quoting of its own
// again) opened inside them counted.
type zshQuoting struct {
	stack []byte // '"' double quotes, '(' a $( ), '`' backquotes
	depth []int  // the parentheses open inside each $( )
}

// quoted reports whether the place is inside double quotes.
func (q *zshQuoting) quoted() bool { return q.top() == '"' }

func (q *zshQuoting) top() byte {
	if len(q.stack) == 0 {
		return 0
	}
	return q.stack[len(q.stack)-1]
}

func (q *zshQuoting) push(c byte) {
	q.stack = append(q.stack, c)
	q.depth = append(q.depth, 0)
}

func (q *zshQuoting) pop() {
	q.stack = q.stack[:len(q.stack)-1]
	q.depth = q.depth[:len(q.depth)-1]
}

// step reads src[i], a byte outside single quotes and escapes, and
// returns the index of the last byte it read ("$(" is two).
func (q *zshQuoting) step(src string, i int) int {
	switch c := src[i]; {
	case c == '"' || c == '`':
		if q.top() == c {
			q.pop()
		} else {
			q.push(c)
		}
	case c == '$' && i+1 < len(src) && src[i+1] == '(':
		q.push('(')
		return i + 1
	case c == '(' && q.top() == '(':
		q.depth[len(q.depth)-1]++
	case c == ')' && q.top() == '(':
		if q.depth[len(q.depth)-1] == 0 {
			q.pop()
		} else {
			q.depth[len(q.depth)-1]--
		}
	}
	return i
}
