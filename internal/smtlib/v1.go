package smtlib

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// SMT-LIB 1.2 benchmarks, as SMT-COMP 2005-2007 used them, translated to
// SMT-LIB 2.6 scripts.
//
// What the translation rests on, since 1.2 is no longer maintained:
//
//   - The SMT-LIB Standard, Version 1.2 (Ranise and Tinelli, 2006): the
//     benchmark, formula and term grammar. A benchmark is
//     (benchmark name attr*) with :logic, :status, :extrasorts, :extrafuns,
//     :extrapreds, :assumption, :formula, :notes and free annotations
//     :k {user value}; formulas use not implies and or xor iff if_then_else,
//     let (?x t), flet ($p F), forall/exists (?x S)+; terms use ite.
//   - Lexical details as the 1.2 front end of Yices 2 reads them
//     (doc/SMT-LIB-LANGUAGE, src/frontend/smt1/smt_lexer.c): user values
//     {...} escape braces as \{ and \}; strings escape \"; bvN[m], bvbinB
//     and bvhexH are bit-vector constants; rationals are d.d or d/d.
//   - The theories behind each 1.2 logic, as CVC4's 1.2 front end sets them
//     up (src/parser/smt1/smt1.cpp) and as the 1.2 theory files declare them:
//     QF_UF uses theory Empty, which declares the sort U; QF_AX uses ArraysEx,
//     which declares the sorts Index and Element and Array = Index -> Element;
//     QF_AUFLIA and AUFLIA use Int_ArraysEx, where Array = Int -> Int;
//     AUFLIRA and AUFNIRA use Int_Int_Real_Array_ArraysEx, whose sorts are
//     Int Real Array1 Array2 with select Array1 Int Real and
//     select Array2 Int Array1, so Array1 = Int -> Real and
//     Array2 = Int -> Array1; QF_AUFBV uses BitVector_ArraysEx, where
//     Array[m:n] has BitVec[m] indices and BitVec[n] elements.
//   - In the 1.2 Ints theory ~ is unary minus and - binary minus; in Reals
//     numerals are reals, as in 2.6 Reals, and in the mixed theory numerals
//     are integers and reals end in .0, as in 2.6 Reals_Ints.
//
// The translation is syntactic: it checks the 1.2 grammar and the arity of
// the logical connectives, not sorts, so a benchmark that is ill-sorted in
// 1.2 comes out ill-sorted in 2.6. Like the 2.6 parser it uses explicit
// stacks, never recursion, so nesting depth is bounded only by memory.

