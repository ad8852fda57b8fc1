package official

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// jsonReader reads the large JSON files of the smtcomp tool (results,
// benchmark lists: hundreds of MB) element by element without decoding
// them into maps: an element object becomes a list of members whose keys
// and values are byte ranges of the input, read as encoding/json would
// (the same documents accepted, the same raw values; FuzzJSONReader
// compares them), at a fraction of its cost.
type jsonReader struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte of buf
	end  int   // end of the bytes read into buf
	off  int64 // offset in the input of buf[0]
	mark int   // start of the element being kept in buf, or -1
	err  error // the read error that ended the input (io.EOF at its end)
	// first: the array being read has given no element yet.
	first bool
}

// jsonMaxDepth is encoding/json's limit on nesting.
const jsonMaxDepth = 10000

func newJSONReader(r io.Reader) *jsonReader {
	return &jsonReader{r: r, buf: make([]byte, 1<<16), mark: -1}
}

// syntaxError is a document that is not JSON, at a byte offset.
type syntaxError struct {
	msg string
	Off int64
}

func (e *syntaxError) Error() string { return e.msg }

// offset is the input offset of the next unread byte.
func (d *jsonReader) offset() int64 { return d.off + int64(d.pos) }

func (d *jsonReader) fail(format string, args ...any) error {
	return &syntaxError{msg: fmt.Sprintf(format, args...), Off: d.offset()}
}

