package smtlib

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// ResponseKind is the class of one solver response.
type ResponseKind uint8

// The kinds of responses. The zero value is RespGarbage, so a zero Response
// carries no answer.
const (
	RespGarbage     ResponseKind = iota // text that could not be read; Message says why
	RespSuccess                         // success
	RespSat                             // sat
	RespUnsat                           // unsat
	RespUnknown                         // unknown
	RespUnsupported                     // unsupported
	RespError                           // (error "msg"); Message holds msg
	RespValues                          // get-value or get-assignment answer: ((t v) ...)
	RespInfo                            // get-info answer: (:keyword value ...)
	RespUnsatCore                       // get-unsat-core answer: (name ...)
	RespModel                           // get-model answer: ((define-fun ...) ...) or (model ...)
	RespSExpr                           // any other well-formed s-expression
	numRespKinds

	respAuto = numRespKinds // classify by shape
)

var respKindNames = [...]string{"garbage", "success", "sat", "unsat", "unknown", "unsupported",
	"error", "values", "info", "unsat-core", "model", "s-expression"}

func (k ResponseKind) String() string {
	if k < numRespKinds {
		return respKindNames[k]
	}
	return "response-kind?"
}

// Response is one answer read from a solver's output.
//
// A list's kind is guessed from its shape, since a solver does not say which
// command it answers: "()" is RespSExpr, a list of symbols is RespUnsatCore,
// a list of two-element lists is RespValues (get-assertions answers of that
// shape too), a list of definitions or declarations is RespModel. A caller
// that knows what it asked for calls As to read the response as that kind.
type Response struct {
	Kind ResponseKind
	Pos  Position // where the response starts in the stream
	End  Position // just after its last byte
	// Text is the response as read. Garbage longer than the reader's
	// MaxSize is clipped; End still says where it ended.
	Text string
	// Message is the message of an error (with "" and \" escapes decoded),
	// or for garbage what was wrong with it.
	Message string

	// Script holds the terms below, so that they can be printed and
	// compared; its Commands are the model's elements. It is nil for answers
	// without terms, and term positions in it are positions in the stream.
	Script *Script
	Term   Term         // RespSExpr: the whole response
	Values []ValuePair  // RespValues
	Attrs  []Attribute  // RespInfo
	Core   []string     // RespUnsatCore: the names, in order
	Defs   []Definition // RespModel: the functions, constants and sorts
	errAt  Position     // RespGarbage: where the problem is
}

// ValuePair is one (term value) of a get-value answer.
type ValuePair struct{ Term, Value Term }

// Attribute is one :keyword value of a get-info answer; Value is NoTerm when
// the keyword has none.
type Attribute struct {
	Keyword string // with the colon
	Value   Term
}

// Definition is a function, constant or sort that a model defines or
// declares. Models also hold cardinality constraints (z3 prints them as
// bare forall terms, returned as CmdAssert commands), sort definitions and
// datatype declarations; those are only in the Script's Commands.
type Definition struct {
	Kind   CommandKind // CmdDefineFun, CmdDefineFunRec, CmdDefineFunsRec, CmdDeclareFun, CmdDeclareConst or CmdDeclareSort
	Name   string
	Params []Param // declare-fun gives sorts only: Name is ""
	Sort   Term    // result sort; NoTerm for declare-sort
	Body   Term    // NoTerm for declarations
	Pos    Pos
}

// Param is one parameter of a defined function.
type Param struct {
	Name string
	Sort Term
}

// IsCheckSatAnswer reports whether r answers check-sat: sat, unsat or unknown.
func (r Response) IsCheckSatAnswer() bool {
	return r.Kind == RespSat || r.Kind == RespUnsat || r.Kind == RespUnknown
}

// Status returns "sat", "unsat" or "unknown" for a check-sat answer, and ""
// for anything else: the form results are stored in.
func (r Response) Status() string {
	if r.IsCheckSatAnswer() {
		return r.Kind.String()
	}
	return ""
}

// Lookup returns the model's first definition of name. It looks through
// Defs: a validator keeps its own table, and building one here for every
// model read would cost a model of many definitions more than its lookups.
func (r Response) Lookup(name string) (Definition, bool) {
	for _, d := range r.Defs {
		if d.Name == name {
			return d, true
		}
	}
	return Definition{}, false
}