// ConvertV1 translates an SMT-LIB 1.2 benchmark to an SMT-LIB 2.6 script:
// set-info :smt-lib-version, set-logic, set-info :source, :notes, :status and
// :category, declarations, one assert per :assumption and :formula in input
// order, check-sat and exit. The output parses with Parse. On error it
// returns an ErrorList whose entry says where, as file:line:col.
func ConvertV1(filename string, src []byte) ([]byte, error) {
	if len(src) > maxFileSize {
		return nil, ErrorList{{Pos: Position{Filename: filename}, Msg: fmt.Sprintf("file is larger than %d bytes", maxFileSize)}}
	}
	p := &v1parser{src: src, file: NewFile(filename, src), in: newInterner()}
	parens, atoms := estimate(src)
	p.nodes = make([]v1Node, 0, parens+atoms+1)
	p.kids = make([]uint32, 0, parens+atoms+1)
	if err := p.parse(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Grow(len(src) + len(src)/4 + 256)
	w := bufio.NewWriterSize(&out, 64<<10)
	vw := newV1Writer(p)
	if err := p.checkHeads(vw); err != nil {
		return nil, err
	}
	vw.script(w)
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// v1Kind is the lexical class of a 1.2 token.
type v1Kind uint8

const (
	v1EOF v1Kind = iota
	v1LParen
	v1RParen
	v1LBrace    // '{' that opens the terms of a :pat; only produced on request
	v1RBrace    // '}' that closes them
	v1Symbol    // identifier, with its indices if any: f, extract[7:0]
	v1Var       // ?x
	v1FVar      // $p
	v1Numeral   // 42
	v1Decimal   // 4.2
	v1Rational  // 3/4
	v1Keyword   // :name
	v1String    // "...", as written
	v1UserValue // {...}, as written
)

type v1Token struct {
	kind v1Kind
	pos  Pos
	text []byte
}

func (t v1Token) describe() string {
	switch t.kind {
	case v1EOF:
		return "end of file"
	case v1LParen:
		return "'('"
	case v1RParen:
		return "')'"
	case v1LBrace:
		return "'{'"
	case v1RBrace:
		return "'}'"
	}
	return "'" + clip(string(t.text)) + "'"
}

// v1Sym marks the bytes that may occur in a 1.2 symbol, variable or keyword
// name: everything printable but white space and the delimiters Yices uses,
// so that arithmetic symbols (<=, ~) and names with ' or . read as symbols.
var v1Sym = func() (t [256]bool) {
	for c := 0x21; c < 0x100; c++ {
		t[c] = c != 0x7f && strings.IndexByte("()[]{};:\"?$\\,", byte(c)) < 0
	}
	return
}()

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// v1Node is a node of the translated tree. Identifiers, names and sorts are
// kept in their 1.2 spelling and translated when written, because a
// declaration may follow a use and decides how the name is written. Nodes
// hold no pointers, so that the collector never scans the tree.
type v1Node struct {
	kind  v1NodeKind
	pos   Pos    // nApp: its opening parenthesis
	nv    int32  // nQuant: number of bound variables
	sym   uint32 // interned text. nLeaf: 2.6 text; nIdent, nName, nSort, nApp: 1.2 name; nLet: variable; nQuant: forall/exists
	first uint32 // children are kids[first : first+n]
	n     uint32
}

type v1NodeKind uint8

const (
	nLeaf  v1NodeKind = iota // a constant, already in 2.6 form
	nIdent                   // a function or predicate symbol, constant or connective
	nName                    // a variable ?x or $p
	nSort                    // a sort
	nApp                     // (f args...)
	nLet                     // (let ((v value)) body): kids value, body
	nQuant                   // kids v1 s1 ... vn sn body pattern*
	nList                    // the terms of one pattern
)

type v1FrameKind uint8

const (
	frApp   v1FrameKind = iota // after each argument
	frLet                      // phase 0: after the bound value; 1: after the body
	frQuant                    // phase 0: after the body; 1: after a pattern
	frPat                      // after each term of a :pat
)

type v1Frame struct {
	kind  v1FrameKind
	phase uint8
	nv    int32
	sym   uint32 // interned head of an application, variable of a let, quantifier
	pos   Pos
	base  int
}

type v1DeclKind uint8

const (
	declSort v1DeclKind = iota
	declFun
	declPred
)

type v1Decl struct {
	kind  v1DeclKind
	name  string
	sorts []string // arguments, then the result for a function
}

type v1parser struct {
	src  []byte
	file *File
	off  int
	tok  v1Token
	errs ErrorList

	in     *interner // interned texts, among them every name in use
	texts  []string  // in.names
	nodes  []v1Node
	kids   []uint32
	vals   []uint32
	frames []v1Frame

	logic, status, source, notes, category string
	decls                                  []v1Decl
	asserts                                []uint32
}

func (p *v1parser) parse() (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			err = p.errs
		}
	}()
	p.benchmark()
	return nil
}

func (p *v1parser) fail(pos Pos, format string, args ...any) {
	p.errs.Add(p.file.Position(pos), fmt.Sprintf(format, args...))
	panic(bailout{})
}

func (p *v1parser) failAt(off int, format string, args ...any) {
	p.fail(Pos(off+1), format, args...)
}

func (p *v1parser) unexpected(what string) {
	p.fail(p.tok.pos, "expected %s, found %s", what, p.tok.describe())
}

func (p *v1parser) expect(k v1Kind, what string) {
	if p.tok.kind != k {
		p.unexpected(what)
	}
	p.next()
}

func (p *v1parser) intern(b []byte) uint32 {
	i := p.in.intern(b)
	p.texts = p.in.names
	return i
}

func (p *v1parser) str(b []byte) string { return p.texts[p.intern(b)] }

// skipSpace skips white space and comments.
func (p *v1parser) skipSpace() {
	src, off := p.src, p.off
	for off < len(src) {
		switch c := src[off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			off++
		case c == ';':
			for off < len(src) && src[off] != '\n' {
				off++
			}
		default:
			p.off = off
			return
		}
	}
	p.off = off
}

// run returns the end of the run of symbol bytes that starts at off.
func (p *v1parser) run(off int) int {
	for off < len(p.src) && v1Sym[p.src[off]] {
		off++
	}
	return off
}

