package official

// scanObject reads the object at the start of b (its '{') as element
// does, wholly within b: its members (spans relative to b) and its length.
// It stops (ok false) at anything it leaves to element, which reads the
// object again with refills and the error messages: the end of b, an
// escape in a string, a byte that is not JSON, deep nesting. The results
// of the smtcomp tool fit its buffer, and it reads them without a call a
// byte.
func scanObject(b []byte, ms []member) (_ []member, n int, ok bool) {
	ms = ms[:0]
	n = scanContainer(b, 0, 0, &ms)
	return ms, n, n >= 0
}

// skipSpace returns the index of the first byte at or after i that is
// not white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// scanString returns the index after the string at i (a plain one: no
// escapes), or -1.
func scanString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c == '\\' || c < 0x20:
			return -1
		}
	}
	return -1
}

// scanMaxDepth bounds the nesting scanValue reads (element reads deeper
// ones).
const scanMaxDepth = 16

// scanValue returns the index after the value at i, or -1.
func scanValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return scanString(b, i)
	case c == '-' || ('0' <= c && c <= '9'):
		return scanNumber(b, i)
	case c == 't':
		return scanWord(b, i, "true")
	case c == 'f':
		return scanWord(b, i, "false")
	case c == 'n':
		return scanWord(b, i, "null")
	case c == '{' || c == '[':
		return scanContainer(b, i, depth, nil)
	}
	return -1
}

// scanContainer returns the index after the object or array at i, or -1;
// the members of an object are appended to ms if it is not nil.
func scanContainer(b []byte, i, depth int, ms *[]member) int {
	if depth >= scanMaxDepth {
		return -1
	}
	closer := byte(']')
	if b[i] == '{' {
		closer = '}'
	}
	i++
	for first := true; ; first = false {
		i = skipSpace(b, i)
		if i >= len(b) {
			return -1
		}
		if b[i] == closer {
			return i + 1
		}
		if !first {
			if b[i] != ',' {
				return -1
			}
			i = skipSpace(b, i+1)
		}
		var m member
		if closer == '}' {
			m.key.lo = i
			if i = scanString(b, i); i < 0 {
				return -1
			}
			m.key.hi = i
			i = skipSpace(b, i)
			if i >= len(b) || b[i] != ':' {
				return -1
			}
			i = skipSpace(b, i+1)
		}
		m.val.lo = i
		if i = scanValue(b, i, depth+1); i < 0 {
			return -1
		}
		m.val.hi = i
		if ms != nil {
			*ms = append(*ms, m)
		}
	}
}

// scanWord returns the index after the literal w at i, or -1.
func scanWord(b []byte, i int, w string) int {
	if len(b)-i < len(w) || string(b[i:i+len(w)]) != w {
		return -1
	}
	return i + len(w)
}

// scanNumber returns the index after the number at i, or -1 (also when
// the number may go on past b).
func scanNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		n := j - i
		i = j
		return n
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case digits() == 0:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	if i >= len(b) {
		return -1 // more digits may follow in the input
	}
	return i
}