// Attr returns the value of a get-info attribute (key with its colon) as
// text: a string without quotes and escapes, a symbol without bars, any
// other value in canonical form.
func (r Response) Attr(key string) (string, bool) {
	for _, a := range r.Attrs {
		if a.Keyword != key {
			continue
		}
		switch r.Script.Kind(a.Value) {
		case KindString:
			s := r.Script.Name(a.Value)
			return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`), true
		case KindSymbol:
			return r.Script.Name(a.Value), true
		case KindNone:
			return "", true
		}
		return r.Script.TermString(a.Value), true
	}
	return "", false
}

// Err returns the problem with a garbage response, with its position, and
// nil for any other response.
func (r Response) Err() error {
	if r.Kind != RespGarbage {
		return nil
	}
	return &Error{Pos: r.errAt, Msg: r.Message}
}

// As reads r again as the kind the caller expects, e.g. "()" after
// get-model as an empty model. Any well-formed response can be read as
// RespSExpr. It fails if r does not have the shape of kind.
func (r Response) As(kind ResponseKind) (Response, error) {
	if r.Kind == kind {
		return r, nil
	}
	if r.Kind == RespGarbage || kind == RespGarbage || kind >= numRespKinds {
		return r, &Error{Pos: r.Pos, Msg: fmt.Sprintf("a %s response cannot be read as %s", r.Kind, kind)}
	}
	out, err := parseText(r.Pos, []byte(r.Text), kind)
	if err != nil {
		return r, err
	}
	out.End = r.End
	return out, nil
}

// ParseResponses reads every response in src. Garbage is returned as
// RespGarbage responses and also listed, with positions, in the ErrorList.
func ParseResponses(name string, src []byte) ([]Response, ErrorList) {
	rr := &ResponseReader{name: name, buf: src, err: io.EOF, line: 1, MaxSize: maxResponseLimit}
	var out []Response
	var errs ErrorList
	for {
		r, err := rr.Next()
		if err != nil {
			return out, errs
		}
		if r.Kind == RespGarbage {
			errs = append(errs, r.Err().(*Error))
		}
		out = append(out, r)
	}
}

// DefaultMaxResponseSize is the MaxSize a new ResponseReader has.
const DefaultMaxResponseSize = 256 << 20

// maxResponseLimit keeps every node and symbol index of a response's arena
// addressable.
const maxResponseLimit = 1 << 30

// garbagePreview is how much of an over-long response Text keeps.
const garbagePreview = 4 << 10

// ResponseReader reads solver responses from a stream as they arrive. It
// holds at most about MaxSize bytes, whatever the stream's length, and never
// reads beyond the end of a response that it returns, so it can talk to a
// solver interactively.
type ResponseReader struct {
	// MaxSize bounds the bytes of one response; a longer one is skipped
	// and returned as garbage. At most 1 GiB.
	MaxSize int

	name string
	r    io.Reader
	buf  []byte // buf[pos:] is read but not yet returned
	pos  int
	err  error // what ended reading: io.EOF or the reader's error

	off       int // stream offset of buf[pos]
	line      int // its line
	lineStart int // stream offset of the start of that line
	inComment bool

	// After a response fails to end before the end of the input, reading
	// resumes on the next line, and every unclosed '(' after it scans to
	// the end again. eofWork counts those bytes; beyond eofBudget the rest
	// of the input is one garbage response, so that time stays linear.
	eofWork, eofBudget int
}

// NewResponseReader returns a reader of the responses in r; name is used in
// positions.
func NewResponseReader(name string, r io.Reader) *ResponseReader {
	return &ResponseReader{name: name, r: r, line: 1, MaxSize: DefaultMaxResponseSize}
}

// Next returns the next response. Text that is not a response comes back as
// a RespGarbage response, not as an error; the error is io.EOF at the end of
// the stream or the error that reading it gave.
func (rr *ResponseReader) Next() (Response, error) {
	if !rr.skipSpace() {
		return Response{}, rr.err
	}
	at := rr.position()
	f := rr.startFrame()
	for {
		for !rr.scan(&f) {
			if f.discard {
				rr.drop(&f)
			} else if f.i > rr.maxSize() {
				f.discard = true
				f.preview = string(rr.buf[rr.pos : rr.pos+min(f.i, garbagePreview, rr.maxSize())])
				f.msg, f.errAt = fmt.Sprintf("response longer than %d bytes", rr.maxSize()), at
				rr.drop(&f)
			}
			if !rr.fill() && rr.endAtEOF(&f, at) {
				break
			}
		}
		if !f.discard && f.end > rr.maxSize() {
			// Whole in the buffer, as ParseResponses gives it, but too long.
			f.discard, f.preview = true, string(rr.buf[rr.pos:rr.pos+min(f.end, garbagePreview, rr.maxSize())])
			f.msg, f.errAt = fmt.Sprintf("response longer than %d bytes", rr.maxSize()), at
		}
		if f.discard {
			rr.consume(max(f.end, 0))
			return Response{Kind: RespGarbage, Pos: at, End: rr.position(), Text: f.preview, Message: f.msg, errAt: f.errAt}, nil
		}
		text := rr.buf[rr.pos : rr.pos+f.end]
		if f.msg != "" {
			rr.consume(f.end)
			return Response{Kind: RespGarbage, Pos: at, End: rr.position(), Text: string(text), Message: f.msg, errAt: f.errAt}, nil
		}
		r, perr := parseText(at, text, respAuto)
		if perr != nil && f.mode != mList && f.mode != mErr && f.mode != mLine {
			// A bad atom: skip the rest of its line.
			f = span{mode: mLine, msg: perr.Msg, errAt: perr.Pos}
			continue
		}
		rr.consume(f.end)
		if perr != nil {
			return Response{Kind: RespGarbage, Pos: at, End: rr.position(), Text: string(text), Message: perr.Msg, errAt: perr.Pos}, nil
		}
		r.End = rr.position()
		return r, nil
	}
}

func (rr *ResponseReader) maxSize() int {
	if rr.MaxSize <= 0 {
		return DefaultMaxResponseSize
	}
	return min(rr.MaxSize, maxResponseLimit)
}

func (rr *ResponseReader) position() Position {
	return Position{Filename: rr.name, Offset: rr.off, Line: rr.line, Column: rr.off - rr.lineStart + 1}
}

// consume moves past n bytes of the buffer.
func (rr *ResponseReader) consume(n int) {
	b := rr.buf[rr.pos : rr.pos+n]
	if k := bytes.Count(b, []byte{'\n'}); k > 0 {
		rr.line += k
		rr.lineStart = rr.off + bytes.LastIndexByte(b, '\n') + 1
	}
	rr.pos += n
	rr.off += n
}

// fill reads more input into the buffer and reports whether it got any.
func (rr *ResponseReader) fill() bool {
	if rr.err != nil {
		return false
	}
	if rr.pos > 0 {
		n := copy(rr.buf, rr.buf[rr.pos:])
		rr.buf, rr.pos = rr.buf[:n], 0
	}
	if len(rr.buf) == cap(rr.buf) {
		n := max(2*cap(rr.buf), 64<<10)
		if cap(rr.buf) == 0 {
			// Most outputs are a few bytes: a buffer of their size (and
			// room to see the end) where the reader tells it.
			if size := InputSize(rr.r); size >= 0 && size < n-512 {
				n = size + 512
			}
		}
		nb := make([]byte, len(rr.buf), n)
		copy(nb, rr.buf)
		rr.buf = nb
	}
	for range 100 {
		n, err := rr.r.Read(rr.buf[len(rr.buf):cap(rr.buf)])
		rr.buf = rr.buf[:len(rr.buf)+n]
		if err != nil {
			rr.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	rr.err = io.ErrNoProgress
	return false
}

// InputSize is the number of bytes left in r where that is known (a
// regular file, a bytes or strings reader), else -1: what a reader of a
// whole input sizes its buffer by.
func InputSize(r io.Reader) int {
	switch r := r.(type) {
	case interface{ Len() int }:
		return r.Len()
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		off, err := r.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1
		}
		return int(max(fi.Size()-off, 0))
	}
	return -1
}

// skipSpace skips white space and comments between responses. It reports
// whether a response follows.
func (rr *ResponseReader) skipSpace() bool {
	for {
		b := rr.buf[rr.pos:]
		i := 0
		for ; i < len(b); i++ {
			c := b[i]
			if rr.inComment {
				rr.inComment = c != '\n' && c != '\r'
				continue
			}
			if c == ';' {
				rr.inComment = true
				continue
			}
			if class[c]&cSpace == 0 {
				break
			}
		}
		rr.consume(i)
		if i < len(b) {
			return true
		}
		if !rr.fill() {
			return false
		}
	}
}

// Framing finds where a response ends before it is parsed, with a state
// machine over bytes that survives refills of the buffer, so that 1-byte
// reads do not make it quadratic.
const (
	mList   = iota // ( ... ) balanced, literals and comments respected
	mErr           // (error "...") as solvers print it, escapes or not
	mString        // a top-level string literal
	mQuoted        // a top-level |quoted symbol|
	mRun           // a top-level atom: up to a delimiter
	mLine          // garbage: up to the end of the line
)

// Lexical states inside a list or literal.
const (
	lxNormal = iota
	lxString
	lxStringQuote // a '"' inside a string: the end, or the first of ""
	lxQuoted
	lxComment
)

// States of an error message.
const (
	eMsg    = iota
	eQuote  // in a run of '"'
	eSpace  // after the run, before ')'
	eClosed // after ')', before the end of the line
)

type span struct {
	mode  uint8
	st    uint8
	i     int // next byte to scan, relative to the reader's pos
	end   int // where the response ends once scan reports done
	depth int

	// mErr: the quote run's length, whether every earlier run was a ""
	// pair (the message is valid 2.6 so far), and the end if ')' closes it.
	run     int
	odd     bool
	closeAt int

	msg     string // garbage: why
	errAt   Position
	discard bool // over MaxSize: bytes are dropped as they are scanned
	preview string
}

func (rr *ResponseReader) startFrame() span {
	switch rr.buf[rr.pos] {
	case '(':
		for {
			q, more := errorPrefix(rr.buf[rr.pos:])
			if q > 0 {
				return span{mode: mErr, i: q + 1, st: eMsg}
			}
			if !more || !rr.fill() {
				return span{mode: mList, i: 1, depth: 1}
			}
		}
	case ')':
		return span{mode: mLine, msg: "unexpected ')'", errAt: rr.position()}
	case '"':
		return span{mode: mString, i: 1, st: lxString}
	case '|':
		return span{mode: mQuoted, i: 1}
	}
	return span{mode: mRun}
}

// errorPrefix matches `(error "` with spaces allowed around the name, in the
// first bytes of b. It returns the index of the quote, or -1 and whether
// more bytes are needed to decide.
func errorPrefix(b []byte) (q int, more bool) {
	const limit = 64
	i := 1
	for i < len(b) && i < limit && class[b[i]]&cSpace != 0 {
		i++
	}
	for _, c := range []byte("error") {
		if i >= len(b) {
			return -1, i < limit
		}
		if b[i] != c {
			return -1, false
		}
		i++
	}
	name := i
	for i < len(b) && i < limit && class[b[i]]&cSpace != 0 {
		i++
	}
	if i >= len(b) {
		return -1, i < limit
	}
	if i == name || b[i] != '"' {
		return -1, false
	}
	return i, false
}

func isDelimiter(c byte) bool {
	return class[c]&cSpace != 0 || c == '(' || c == ')' || c == '"' || c == '|' || c == ';'
}

// scan advances f over the buffered bytes and reports whether the response
// ends among them; f.end is then its length.
func (rr *ResponseReader) scan(f *span) bool {
	b := rr.buf[rr.pos:]
	for ; f.i < len(b); f.i++ {
		if f.mode == mList && f.st == lxNormal {
			// Skip what cannot change the state: most of a list.
			i := f.i
			for i < len(b) && !listSpecial[b[i]] {
				i++
			}
			if f.i = i; i == len(b) {
				break
			}
		}
		c := b[f.i]
		switch f.mode {
		case mList:
			switch f.st {
			case lxNormal:
				switch c {
				case '(':
					f.depth++
				case ')':
					f.depth--
					if f.depth == 0 {
						f.end = f.i + 1
						return true
					}
				case '"':
					f.st = lxString
				case '|':
					f.st = lxQuoted
				case ';':
					f.st = lxComment
				}
			case lxString:
				if c == '"' {
					f.st = lxStringQuote
				}
			case lxStringQuote:
				if c == '"' {
					f.st = lxString
				} else {
					f.st = lxNormal
					f.i-- // c is outside the string: look at it again
				}
			case lxQuoted:
				if c == '|' {
					f.st = lxNormal
				}
			case lxComment:
				if c == '\n' || c == '\r' {
					f.st = lxNormal
				}
			}
		case mErr:
			if rr.scanErr(f, c) {
				return true
			}
		case mString:
			switch f.st {
			case lxString:
				if c == '"' {
					f.st = lxStringQuote
				}
			case lxStringQuote:
				if c == '"' {
					f.st = lxString
					continue
				}
				if !isDelimiter(c) && !f.discard {
					// "a \"b\"": a string with backslash escapes, as
					// cvc4 echoes. Take the line and judge it whole.
					*f = span{mode: mLine, i: -1}
					continue
				}
				f.end = f.i
				return true
			}
		case mQuoted:
			if c == '|' {
				f.end = f.i + 1
				return true
			}
		case mRun:
			if isDelimiter(c) {
				f.end = f.i
				return true
			}
		case mLine:
			if c == '\n' {
				f.end = trimLine(b, f.i)
				return true
			}
		}
	}
	return false
}

// listSpecial marks the bytes that change the state of a list outside
// literals and comments.
var listSpecial = [256]bool{'(': true, ')': true, '"': true, '|': true, ';': true}

// scanErr advances an error message by one byte. The message ends at a
// '"' followed by ')' and the end of the line; solvers print unescaped
// quotes, \" and "" in messages, so quotes alone cannot tell. A run of an
// even number of quotes in a message that is valid 2.6 so far is a run of
// "" escapes, not the end.
func (rr *ResponseReader) scanErr(f *span, c byte) bool {
	endRun := func() {
		if f.run%2 == 1 {
			f.odd = true
		}
		f.run = 0
	}
	switch f.st {
	case eMsg:
		if c == '"' {
			f.st, f.run = eQuote, 1
		}
	case eQuote:
		switch {
		case c == '"':
			f.run++
		case c == ')':
			f.st, f.closeAt = eClosed, f.i+1
		case c == ' ' || c == '\t' || c == '\r':
			f.st = eSpace
		default:
			endRun()
			f.st = eMsg
		}
	case eSpace:
		switch {
		case c == ')':
			f.st, f.closeAt = eClosed, f.i+1
		case c == ' ' || c == '\t' || c == '\r':
		case c == '"':
			endRun()
			f.st, f.run = eQuote, 1
		default:
			endRun()
			f.st = eMsg
		}
	case eClosed:
		switch {
		case c == '\n':
			if f.odd || f.run%2 == 1 {
				f.end = f.closeAt
				return true
			}
			endRun()
			f.st = eMsg
		case c == ' ' || c == '\t' || c == '\r':
		case c == '"':
			endRun()
			f.st, f.run = eQuote, 1
		default:
			endRun()
			f.st = eMsg
		}
	}
	return false
}

// trimLine returns the length of b[:n] without trailing blanks.
func trimLine(b []byte, n int) int {
	for n > 0 && (b[n-1] == ' ' || b[n-1] == '\t' || b[n-1] == '\r') {
		n--
	}
	return n
}

// drop forgets the bytes scanned so far while an over-long response is
// skipped.
func (rr *ResponseReader) drop(f *span) {
	n := max(f.i, 0)
	rr.consume(n)
	f.i -= n
	f.closeAt -= n
}

// endAtEOF finishes a frame at the end of the input. It reports false when
// the frame fell back to garbage up to the end of the line, which must be
// scanned again.
func (rr *ResponseReader) endAtEOF(f *span, at Position) bool {
	n := len(rr.buf) - rr.pos
	if f.discard {
		f.end = n
		return true
	}
	var msg string
	switch f.mode {
	case mList:
		switch f.st {
		case lxString:
			msg = "string literal not terminated"
		case lxQuoted:
			msg = "quoted symbol not terminated"
		default:
			msg = fmt.Sprintf("missing ')' at the end of the input (%d unclosed)", f.depth)
		}
	case mErr:
		if f.st == eClosed && (f.odd || f.run%2 == 1) {
			f.end = f.closeAt
			return true
		}
		msg = `error message not terminated: missing '")' at the end of a line`
	case mString:
		if f.st == lxStringQuote {
			f.end = n
			return true
		}
		msg = "string literal not terminated"
	case mQuoted:
		msg = "quoted symbol not terminated"
	case mRun:
		f.end = n
		return true
	case mLine:
		f.end = trimLine(rr.buf[rr.pos:], n)
		return true
	}
	if rr.eofBudget == 0 {
		rr.eofBudget = 2*n + eofRescanMin
	}
	if rr.eofWork += n; rr.eofWork > rr.eofBudget {
		*f = span{mode: mLine, msg: msg + "; too many unclosed responses: skipping the rest of the input", errAt: at}
		f.end = trimLine(rr.buf[rr.pos:], n)
		return true
	}
	*f = span{mode: mLine, msg: msg, errAt: at}
	return false
}

// eofRescanMin is the least rescanning allowed after responses fail to end.
const eofRescanMin = 4 << 20

// parseText parses the text of one response that starts at a position of
// the stream, as kind want or, for respAuto, as what its shape says.
func parseText(at Position, text []byte, want ResponseKind) (Response, *Error) {
	r := Response{Pos: at, Text: string(text), Term: NoTerm}
	if len(text) == 0 {
		return r, &Error{Pos: at, Msg: "empty response"}
	}
	if text[0] == '(' {
		if q, _ := errorPrefix(text); q > 0 && (want == respAuto || want == RespError) {
			if msg, ok := errorMessage(text[q+1:]); ok {
				r.Kind, r.Message = RespError, msg
				return r, nil
			}
		}
		return parseList(r, text, want)
	}
	if len(text) <= 11 {
		kind := RespGarbage
		switch string(text) {
		case "success":
			kind = RespSuccess
		case "sat":
			kind = RespSat
		case "unsat":
			kind = RespUnsat
		case "unknown":
			kind = RespUnknown
		case "unsupported":
			kind = RespUnsupported
		}
		if kind != RespGarbage && want != RespSExpr {
			r.Kind = kind
			return r, checkWant(r, want)
		}
	}
	if want != respAuto && want != RespSExpr {
		return r, &Error{Pos: at, Msg: fmt.Sprintf("expected %s, found %s", want, clip(string(text)))}
	}
	p := newRespParser(at, text)
	if p.run(func() { p.sexpr(); p.atEnd() }) {
		r.Kind, r.Script, r.Term = RespSExpr, p.s, Term(p.root())
		return r, nil
	}
	if s, ok := lenientString(text); ok {
		// A whole line in quotes with backslash escapes inside.
		p := newRespParser(at, text)
		p.vals = append(p.vals, slot{ref: tagConst | p.s.internConst([]byte(s)), pos: 1})
		r.Kind, r.Script, r.Term = RespSExpr, p.s, Term(p.root())
		return r, nil
	}
	return r, p.firstError()
}

func checkWant(r Response, want ResponseKind) *Error {
	if want == respAuto || want == r.Kind {
		return nil
	}
	return &Error{Pos: r.Pos, Msg: fmt.Sprintf("expected %s, found %s", want, r.Kind)}
}

// errorMessage decodes the message of (error "msg"), given the text after
// the opening quote, if that text ends with '"' and ')'.
func errorMessage(b []byte) (string, bool) {
	n := len(b)
	if n < 2 || b[n-1] != ')' {
		return "", false
	}
	n--
	for n > 0 && (b[n-1] == ' ' || b[n-1] == '\t' || b[n-1] == '\r') {
		n--
	}
	if n == 0 || b[n-1] != '"' {
		return "", false
	}
	return decodeMessage(b[:n-1]), true
}

// decodeMessage undoes the escapes of a string literal's content: "" as in
// SMT-LIB 2.6 if every quote is doubled, else \" and \\ as in 2.0 if every
// quote is escaped so; otherwise the content has raw quotes (as cvc5 prints
// source lines in messages) and is returned as it is.
func decodeMessage(b []byte) string {
	valid26, validBS := true, true
	for i := 0; i < len(b); i++ {
		if b[i] == '"' {
			if i+1 < len(b) && b[i+1] == '"' {
				i++
				continue
			}
			valid26 = false
			break
		}
	}
	if valid26 {
		return strings.ReplaceAll(string(b), `""`, `"`)
	}
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			validBS = false
		}
	}
	if !validBS {
		return string(b)
	}
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) && (b[i+1] == '"' || b[i+1] == '\\') {
			i++
		}
		out.WriteByte(b[i])
	}
	return out.String()
}