// next reads the next token into p.tok.
func (p *v1parser) next() {
	p.skipSpace()
	src, start := p.src, p.off
	pos := Pos(start + 1)
	if start >= len(src) {
		p.tok = v1Token{kind: v1EOF, pos: pos}
		return
	}
	tok := func(k v1Kind, end int) {
		p.off = end
		p.tok = v1Token{kind: k, pos: pos, text: src[start:end]}
	}
	switch c := src[start]; c {
	case '(':
		tok(v1LParen, start+1)
	case ')':
		tok(v1RParen, start+1)
	case '}':
		tok(v1RBrace, start+1)
	case '"':
		off := start + 1
		for off < len(src) && src[off] != '"' {
			if src[off] == '\\' {
				off++
			}
			off++
		}
		if off >= len(src) {
			p.failAt(start, "string not terminated: missing '\"'")
		}
		tok(v1String, off+1)
	case '{':
		depth := 1
		off := start + 1
		for ; off < len(src) && depth > 0; off++ {
			switch src[off] {
			case '\\':
				off++
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		if depth > 0 {
			p.failAt(start, "user value not terminated: missing '}'")
		}
		tok(v1UserValue, off)
	case ':', '?', '$':
		end := p.run(start + 1)
		if end == start+1 {
			switch c {
			case ':':
				p.failAt(start, "expected an attribute name after ':'")
			case '?':
				p.failAt(start, "expected a variable name after '?'")
			}
			p.failAt(start, "expected a formula variable name after '$'")
		}
		kind := v1Keyword
		if c == '?' {
			kind = v1Var
		} else if c == '$' {
			kind = v1FVar
		}
		tok(kind, end)
	default:
		if !v1Sym[c] {
			p.failAt(start, "unexpected character %q", rune(c))
		}
		end := p.run(start)
		if isDigit(c) {
			if k, ok := numberKind(src[start:end]); ok {
				tok(k, end)
				return
			}
		}
		if end < len(src) && src[end] == '[' {
			end = p.indices(start, end)
		}
		tok(v1Symbol, end)
	}
}

// numberKind classifies digits, digits.digits and digits/digits.
func numberKind(b []byte) (v1Kind, bool) {
	i := 0
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	if i == len(b) {
		return v1Numeral, true
	}
	kind := v1Decimal
	if b[i] == '/' {
		kind = v1Rational
	} else if b[i] != '.' {
		return 0, false
	}
	j := i + 1
	for j < len(b) && isDigit(b[j]) {
		j++
	}
	return kind, j == len(b) && j > i+1
}

// indices reads [n(:n)*] after a symbol that ends at off.
func (p *v1parser) indices(start, off int) int {
	src := p.src
	off++ // '['
	for {
		d := off
		for off < len(src) && isDigit(src[off]) {
			off++
		}
		if off == d {
			p.failAt(off, "expected a numeral in the indices of %q", clip(string(src[start:off])))
		}
		if off < len(src) && src[off] == ':' {
			off++
			continue
		}
		if off < len(src) && src[off] == ']' {
			return off + 1
		}
		p.failAt(off, "expected ':' or ']' in the indices of %q", clip(string(src[start:off])))
	}
}

// openBrace is called with the keyword :pat as the current token. If a '{'
// follows, it reads it as v1LBrace, so that the pattern's terms are read as
// tokens instead of as one user value, and reports true.
func (p *v1parser) openBrace() bool {
	p.skipSpace()
	if p.off >= len(p.src) || p.src[p.off] != '{' {
		return false
	}
	p.off++
	p.next()
	return true
}

// peekVar reports whether the token after the current one is a variable,
// which tells a sorted variable (?x S) from a body that starts with '('.
func (p *v1parser) peekVar() bool {
	off, tok := p.off, p.tok
	p.next()
	ok := p.tok.kind == v1Var
	p.off, p.tok = off, tok
	return ok
}

// benchmark reads the whole input.
func (p *v1parser) benchmark() {
	p.next()
	p.expect(v1LParen, "'(benchmark' to start an SMT-LIB 1.2 benchmark")
	if p.tok.kind != v1Symbol || string(p.tok.text) != "benchmark" {
		p.unexpected("'benchmark'")
	}
	start := p.tok.pos
	p.next()
	switch p.tok.kind {
	case v1Symbol, v1Numeral, v1Decimal, v1Rational:
		p.next()
	default:
		p.unexpected("the benchmark's name")
	}
	formulas := 0
	for p.tok.kind == v1Keyword {
		kw, pos := string(p.tok.text), p.tok.pos
		p.next()
		switch kw {
		case ":logic":
			if p.logic != "" {
				p.fail(pos, "second :logic; a benchmark has one")
			}
			if p.tok.kind != v1Symbol {
				p.unexpected("a logic name")
			}
			name, _ := splitIndex(string(p.tok.text)) // QF_UFBV[32] is QF_UFBV
			if strings.ContainsAny(name, "|\\") {
				p.fail(p.tok.pos, "logic name %q cannot be written in SMT-LIB 2.6", clip(name))
			}
			p.logic = name
			p.next()
		case ":status":
			if p.status != "" {
				p.fail(pos, "second :status; a benchmark has one")
			}
			switch s := string(p.tok.text); {
			case p.tok.kind == v1Symbol && (s == "sat" || s == "unsat" || s == "unknown"):
				p.status = s
			default:
				p.unexpected("sat, unsat or unknown")
			}
			p.next()
		case ":extrasorts":
			p.expect(v1LParen, "'(' before the sorts")
			for p.tok.kind == v1Symbol {
				p.decls = append(p.decls, v1Decl{kind: declSort, name: p.str(p.tok.text)})
				p.next()
			}
			p.expect(v1RParen, "a sort name or ')'")
		case ":extrafuns", ":extrapreds":
			p.expect(v1LParen, "'(' before the declarations")
			for p.tok.kind == v1LParen {
				p.decl(kw == ":extrapreds")
			}
			p.expect(v1RParen, "'(' to start a declaration, or ')'")
		case ":assumption", ":formula":
			if kw == ":formula" {
				formulas++
			}
			p.asserts = append(p.asserts, p.formula())
		case ":notes":
			p.notes = p.attrText()
		case ":source":
			p.source = p.attrText()
		case ":category":
			p.category = p.attrText()
		default:
			p.attrText()
		}
	}
	p.expect(v1RParen, "a benchmark attribute or ')'")
	if p.tok.kind != v1EOF {
		p.fail(p.tok.pos, "expected end of file after the benchmark, found %s", p.tok.describe())
	}
	if p.logic == "" {
		p.fail(start, "the benchmark has no :logic")
	}
	if formulas == 0 {
		p.fail(start, "the benchmark has no :formula")
	}
}

// attrText reads the value of a benchmark attribute, if it has one, and
// returns its text: a user value without braces and escapes, a string
// without quotes and escapes, or an atom as written.
func (p *v1parser) attrText() string {
	t := p.tok
	switch t.kind {
	case v1UserValue:
		p.next()
		return unescape(t.text[1:len(t.text)-1], "{}")
	case v1String:
		p.next()
		return unescape(t.text[1:len(t.text)-1], "\"\\")
	case v1Symbol, v1Numeral, v1Decimal, v1Rational:
		p.next()
		return string(t.text)
	}
	return ""
}

// unescape drops the backslash before the characters in esc.
func unescape(b []byte, esc string) string {
	var s strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) && strings.IndexByte(esc, b[i+1]) >= 0 {
			i++
		}
		s.WriteByte(b[i])
	}
	return s.String()
}