// fill reads more input, keeping buf[mark:] (or nothing read yet) in the
// buffer; it returns false at the end of the input.
func (d *jsonReader) fill() bool {
	if d.err != nil {
		return false
	}
	keep := d.pos
	if d.mark >= 0 {
		keep = d.mark
	}
	if keep > 0 {
		n := copy(d.buf, d.buf[keep:d.end])
		d.off += int64(keep)
		d.pos -= keep
		d.end = n
		if d.mark >= 0 {
			d.mark = 0
		}
	}
	if d.end == len(d.buf) {
		d.buf = append(d.buf, make([]byte, len(d.buf))...)
	}
	for {
		n, err := d.r.Read(d.buf[d.end:])
		d.end += n
		if err != nil {
			d.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// eofError is the end of the input inside a value: the read error if
// the input could not be read, else encoding/json's message.
func (d *jsonReader) eofError() error {
	if d.err != nil && !errors.Is(d.err, io.EOF) {
		return fmt.Errorf("byte %d: %w", d.offset(), d.err)
	}
	return &syntaxError{msg: "unexpected end of JSON input", Off: d.offset()}
}

// peek skips white space and returns the next byte, or false at the end.
func (d *jsonReader) peek() (byte, bool) {
	for {
		b := d.buf[d.pos:d.end]
		for i, c := range b {
			if c > ' ' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
				d.pos += i
				return c, true
			}
		}
		d.pos = d.end
		if !d.fill() {
			return 0, false
		}
	}
}

// next is peek that fails at the end of the input.
func (d *jsonReader) next() (byte, error) {
	c, ok := d.peek()
	if !ok {
		return 0, d.eofError()
	}
	return c, nil
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// skipString reads a string whose opening quote is at pos.
func (d *jsonReader) skipString() error {
	d.pos++
	for {
		// The plain run of the string at once.
		b := d.buf[d.pos:d.end]
		i := 0
		for i < len(b) && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\' {
			i++
		}
		d.pos += i
		for d.pos < d.end {
			c := d.buf[d.pos]
			switch {
			case c == '"':
				d.pos++
				return nil
			case c == '\\':
				if d.pos+6 > d.end && !d.ensure(2) {
					return d.eofError()
				}
				switch d.buf[d.pos+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					d.pos += 2
				case 'u':
					if !d.ensure(6) {
						d.pos = d.end
						return d.eofError()
					}
					for i := 2; i < 6; i++ {
						if !isHex(d.buf[d.pos+i]) {
							d.pos += i
							return d.fail("invalid character %s in \\u hexadecimal character escape", quoteChar(d.buf[d.pos]))
						}
					}
					d.pos += 6
				default:
					d.pos++
					return d.fail("invalid character %s in string escape code", quoteChar(d.buf[d.pos]))
				}
			case c < 0x20:
				return d.fail("invalid character %s in string literal", quoteChar(c))
			default:
				d.pos++
			}
		}
		if !d.fill() {
			return d.eofError()
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// ensure makes n bytes from pos available, if the input has them.
func (d *jsonReader) ensure(n int) bool {
	for d.end-d.pos < n {
		if !d.fill() {
			return false
		}
	}
	return true
}

// byteAt returns the byte at pos, reading more input if needed.
func (d *jsonReader) byteAt() (byte, bool) {
	if d.pos < d.end {
		return d.buf[d.pos], true
	}
	if !d.fill() {
		return 0, false
	}
	return d.buf[d.pos], true
}

// skipNumber reads a number starting at pos (a '-' or a digit).
func (d *jsonReader) skipNumber() error {
	digits := func() int {
		n := 0
		for {
			c, ok := d.byteAt()
			if !ok || c < '0' || c > '9' {
				return n
			}
			d.pos++
			n++
		}
	}
	c, _ := d.byteAt()
	if c == '-' {
		d.pos++
		c, ok := d.byteAt()
		if !ok {
			return d.eofError()
		}
		if c < '0' || c > '9' {
			return d.fail("invalid character %s in numeric literal", quoteChar(c))
		}
	}
	if c, _ := d.byteAt(); c == '0' {
		d.pos++
	} else {
		digits()
	}
	if c, ok := d.byteAt(); ok && c == '.' {
		d.pos++
		if digits() == 0 {
			if c, ok := d.byteAt(); ok {
				return d.fail("invalid character %s after decimal point in numeric literal", quoteChar(c))
			}
			return d.eofError()
		}
	}
	if c, ok := d.byteAt(); ok && (c == 'e' || c == 'E') {
		d.pos++
		if c, ok := d.byteAt(); ok && (c == '+' || c == '-') {
			d.pos++
		}
		if digits() == 0 {
			if c, ok := d.byteAt(); ok {
				return d.fail("invalid character %s in exponent of numeric literal", quoteChar(c))
			}
			return d.eofError()
		}
	}
	return nil
}

// skipLiteral reads true, false or null starting at pos.
func (d *jsonReader) skipLiteral(word string) error {
	for i := 0; i < len(word); i++ {
		c, ok := d.byteAt()
		if !ok {
			return d.eofError()
		}
		if c != word[i] {
			return d.fail("invalid character %s in literal %s (expecting %s)", quoteChar(c), word, quoteChar(word[i]))
		}
		d.pos++
	}
	return nil
}

// skipValue reads one value, validating it.
func (d *jsonReader) skipValue(depth int) error {
	c, err := d.next()
	if err != nil {
		return err
	}
	switch {
	case c == '"':
		return d.skipString()
	case c == '-' || ('0' <= c && c <= '9'):
		return d.skipNumber()
	case c == 't':
		return d.skipLiteral("true")
	case c == 'f':
		return d.skipLiteral("false")
	case c == 'n':
		return d.skipLiteral("null")
	case c == '{' || c == '[':
		if depth >= jsonMaxDepth {
			return d.fail("exceeded max depth")
		}
		closer := byte(']')
		if c == '{' {
			closer = '}'
		}
		d.pos++
		for i := 0; ; i++ {
			c, err := d.next()
			if err != nil {
				return err
			}
			if c == closer && i == 0 {
				d.pos++
				return nil
			}
			if i > 0 {
				if c == closer {
					d.pos++
					return nil
				}
				if c != ',' {
					if closer == '}' {
						return d.fail("invalid character %s after object key:value pair", quoteChar(c))
					}
					return d.fail("invalid character %s after array element", quoteChar(c))
				}
				d.pos++
				if c, err = d.next(); err != nil {
					return err
				}
			}
			if closer == '}' {
				if c != '"' {
					return d.fail("invalid character %s looking for beginning of object key string", quoteChar(c))
				}
				if err := d.skipString(); err != nil {
					return err
				}
				if c, err = d.next(); err != nil {
					return err
				}
				if c != ':' {
					return d.fail("invalid character %s after object key", quoteChar(c))
				}
				d.pos++
			}
			if err := d.skipValue(depth + 1); err != nil {
				return err
			}
		}
	}
	return d.fail("invalid character %s looking for beginning of value", quoteChar(c))
}

// span is a byte range of the element being read, relative to its start.
type span struct{ lo, hi int }

// member is one key: value of an element object; the key includes its
// quotes.
type member struct{ key, val span }

// element reads the next value of an array into members: an object's
// members, none for null (which encoding/json decodes into a nil map);
// any other value is an error. The spans stay valid until the next call.
func (d *jsonReader) element(ms []member) ([]member, error) {
	ms = ms[:0]
	c, err := d.next()
	if err != nil {
		return ms, err
	}
	if c == 'n' {
		return ms, d.skipLiteral("null")
	}
	if c != '{' {
		start := d.offset()
		if err := d.skipValue(0); err != nil {
			return ms, err
		}
		return ms, &syntaxError{msg: fmt.Sprintf("want an object, got %s", jsonKind(c)), Off: start}
	}
	d.mark = d.pos
	if fast, n, ok := scanObject(d.buf[d.pos:d.end], ms); ok {
		d.pos += n
		return fast, nil
	}
	d.pos++
	for i := 0; ; i++ {
		c, err := d.next()
		if err != nil {
			return ms, err
		}
		if c == '}' && i == 0 {
			d.pos++
			return ms, nil
		}
		if i > 0 {
			if c == '}' {
				d.pos++
				return ms, nil
			}
			if c != ',' {
				return ms, d.fail("invalid character %s after object key:value pair", quoteChar(c))
			}
			d.pos++
			if c, err = d.next(); err != nil {
				return ms, err
			}
		}
		if c != '"' {
			return ms, d.fail("invalid character %s looking for beginning of object key string", quoteChar(c))
		}
		var m member
		m.key.lo = d.pos - d.mark
		if err := d.skipString(); err != nil {
			return ms, err
		}
		m.key.hi = d.pos - d.mark
		if c, err = d.next(); err != nil {
			return ms, err
		}
		if c != ':' {
			return ms, d.fail("invalid character %s after object key", quoteChar(c))
		}
		d.pos++
		if _, err := d.next(); err != nil {
			return ms, err
		}
		m.val.lo = d.pos - d.mark
		if err := d.skipValue(1); err != nil {
			return ms, err
		}
		m.val.hi = d.pos - d.mark
		ms = append(ms, m)
	}
}

// bytes are the bytes of a span of the element last read.
func (d *jsonReader) bytes(s span) []byte { return d.buf[d.mark+s.lo : d.mark+s.hi] }

// release lets the buffer drop the element last read.
func (d *jsonReader) release() { d.mark = -1 }

func jsonKind(c byte) string {
	switch c {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// arrays positions the reader on the elements of the array at the top
// level of a file, or at the value of one of keys of the top-level object
// (the results file's "results"; the benchmarks file's "incremental" and
// "non_incremental", each in turn through each). It calls each with the
// key ("" for a top-level array) once the reader is inside the array; each
// reads the elements with more and element.
func (d *jsonReader) arrays(keys map[string]bool, each func(key string) error) error {
	c, err := d.next()
	if err != nil {
		return err
	}
	if c == '[' {
		d.pos++
		d.first = true
		return each("")
	}
	if c != '{' {
		return fmt.Errorf("want a JSON array or object, got %s", jsonKind(c))
	}
	d.pos++
	found := false
	for i := 0; ; i++ {
		c, err := d.next()
		if err != nil {
			return err
		}
		if c == '}' && i == 0 {
			break
		}
		if i > 0 {
			if c == '}' {
				break
			}
			if c != ',' {
				return d.fail("invalid character %s after object key:value pair", quoteChar(c))
			}
			d.pos++
			if c, err = d.next(); err != nil {
				return err
			}
		}
		if c != '"' {
			return d.fail("invalid character %s looking for beginning of object key string", quoteChar(c))
		}
		d.mark = d.pos
		if err := d.skipString(); err != nil {
			return err
		}
		key := unquoteKey(d.buf[d.mark:d.pos])
		d.release()
		if c, err = d.next(); err != nil {
			return err
		}
		if c != ':' {
			return d.fail("invalid character %s after object key", quoteChar(c))
		}
		d.pos++
		if !keys[key] {
			if err := d.skipValue(1); err != nil {
				return err
			}
			continue
		}
		if c, err = d.next(); err != nil {
			return err
		}
		if c != '[' {
			return fmt.Errorf("%q: want an array", key)
		}
		d.pos++
		d.first = true
		found = true
		if err := each(key); err != nil {
			return err
		}
	}
	d.pos++
	if !found {
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, strconv.Quote(k))
		}
		sort.Strings(ks)
		return fmt.Errorf("no %s array", strings.Join(ks, " or "))
	}
	return nil
}

// more says whether the array being read has another element, reading
// the comma before it or the closing bracket after the last.
func (d *jsonReader) more() (bool, error) {
	c, err := d.next()
	if err != nil {
		return false, err
	}
	if c == ']' {
		d.pos++
		return false, nil
	}
	if d.first {
		d.first = false
		return true, nil
	}
	if c != ',' {
		return false, d.fail("invalid character %s after array element", quoteChar(c))
	}
	d.pos++
	if _, err := d.next(); err != nil {
		return false, err
	}
	return true, nil
}

// unquoteKey makes a string of a quoted key as encoding/json does.
func unquoteKey(q []byte) string {
	for _, c := range q {
		if c == '\\' || c >= 0x80 {
			var s string
			if json.Unmarshal(q, &s) == nil {
				return s
			}
			break
		}
	}
	return string(q[1 : len(q)-1])
}

// plainString is the contents of a JSON string value without escapes or
// bytes that are not ASCII, or false.
func plainString(v []byte) ([]byte, bool) {
	if len(v) < 2 || v[0] != '"' {
		return nil, false
	}
	for _, c := range v[1 : len(v)-1] {
		if c == '\\' || c >= 0x80 {
			return nil, false
		}
	}
	return v[1 : len(v)-1], true
}

// rawMap is the map encoding/json decodes an element into, with the
// values copied out of the reader's buffer; of a key given twice the
// last counts, as there.
func (d *jsonReader) rawMap(ms []member) map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(ms))
	for _, x := range ms {
		m[unquoteKey(d.bytes(x.key))] = append(json.RawMessage(nil), d.bytes(x.val)...)
	}
	return m
}