// lenientString reads text that is one line in quotes but not a 2.6 string
// literal, such as cvc4's echo of "a \"b\"", as the 2.6 literal of its
// decoded content.
func lenientString(text []byte) (string, bool) {
	n := len(text)
	if n < 2 || text[0] != '"' || text[n-1] != '"' || bytes.IndexByte(text, '\n') >= 0 {
		return "", false
	}
	return `"` + strings.ReplaceAll(decodeMessage(text[1:n-1]), `"`, `""`) + `"`, true
}

// reescape turns a string literal with \" and \\ escapes into SMT-LIB 2.6.
func reescape(lit []byte) string {
	var b strings.Builder
	b.WriteByte('"')
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		if i+1 < len(body) && (c == '\\' || c == '"') && (body[i+1] == '"' || c == '\\' && body[i+1] == '\\') {
			i++
			c = body[i]
		}
		if c == '"' {
			b.WriteByte('"')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}

func newRespParser(at Position, text []byte) *parser {
	file := NewFile(at.Filename, text)
	file.base = at
	p := &parser{s: newScript(file), mode: AllErrors}
	p.sc.init(text, p.lexError)
	if len(text) > 1<<10 {
		// A model can be large: room for all of it at once, as Parse does.
		parens, atoms := estimate(text)
		p.s.nodes = make([]node, 0, parens+1)
		p.s.slots = make([]slot, 0, parens+atoms+1)
		if n := bytes.Count(text, []byte("(define-fun ")); n > 64 {
			// A model of many definitions has about as many names, and
			// as many values if they are constants: tables of that size
			// at once (bounded, for a model of few large definitions).
			n = min(n, 1<<16)
			p.s.symTab, p.s.constTab = newInternerFor(n), newInternerFor(n)
		}
	}
	p.next()
	return p
}

// run calls f and reports whether it parsed without error: the parser's
// errors end a parse by panicking with bailout.
func (p *parser) run(f func()) (ok bool) {
	n := len(p.errs)
	defer func() {
		if r := recover(); r != nil {
			if _, b := r.(bailout); !b {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return len(p.errs) == n
}

func (p *parser) firstError() *Error {
	if len(p.errs) == 0 {
		return &Error{Pos: p.s.Position(p.tok.pos), Msg: "cannot read the response"}
	}
	return p.errs[0]
}

func (p *parser) atEnd() {
	if p.tok.kind != tokEOF {
		p.fail(p.tok.pos, "unexpected %s after the end of the response", p.tok.describe())
	}
}

// root closes the values pushed so far into a node that holds them, and
// returns the first. A term must live in a node: the last node's children
// run to the end of the arena.
func (p *parser) root() uint32 {
	n := p.close(kindCommand, 0)
	p.s.trim()
	return p.s.nodes[n].start
}

// parseList parses a response in parentheses: as the kind its shape
// suggests, else as an s-expression, and if neither reads, the same again
// with \" escapes in strings.
func parseList(r Response, text []byte, want ResponseKind) (Response, *Error) {
	kinds := []ResponseKind{want}
	if want == respAuto {
		kinds[0] = classify(text)
		if kinds[0] != RespSExpr {
			kinds = append(kinds, RespSExpr)
		}
	}
	var first *Error
	for _, escapes := range []bool{false, true} {
		if escapes && bytes.IndexByte(text, '\\') < 0 {
			break
		}
		for _, k := range kinds {
			out, err := parseListAs(r, text, k, escapes)
			if err == nil {
				return out, nil
			}
			if first == nil {
				first = err
			}
		}
	}
	return r, first
}

// classify guesses the kind of a list from its first tokens.
func classify(text []byte) ResponseKind {
	var sc scanner
	sc.init(text, nil)
	sc.next() // '('
	t := sc.next()
	switch t.kind {
	case tokKeyword:
		return RespInfo
	case tokSymbol:
		switch string(t.text) {
		case "model":
			return RespModel
		case "error":
			return RespError
		}
		return RespUnsatCore
	case tokQuotedSymbol:
		return RespUnsatCore
	case tokLParen:
		if t := sc.next(); t.kind == tokSymbol && isModelElement(t.text) {
			return RespModel
		}
		return RespValues
	}
	return RespSExpr
}

func isModelElement(name []byte) bool {
	switch commandByName(name) {
	case CmdDefineFun, CmdDefineFunRec, CmdDefineFunsRec, CmdDeclareFun, CmdDeclareConst,
		CmdDeclareSort, CmdDefineSort, CmdDeclareDatatype, CmdDeclareDatatypes:
		return true
	}
	return string(name) == "forall"
}

func parseListAs(r Response, text []byte, kind ResponseKind, escapes bool) (Response, *Error) {
	p := newRespParser(r.Pos, text)
	p.sc.escapes = escapes
	var ok bool
	switch kind {
	case RespSExpr:
		ok = p.run(func() { p.sexpr(); p.atEnd() })
		if ok {
			r.Term = Term(p.root())
		}
	case RespValues:
		ok = p.run(func() { p.listOf(p.valuePair) })
		if ok {
			start := p.root()
			n := p.s.Size() - int(start)
			for i := 0; i+1 < n; i += 2 {
				r.Values = append(r.Values, ValuePair{Term(start) + Term(i), Term(start) + Term(i+1)})
			}
		}
	case RespInfo:
		ok = p.run(func() { p.listOf(p.attribute) })
		if ok {
			start := p.root()
			n := p.s.Size() - int(start)
			for i := 0; i+1 < n; i += 2 {
				r.Attrs = append(r.Attrs, Attribute{p.s.Name(Term(start) + Term(i)), Term(start) + Term(i+1)})
			}
		}
	case RespUnsatCore:
		ok = p.run(func() { p.listOf(func() { p.symbol("a symbol (the name of an assertion)") }) })
		if ok {
			start := p.root()
			r.Core = make([]string, 0, p.s.Size()-int(start))
			for t := Term(start); int(t) < p.s.Size(); t++ {
				r.Core = append(r.Core, p.s.Name(t))
			}
		}
	case RespModel:
		ok = p.run(p.model)
		if ok {
			p.s.trim()
			r.Defs = definitions(p.s)
		}
	case RespError:
		ok = p.run(func() {
			p.expect(tokLParen, "'('")
			if p.tok.kind != tokSymbol || string(p.tok.text) != "error" {
				p.unexpected("'error'")
			}
			p.next()
			for p.tok.kind != tokRParen {
				p.sexpr()
			}
			p.next()
			p.atEnd()
		})
		if ok {
			start := p.root()
			var msg []string
			for t := Term(start); int(t) < p.s.Size(); t++ {
				if p.s.Kind(t) == KindString {
					s := p.s.Name(t)
					msg = append(msg, strings.ReplaceAll(s[1:len(s)-1], `""`, `"`))
				} else {
					msg = append(msg, p.s.TermString(t))
				}
			}
			r.Message = strings.Join(msg, " ")
		}
	default:
		return r, &Error{Pos: r.Pos, Msg: fmt.Sprintf("expected %s, found a list", kind)}
	}
	if !ok {
		return r, p.firstError()
	}
	r.Kind, r.Script = kind, p.s
	return r, nil
}

// listOf parses ( item* ) to the end of the text.
func (p *parser) listOf(item func()) {
	p.expect(tokLParen, "'('")
	for p.tok.kind != tokRParen {
		item()
	}
	p.next()
	p.atEnd()
}

// valuePair parses (term value), pushing both.
func (p *parser) valuePair() {
	p.expect(tokLParen, "'(' to start a (term value) pair")
	p.lenientTerm()
	p.lenientTerm()
	p.expectClose()
}

// attribute parses :keyword [value], pushing a KindNone value when there is
// none.
func (p *parser) attribute() {
	p.keyword()
	if p.tok.kind == tokKeyword || p.tok.kind == tokRParen {
		p.pushNone()
		return
	}
	p.sexpr()
}

// lenientTerm parses a term, or if it is not one, an s-expression: models
// and values hold what SMT-LIB 2.6 terms cannot say, such as z3's lambda.
func (p *parser) lenientTerm() {
	switch p.tok.kind {
	case tokNumeral, tokDecimal, tokHex, tokBinary, tokQuotedSymbol:
		// An atom reads alike as a term and as an s-expression (most
		// values of a model): no need to prepare for the second.
		p.term()
		return
	case tokSymbol:
		if !isReserved(p.tok.text) {
			p.term()
			return
		}
	}
	off, tok, peekTok, peeked, depth := p.sc.off, p.tok, p.peekTok, p.peeked, p.depth
	nv, nf, ne, nn, ns := len(p.vals), len(p.frames), len(p.errs), len(p.s.nodes), len(p.s.slots)
	if p.run(p.term) {
		return
	}
	p.sc.off, p.tok, p.peekTok, p.peeked, p.depth = off, tok, peekTok, peeked, depth
	p.vals, p.frames, p.errs = p.vals[:nv], p.frames[:nf], p.errs[:ne]
	p.s.nodes, p.s.slots = p.s.nodes[:nn], p.s.slots[:ns]
	p.sexpr()
}

// model parses ( element* ) or (model element*). Each element becomes a
// command of the script.
func (p *parser) model() {
	p.expect(tokLParen, "'('")
	if p.tok.kind == tokSymbol && string(p.tok.text) == "model" {
		p.next()
	}
	for p.tok.kind != tokRParen {
		p.modelElement()
	}
	p.next()
	p.atEnd()
}

func (p *parser) modelElement() {
	pos := p.tok.pos
	if p.tok.kind != tokLParen {
		p.unexpected("'(' to start a definition")
	}
	name := p.peek()
	var kind CommandKind
	if name.kind == tokSymbol {
		kind = commandByName(name.text)
	}
	switch {
	case kind == CmdInvalid && name.kind == tokSymbol && string(name.text) == "forall":
		kind = CmdAssert
		p.term() // strict: a (forall) s-expression would print as (|forall|)
	case kind == CmdDefineFun || kind == CmdDefineFunRec:
		p.next()
		p.next()
		p.symbol("a function name")
		p.sortedVars(false)
		p.sort()
		p.lenientTerm()
		p.expectClose()
	case kind == CmdDefineFunsRec:
		p.next()
		p.next()
		p.funDecls()
		base, ps := len(p.vals), p.expect(tokLParen, "'(' before the function bodies")
		for p.tok.kind != tokRParen {
			p.lenientTerm()
		}
		p.next()
		p.closeValue(KindList, base, ps)
		p.expectClose()
	case kind != CmdInvalid && isModelElement(name.text):
		p.next()
		p.next()
		p.commandBody(kind)
	default:
		p.next()
		p.fail(name.pos, "expected a definition or declaration in a model, found %s", name.describe())
	}
	n := p.close(kindCommand, 0)
	p.s.nodes[n].cmd = kind
	push(&p.s.cmds, Command{Kind: kind, Pos: pos, node: n})
}

// definitions lists the functions, constants and sorts of a model.
func definitions(s *Script) []Definition {
	defs := make([]Definition, 0, len(s.Commands()))
	params := func(list Term, named bool) []Param {
		var out []Param
		for i := 0; i < s.NumArgs(list); i++ {
			a := s.Arg(list, i)
			if named {
				out = append(out, Param{Name: s.Name(s.Arg(a, 0)), Sort: s.Arg(a, 1)})
			} else {
				out = append(out, Param{Sort: a})
			}
		}
		return out
	}
	for _, c := range s.Commands() {
		d := Definition{Kind: c.Kind, Pos: c.Pos, Sort: NoTerm, Body: NoTerm}
		switch c.Kind {
		case CmdDefineFun, CmdDefineFunRec:
			d.Name = s.Name(s.CmdArg(c, 0))
			d.Params = params(s.CmdArg(c, 1), true)
			d.Sort, d.Body = s.CmdArg(c, 2), s.CmdArg(c, 3)
		case CmdDeclareFun:
			d.Name = s.Name(s.CmdArg(c, 0))
			d.Params = params(s.CmdArg(c, 1), false)
			d.Sort = s.CmdArg(c, 2)
		case CmdDeclareConst:
			d.Name, d.Sort = s.Name(s.CmdArg(c, 0)), s.CmdArg(c, 1)
		case CmdDeclareSort:
			d.Name = s.Name(s.CmdArg(c, 0))
		case CmdDefineFunsRec:
			decls, bodies := s.CmdArg(c, 0), s.CmdArg(c, 1)
			for i := 0; i < s.NumArgs(decls) && i < s.NumArgs(bodies); i++ {
				decl := s.Arg(decls, i)
				defs = append(defs, Definition{Kind: c.Kind, Pos: c.Pos, Name: s.Name(s.Arg(decl, 0)),
					Params: params(s.Arg(decl, 1), true), Sort: s.Arg(decl, 2), Body: s.Arg(bodies, i)})
			}
			continue
		default:
			continue
		}
		defs = append(defs, d)
	}
	return defs
}