// decl reads (f S+ annotation*) or (p S* annotation*).
func (p *v1parser) decl(pred bool) {
	p.next()
	d := v1Decl{kind: declFun}
	if pred {
		d.kind = declPred
	}
	skip := false
	switch k := p.tok.kind; {
	case k == v1Symbol:
		d.name = p.str(p.tok.text)
	case !pred && (k == v1Numeral || k == v1Decimal || k == v1Rational):
		// (0 Int): a numeral declared as a constant, which 2.6 theories have.
		skip = true
	case pred:
		p.unexpected("a predicate symbol")
	default:
		p.unexpected("a function symbol")
	}
	p.next()
	for p.tok.kind == v1Symbol {
		d.sorts = append(d.sorts, p.str(p.tok.text))
		p.next()
	}
	if !pred && len(d.sorts) == 0 {
		p.unexpected("a sort")
	}
	p.annotations()
	p.expect(v1RParen, "a sort, an annotation or ')'")
	if !skip {
		p.decls = append(p.decls, d)
	}
}

// annotations skips :k and :k {value} annotations.
func (p *v1parser) annotations() {
	for p.tok.kind == v1Keyword {
		p.next()
		if p.tok.kind == v1UserValue {
			p.next()
		}
	}
}

// v1Arity gives the number of arguments a 1.2 connective or built-in operator
// takes (max < 0: no limit); other symbols take any number.
func v1Arity(head string) (min, max int, ok bool) {
	switch head {
	case "not", "~":
		return 1, 1, true
	case "implies", "iff":
		return 2, 2, true
	case "if_then_else", "ite":
		return 3, 3, true
	case "and", "or", "xor":
		return 1, -1, true
	case "=", "distinct":
		return 2, -1, true
	}
	return 0, 0, false
}

func (p *v1parser) push(n uint32) { p.vals = append(p.vals, n) }

func (p *v1parser) leaf(kind v1NodeKind, sym uint32) {
	p.nodes = append(p.nodes, v1Node{kind: kind, sym: sym})
	p.push(uint32(len(p.nodes) - 1))
}

// build makes a node of the values from base on and pushes it in their place.
func (p *v1parser) build(kind v1NodeKind, sym uint32, base int, nv int32) {
	first := uint32(len(p.kids))
	p.kids = append(p.kids, p.vals[base:]...)
	p.nodes = append(p.nodes, v1Node{kind: kind, nv: nv, sym: sym, first: first, n: uint32(len(p.vals) - base)})
	p.vals = p.vals[:base]
	p.push(uint32(len(p.nodes) - 1))
}

// atom pushes a symbol, variable or number token as a leaf.
func (p *v1parser) atom(t v1Token) {
	switch t.kind {
	case v1Symbol:
		p.leaf(nIdent, p.intern(t.text))
	case v1Var, v1FVar:
		p.leaf(nName, p.intern(t.text))
	case v1Numeral, v1Decimal:
		p.leaf(nLeaf, p.intern(trimZeros(t.text)))
	case v1Rational:
		// d/n: a 2.6 division of decimals, which is a real in Reals and Reals_Ints.
		i := bytes.IndexByte(t.text, '/')
		num, den := trimZeros(t.text[:i]), trimZeros(t.text[i+1:])
		if string(den) == "0" {
			p.fail(t.pos, "rational %q divides by zero", clip(string(t.text)))
		}
		p.leaf(nLeaf, p.intern([]byte("(/ "+string(num)+".0 "+string(den)+".0)")))
	}
}

// trimZeros drops leading zeros, which 2.6 numerals may not have.
func trimZeros(b []byte) []byte {
	for len(b) > 1 && b[0] == '0' && isDigit(b[1]) {
		b = b[1:]
	}
	return b
}

// formula reads one formula or term and returns its node.
func (p *v1parser) formula() uint32 {
	floor := len(p.frames)
	for {
		if p.begin() && p.settle(floor) {
			break
		}
	}
	n := p.vals[len(p.vals)-1]
	p.vals = p.vals[:len(p.vals)-1]
	return n
}

// begin starts a formula or term at the current token. It either pushes a
// complete node and reports true, or opens a frame, leaves the current token
// at the frame's first sub-formula and reports false.
func (p *v1parser) begin() bool {
	t := p.tok
	switch t.kind {
	case v1Symbol, v1Var, v1FVar, v1Numeral, v1Decimal, v1Rational:
		p.next()
		p.atom(t)
		return true
	case v1LParen:
	default:
		p.unexpected("a formula or term")
	}
	pos := t.pos
	p.next()
	h := p.tok
	switch h.kind {
	case v1Symbol:
	case v1Var, v1FVar, v1Numeral, v1Decimal, v1Rational:
		// (?x :attr): an annotated atom
		p.next()
		p.annotations()
		p.expect(v1RParen, "an annotation or ')'")
		p.atom(h)
		return true
	default:
		p.unexpected("a function, predicate or connective")
	}
	switch string(h.text) {
	case "let", "flet":
		p.next()
		p.expect(v1LParen, "'(' before the bound variable")
		if string(h.text) == "let" && p.tok.kind != v1Var {
			p.unexpected("a term variable such as ?x")
		}
		if string(h.text) == "flet" && p.tok.kind != v1FVar {
			p.unexpected("a formula variable such as $p")
		}
		name := p.intern(p.tok.text)
		p.next()
		p.frames = append(p.frames, v1Frame{kind: frLet, sym: name, pos: pos, base: len(p.vals)})
		return false
	case "forall", "exists":
		p.next()
		base := len(p.vals)
		nv := int32(0)
		for p.tok.kind == v1LParen && (nv == 0 || p.peekVar()) {
			p.next()
			if p.tok.kind != v1Var {
				p.unexpected("a variable such as ?x")
			}
			p.atom(p.tok)
			p.next()
			if p.tok.kind != v1Symbol {
				p.unexpected("a sort")
			}
			p.leaf(nSort, p.intern(p.tok.text))
			p.next()
			p.expect(v1RParen, "')' after the sort")
			nv++
		}
		if nv == 0 {
			p.unexpected("a sorted variable such as (?x Int)")
		}
		p.frames = append(p.frames, v1Frame{kind: frQuant, sym: p.intern(h.text), nv: nv, pos: pos, base: base})
		return false
	}
	p.next()
	if p.tok.kind == v1RParen || p.tok.kind == v1Keyword {
		// (p) or (p :attr): an atom in parentheses
		if min, _, ok := v1Arity(string(h.text)); ok && min > 0 {
			p.fail(h.pos, "'%s' needs at least %d argument%s", h.text, min, pluralS(min))
		}
		p.annotations()
		p.expect(v1RParen, "an annotation or ')'")
		p.atom(h)
		return true
	}
	p.frames = append(p.frames, v1Frame{kind: frApp, sym: p.intern(h.text), pos: pos, base: len(p.vals)})
	return false
}

// checkHeads rejects applied constants such as (bit0 x), which have no 2.6
// form; whether bit0 is a constant depends on the declarations, so this runs
// after the whole benchmark is read.
func (p *v1parser) checkHeads(w *v1Writer) error {
	for i := range p.nodes {
		if n := &p.nodes[i]; n.kind == nApp && strings.HasPrefix(w.identOf(n.sym), "#") {
			p.errs.Add(p.file.Position(n.pos), fmt.Sprintf("constant '%s' cannot be applied to arguments", clip(p.texts[n.sym])))
			return p.errs
		}
	}
	return nil
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// settle hands a completed node to the open frames, closing each one the
// current token ends. It reports true when the frames are back at floor,
// and false when the top frame needs another sub-formula.
func (p *v1parser) settle(floor int) bool {
	for len(p.frames) > floor {
		f := &p.frames[len(p.frames)-1]
		switch f.kind {
		case frApp:
			if p.tok.kind == v1Keyword {
				p.annotations()
				if p.tok.kind != v1RParen {
					p.unexpected("an annotation or ')'")
				}
			}
			if p.tok.kind != v1RParen {
				return false
			}
			n := len(p.vals) - f.base
			head := p.texts[f.sym]
			if min, max, ok := v1Arity(head); ok && (n < min || max >= 0 && n > max) {
				want := strconv.Itoa(min) + " argument" + pluralS(min)
				if max < 0 {
					want = "at least " + want
				}
				p.fail(f.pos, "'%s' takes %s, found %d", head, want, n)
			}
			p.next()
			sym, base, pos := f.sym, f.base, f.pos
			p.frames = p.frames[:len(p.frames)-1]
			if n == 1 && (head == "and" || head == "or" || head == "xor") {
				continue // the argument stands for itself, as 2.6 wants two or more
			}
			p.build(nApp, sym, base, 0)
			p.nodes[len(p.nodes)-1].pos = pos
		case frLet:
			if f.phase == 0 {
				p.expect(v1RParen, "')' after the bound value")
				f.phase = 1
				return false
			}
			p.annotations()
			p.expect(v1RParen, "an annotation or ')'")
			sym, base := f.sym, f.base
			p.frames = p.frames[:len(p.frames)-1]
			p.build(nLet, sym, base, 0)
		case frQuant:
			f.phase = 1
			for p.tok.kind == v1Keyword {
				if string(p.tok.text) == ":pat" && p.openBrace() {
					if p.tok.kind == v1RBrace {
						p.next() // :pat {}: nothing to translate
						continue
					}
					p.frames = append(p.frames, v1Frame{kind: frPat, base: len(p.vals)})
					return false
				}
				p.next() // other annotations, :nopat among them, have no 2.6 form
				if p.tok.kind == v1UserValue {
					p.next()
				}
			}
			p.expect(v1RParen, "an annotation or ')'")
			sym, nv, base := f.sym, f.nv, f.base
			p.frames = p.frames[:len(p.frames)-1]
			p.build(nQuant, sym, base, nv)
		case frPat:
			switch p.tok.kind {
			case v1RBrace:
			case v1RParen, v1EOF:
				p.unexpected("a term or '}' to end the pattern")
			default:
				return false
			}
			p.next()
			base := f.base
			p.frames = p.frames[:len(p.frames)-1]
			p.build(nList, 0, base, 0)
		}
	}
	return true
}

// splitIndex splits f[1:2] into f and its indices, without leading zeros.
func splitIndex(s string) (name string, idx []string) {
	i := strings.IndexByte(s, '[')
	if i < 0 || !strings.HasSuffix(s, "]") {
		return s, nil
	}
	for _, x := range strings.Split(s[i+1:len(s)-1], ":") {
		idx = append(idx, string(trimZeros([]byte(x))))
	}
	return s[:i], idx
}

// Names a 2.6 script may not declare again: the symbols of Core, Ints,
// Reals, Reals_Ints, ArraysEx and FixedSizeBitVectors. A 1.2 benchmark that
// declares one of them gets a fresh name for it instead.
var (
	v2Funs = toSet(`true false not => and or xor = distinct ite - + * / div mod abs <= < >= > to_real
		to_int is_int select store concat extract bvnot bvand bvor bvneg bvadd bvmul bvudiv bvurem bvshl
		bvlshr bvult bvnand bvnor bvxor bvxnor bvcomp bvsub bvsdiv bvsrem bvsmod bvashr repeat zero_extend
		sign_extend rotate_left rotate_right bvule bvugt bvuge bvslt bvsle bvsgt bvsge`)
	v2Sorts = toSet("Bool Int Real Array BitVec")
)

func toSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// v1Ops are the 1.2 symbols spelled differently in 2.6. The bvlt family
// is the 2005 bit-vector theory's spelling of bvult and its kin.
var v1Ops = map[string]string{
	"~": "-", "implies": "=>", "iff": "=", "if_then_else": "ite", "bit0": "#b0", "bit1": "#b1",
	"bvlt": "bvult", "bvleq": "bvule", "bvgt": "bvugt", "bvgeq": "bvuge", "bvsleq": "bvsle", "bvsgeq": "bvsge",
}

// v1Writer writes the parsed benchmark as a 2.6 script.
type v1Writer struct {
	p       *v1parser
	fresher map[string]bool   // names made by fresh
	funOut  map[string]string // 1.2 identifier or variable -> 2.6 text
	sortOut map[string]string // 1.2 sort -> 2.6 text
	byID    []string          // the translation of each interned text, by node kind
}

func newV1Writer(p *v1parser) *v1Writer {
	w := &v1Writer{p: p, fresher: map[string]bool{}, funOut: map[string]string{}, sortOut: map[string]string{}}
	w.byID = make([]string, 2*len(p.texts))
	for _, d := range p.decls {
		out, clash := w.funOut, v2Funs
		if d.kind == declSort {
			out, clash = w.sortOut, v2Sorts
		}
		if _, ok := out[d.name]; ok {
			continue
		}
		if clash[d.name] || strings.ContainsAny(d.name, "|\\") {
			out[d.name] = w.fresh(d.name)
		} else {
			out[d.name] = QuoteSymbol(d.name)
		}
	}
	return w
}

// fresh returns a symbol that occurs nowhere in the benchmark.
func (w *v1Writer) fresh(name string) string {
	base := strings.Map(func(r rune) rune {
		if r == '|' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	for i := 1; ; i++ {
		s := base + "_" + strconv.Itoa(i)
		if !w.p.in.has(s) && !w.fresher[s] && !v2Funs[s] && !v2Sorts[s] {
			w.fresher[s] = true
			return QuoteSymbol(s)
		}
	}
}

// identOf, nameOf and sortOf are ident, name and sort of an interned text,
// cached by its index: the writer's inner loop.
func (w *v1Writer) identOf(id uint32) string {
	if s := w.byID[2*id]; s != "" {
		return s
	}
	s := w.ident(w.p.texts[id])
	w.byID[2*id] = s
	return s
}

// nameOf shares identOf: the text of a variable (?x, $p) meets none of
// ident's special cases, so ident(v) is name(v).
func (w *v1Writer) nameOf(id uint32) string { return w.identOf(id) }

func (w *v1Writer) sortOf(id uint32) string {
	if s := w.byID[2*id+1]; s != "" {
		return s
	}
	s := w.sort(w.p.texts[id])
	w.byID[2*id+1] = s
	return s
}

// name writes a symbol the benchmark did not declare: a variable or an
// undeclared identifier, quoted where 2.6 needs it.
func (w *v1Writer) name(s string) string {
	if out, ok := w.funOut[s]; ok {
		return out
	}
	out := QuoteSymbol(s)
	if strings.ContainsAny(s, "|\\") {
		out = w.fresh(s)
	}
	w.funOut[s] = out
	return out
}

// ident translates a function symbol, constant or connective.
func (w *v1Writer) ident(s string) string {
	if out, ok := w.funOut[s]; ok {
		return out
	}
	var out string
	name, idx := splitIndex(s)
	switch {
	case idx != nil && strings.ContainsAny(name, "|\\"):
		out = w.fresh(s)
	case idx != nil:
		// bv5[32], extract[7:0], zero_extend[8], ...: an indexed identifier.
		if len(name) > 2 && strings.HasPrefix(name, "bv") && strings.Trim(name[2:], "0123456789") == "" {
			name = "bv" + string(trimZeros([]byte(name[2:]))) // 2.6 numerals have no leading zeros
		}
		out = "(_ " + QuoteSymbol(name) + " " + strings.Join(idx, " ") + ")"
	case v1Ops[s] != "":
		out = v1Ops[s]
	case len(s) > 5 && strings.HasPrefix(s, "bvbin") && strings.Trim(s[5:], "01") == "":
		out = "#b" + s[5:]
	case len(s) > 5 && strings.HasPrefix(s, "bvhex") && strings.Trim(s[5:], "0123456789abcdefABCDEF") == "":
		out = "#x" + s[5:]
	default:
		return w.name(s)
	}
	w.funOut[s] = out
	return out
}

// sort translates a sort; see the theories at the top of this file.
func (w *v1Writer) sort(s string) string {
	if out, ok := w.sortOut[s]; ok {
		return out
	}
	var out string
	name, idx := splitIndex(s)
	switch {
	case s == "Array" && w.p.logic == "QF_AX":
		out = "(Array Index Element)"
	case s == "Array":
		out = "(Array Int Int)"
	case s == "Array1":
		out = "(Array Int Real)"
	case s == "Array2":
		out = "(Array Int (Array Int Real))"
	case name == "BitVec" && len(idx) == 1:
		out = "(_ BitVec " + idx[0] + ")"
	case name == "Array" && len(idx) == 2:
		out = "(Array (_ BitVec " + idx[0] + ") (_ BitVec " + idx[1] + "))"
	case idx != nil:
		out = "(_ " + QuoteSymbol(name) + " " + strings.Join(idx, " ") + ")"
		if strings.ContainsAny(name, "|\\") {
			out = w.fresh(s)
		}
	default:
		out = QuoteSymbol(s)
		if strings.ContainsAny(s, "|\\") {
			out = w.fresh(s)
		}
	}
	w.sortOut[s] = out
	return out
}

// quotedText makes free text a 2.6 quoted symbol, which cannot hold '|' or
// '\': both become '/'.
func quotedText(s string) string {
	return "|" + strings.Map(func(r rune) rune {
		if r == '|' || r == '\\' {
			return '/'
		}
		return r
	}, strings.TrimSpace(s)) + "|"
}

func (w *v1Writer) script(b *bufio.Writer) {
	p := w.p
	b.WriteString("(set-info :smt-lib-version 2.6)\n")
	b.WriteString("(set-logic " + QuoteSymbol(p.logic) + ")\n")
	if s := strings.TrimSpace(p.source); s != "" {
		b.WriteString("(set-info :source " + quotedText(s) + ")\n")
	}
	if s := strings.TrimSpace(p.notes); s != "" {
		b.WriteString("(set-info :notes " + quotedText(s) + ")\n")
	}
	status := p.status
	if status == "" {
		status = "unknown"
	}
	b.WriteString("(set-info :status " + status + ")\n")
	if s := strings.TrimSpace(p.category); s != "" {
		b.WriteString("(set-info :category \"" + strings.ReplaceAll(s, `"`, `""`) + "\")\n")
	}
	// The sorts the logic's 1.2 theory declares but 2.6 does not.
	var theory []string
	switch p.logic {
	case "QF_UF", "UF":
		theory = []string{"U"}
	case "QF_AX":
		theory = []string{"Index", "Element"}
	}
	for _, s := range theory {
		if _, ok := w.sortOut[s]; !ok {
			b.WriteString("(declare-sort " + w.sort(s) + " 0)\n")
		}
	}
	for _, d := range p.decls {
		if d.kind == declSort {
			b.WriteString("(declare-sort " + w.sortOut[d.name] + " 0)\n")
		}
	}
	for _, d := range p.decls {
		if d.kind == declSort {
			continue
		}
		args, result := d.sorts, "Bool"
		if d.kind == declFun {
			args, result = d.sorts[:len(d.sorts)-1], w.sort(d.sorts[len(d.sorts)-1])
		}
		b.WriteString("(declare-fun " + w.funOut[d.name] + " (")
		for i, s := range args {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w.sort(s))
		}
		b.WriteString(") " + result + ")\n")
	}
	for _, a := range p.asserts {
		b.WriteString("(assert ")
		w.term(b, a)
		b.WriteString(")\n")
	}
	b.WriteString("(check-sat)\n(exit)\n")
}

// term writes a node without recursion.
func (w *v1Writer) term(b *bufio.Writer, root uint32) {
	type item struct {
		n uint32
		i uint32 // next child
	}
	nodes, kids, texts := w.p.nodes, w.p.kids, w.p.texts
	var stack []item
	open := func(n uint32) {
		nd := &nodes[n]
		switch nd.kind {
		case nLeaf:
			b.WriteString(texts[nd.sym])
			return
		case nIdent:
			b.WriteString(w.identOf(nd.sym))
			return
		case nName:
			b.WriteString(w.nameOf(nd.sym))
			return
		case nSort:
			b.WriteString(w.sortOf(nd.sym))
			return
		case nApp:
			b.WriteByte('(')
			b.WriteString(w.identOf(nd.sym))
		case nLet:
			b.WriteString("(let ((")
			b.WriteString(w.nameOf(nd.sym))
			b.WriteByte(' ')
		case nQuant:
			b.WriteByte('(')
			b.WriteString(texts[nd.sym])
			b.WriteString(" (")
		case nList:
			b.WriteByte('(')
		}
		stack = append(stack, item{n: n})
	}
	open(root)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		nd := &nodes[top.n]
		i := top.i
		nv := 2 * uint32(nd.nv)
		if i == nd.n {
			if nd.kind == nQuant && nd.n > nv+1 {
				b.WriteByte(')') // the (! ...) around the body and its patterns
			}
			b.WriteByte(')')
			stack = stack[:len(stack)-1]
			continue
		}
		top.i++
		switch nd.kind {
		case nApp:
			b.WriteByte(' ')
		case nLet:
			if i == 1 {
				b.WriteString(")) ")
			}
		case nQuant:
			switch {
			case i == 0:
				b.WriteByte('(')
			case i < nv && i%2 == 0:
				b.WriteString(") (")
			case i < nv:
				b.WriteByte(' ')
			case i == nv:
				b.WriteString(")) ")
				if nd.n > nv+1 {
					b.WriteString("(! ")
				}
			default:
				b.WriteString(" :pattern ")
			}
		case nList:
			if i > 0 {
				b.WriteByte(' ')
			}
		}
		open(kids[nd.first+i])
	}
}
