package smtlib

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
)

// Mode controls optional behaviour of Parse.
type Mode uint

const (
	// AllErrors reports every error instead of stopping after the first ten.
	AllErrors Mode = 1 << iota
	// OptionalPushPopLevel accepts (push) and (pop) without a numeral, as
	// some old scripts write them, and reads them as level 1.
	OptionalPushPopLevel
)

// maxErrors is how many errors Parse reports without AllErrors.
const maxErrors = 10

// ParseFile reads and parses the file at path.
func ParseFile(path string, mode Mode) (*Script, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src, mode)
}

// ParseReader reads all of r and parses it under the given name.
func ParseReader(name string, r io.Reader, mode Mode) (*Script, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return Parse(name, src, mode)
}

// Parse parses an SMT-LIB 2.6 script. It always returns a Script holding
// every command that parsed; the error, if any, is an ErrorList sorted by
// position. The script does not keep src.
func Parse(filename string, src []byte, mode Mode) (*Script, error) {
	file := NewFile(filename, src)
	p := &parser{s: newScript(file), mode: mode}
	if len(src) > maxFileSize {
		p.errs.Add(Position{Filename: filename}, fmt.Sprintf("file is larger than %d bytes", maxFileSize))
		return p.s, p.errs
	}
	p.sc.init(src, p.lexError)
	parens, atoms := estimate(src)
	p.s.nodes = make([]node, 0, parens+1)
	p.s.slots = make([]slot, 0, parens+atoms+1)
	p.next()
	p.script()
	p.s.trim()
	p.errs.Sort()
	return p.s, p.errs.Err()
}

// push appends x to *s, doubling the capacity when s is full: append alone
// grows a long slice by a quarter at a time, allocating about five times
// its final size on the way (a deeply nested term makes the parser's
// stacks long, a model of many definitions its list of commands).
func push[T any](s *[]T, x T) {
	if len(*s) == cap(*s) {
		*s = slices.Grow(*s, max(len(*s), 8))
	}
	*s = append(*s, x)
}

// bailout unwinds the parse of the current command after an error.
type bailout struct{}

type frameKind uint8

const (
	fApp        frameKind = iota // (f args...): after each argument
	fLetBind                     // (v t): after t
	fLetBody                     // (let (...) body): after body
	fQuant                       // (forall (...) body): after body
	fMatchArg                    // (match t ...): after t
	fMatchCase                   // (p t): after t
	fMatchCases                  // the match itself while its cases are parsed
	fAnnot                       // (! t attrs...): after t or after a :pattern list
	fPatterns                    // :pattern (t ...): after each term
)

type frame struct {
	kind frameKind
	sub  Kind // KindForall or KindExists for fQuant
	base int  // where this construct's children start on the value stack
	pos  Pos  // its opening parenthesis
}

type parser struct {
	sc    scanner
	s     *Script
	mode  Mode
	errs  ErrorList
	stop  bool // too many errors
	depth int  // open parentheses since the current command began

	tok     token
	peekTok token
	peeked  bool

	vals   []slot
	frames []frame
}

func (p *parser) lexError(pos Pos, msg string) { p.errorAt(pos, msg) }

func (p *parser) errorAt(pos Pos, msg string) {
	if p.stop {
		return
	}
	p.errs.Add(p.s.File.Position(pos), msg)
	if p.mode&AllErrors == 0 && len(p.errs) >= maxErrors {
		p.stop = true
	}
}

// fail records an error and abandons the current command.
func (p *parser) fail(pos Pos, format string, args ...any) {
	p.errorAt(pos, fmt.Sprintf(format, args...))
	panic(bailout{})
}

func (p *parser) next() {
	switch p.tok.kind {
	case tokLParen:
		p.depth++
	case tokRParen:
		p.depth--
	}
	if p.peeked {
		p.tok, p.peeked = p.peekTok, false
		return
	}
	p.tok = p.sc.next()
}

func (p *parser) peek() token {
	if !p.peeked {
		p.peekTok, p.peeked = p.sc.next(), true
	}
	return p.peekTok
}

// atCommandStart reports whether the current token opens a command: '('
// followed by a command name. Recovery resumes there.
func (p *parser) atCommandStart() bool {
	if p.tok.kind != tokLParen {
		return false
	}
	t := p.peek()
	return t.kind == tokSymbol && commandByName(t.text) != CmdInvalid
}

func (p *parser) expect(k tokKind, what string) Pos {
	if p.tok.kind != k {
		p.unexpected(what)
	}
	pos := p.tok.pos
	p.next()
	return pos
}

// unexpected reports that what was expected and something else was found. A
// command name where a term or ')' belongs almost always means a missing
// ')', so the message says that and the parse resumes at that command.
func (p *parser) unexpected(what string) {
	if p.tok.kind == tokIllegal {
		panic(bailout{}) // the scanner has said what is wrong with it
	}
	if p.atCommandStart() {
		p.fail(p.tok.pos, "expected %s, found '%s' (missing ')' before this command?)", what, p.peek().text)
	}
	p.fail(p.tok.pos, "expected %s, found %s", what, p.tok.describe())
}

func (p *parser) expectClose() { p.expect(tokRParen, "')'") }

// script parses commands until end of file.
func (p *parser) script() {
	for p.tok.kind != tokEOF && !p.stop {
		p.command()
	}
}

func (p *parser) command() {
	start := len(p.vals)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.vals = p.vals[:start]
			p.frames = p.frames[:0]
			p.sync()
		}
	}()
	p.depth = 0
	if p.tok.kind != tokLParen {
		p.fail(p.tok.pos, "expected '(' to start a command, found %s", p.tok.describe())
	}
	pos := p.tok.pos
	name := p.peek()
	if name.kind != tokSymbol {
		p.next()
		p.fail(name.pos, "expected a command name, found %s", name.describe())
	}
	kind := commandByName(name.text)
	if kind == CmdInvalid {
		p.next()
		p.fail(name.pos, "unknown command '%s'", clip(string(name.text)))
	}
	p.next()
	p.next()
	p.commandBody(kind)
	if len(p.s.nodes) >= maxIndex || len(p.s.slots) >= int(NoTerm-1) {
		p.fail(pos, "script too large: more than %d terms", maxIndex)
	}
	n := p.close(kindCommand, start)
	p.s.nodes[n].cmd = kind
	push(&p.s.cmds, Command{Kind: kind, Pos: pos, node: n})
}

// sync skips to the start of the next command: a '(' followed by a command
// name, or the token after the ')' that closes the broken command.
func (p *parser) sync() {
	for p.tok.kind != tokEOF {
		if p.atCommandStart() {
			return
		}
		closes := p.tok.kind == tokRParen && p.depth <= 1
		p.next()
		if closes {
			return
		}
	}
}

// close turns the values from base up into the children of a new node.
func (p *parser) close(kind Kind, base int) uint32 {
	n := uint32(len(p.s.nodes))
	p.s.nodes = append(p.s.nodes, node{kind: kind, start: uint32(len(p.s.slots))})
	p.s.slots = append(p.s.slots, p.vals[base:]...)
	p.vals = p.vals[:base]
	return n
}

// closeValue closes a node and pushes it as a value at pos.
func (p *parser) closeValue(kind Kind, base int, pos Pos) {
	n := p.close(kind, base)
	push(&p.vals, slot{ref: tagNode | n, pos: pos})
}

func (p *parser) pushNone() { push(&p.vals, slot{ref: tagNone, pos: p.tok.pos}) }

func (p *parser) pushSymbol() {
	push(&p.vals, slot{ref: tagSym | p.s.internSym(p.tok.text), pos: p.tok.pos})
	p.next()
}

func (p *parser) pushConst() {
	text := p.tok.text
	if p.sc.escapes && p.tok.kind == tokString {
		text = []byte(reescape(text))
	}
	push(&p.vals, slot{ref: tagConst | p.s.internConst(text), pos: p.tok.pos})
	p.next()
}

// symbol parses a symbol in a place where one is declared or bound.
func (p *parser) symbol(what string) {
	switch p.tok.kind {
	case tokQuotedSymbol:
	case tokSymbol:
		if isReserved(p.tok.text) {
			p.reservedWord(what)
		}
	default:
		p.unexpected(what)
	}
	p.pushSymbol()
}

func (p *parser) reservedWord(what string) {
	if p.tok.kind == tokSymbol && commandByName(p.tok.text) != CmdInvalid {
		p.fail(p.tok.pos, "expected %s, found the command name '%s' (missing '('?)", what, p.tok.text)
	}
	p.fail(p.tok.pos, "expected %s, found the reserved word '%s'", what, p.tok.text)
}

func (p *parser) numeral(what string) {
	if p.tok.kind != tokNumeral {
		p.unexpected(what)
	}
	p.pushConst()
}

func (p *parser) keyword() {
	if p.tok.kind != tokKeyword {
		p.unexpected("a keyword")
	}
	p.pushConst()
}

func isConstTok(k tokKind) bool { return k >= tokNumeral && k <= tokString }

func (p *parser) commandBody(kind CommandKind) {
	switch kind {
	case CmdAssert:
		p.term()
	case CmdCheckSat, CmdExit, CmdGetAssertions, CmdGetAssignment, CmdGetModel, CmdGetProof,
		CmdGetUnsatAssumptions, CmdGetUnsatCore, CmdReset, CmdResetAssertions:
	case CmdCheckSatAssuming:
		p.termList(0)
	case CmdGetValue:
		p.termList(1)
	case CmdDeclareConst:
		p.symbol("a constant name")
		p.sort()
	case CmdDeclareFun:
		p.symbol("a function name")
		base, pos := len(p.vals), p.expect(tokLParen, "'(' before the argument sorts")
		for p.tok.kind != tokRParen {
			p.sort()
		}
		p.next()
		p.closeValue(KindList, base, pos)
		p.sort()
	case CmdDeclareSort:
		p.symbol("a sort name")
		if p.tok.kind == tokRParen {
			p.fail(p.tok.pos, "declare-sort needs the sort's arity, e.g. (declare-sort U 0)")
		}
		p.numeral("the sort's arity (a numeral)")
	case CmdDefineSort:
		p.symbol("a sort name")
		base, pos := len(p.vals), p.expect(tokLParen, "'(' before the sort parameters")
		for p.tok.kind != tokRParen {
			p.symbol("a sort parameter")
		}
		p.next()
		p.closeValue(KindList, base, pos)
		p.sort()
	case CmdDefineFun, CmdDefineFunRec:
		p.symbol("a function name")
		p.sortedVars(false)
		p.sort()
		p.term()
	case CmdDefineFunsRec:
		p.funDecls()
		p.termList(1)
	case CmdDeclareDatatype:
		p.symbol("a datatype name")
		p.datatypeDec()
	case CmdDeclareDatatypes:
		base, pos := len(p.vals), p.expect(tokLParen, "'(' before the sort declarations")
		for p.tok.kind != tokRParen {
			b, ps := len(p.vals), p.expect(tokLParen, "'(' to start a sort declaration")
			p.symbol("a datatype name")
			p.numeral("the datatype's arity (a numeral)")
			p.expectClose()
			p.closeValue(KindList, b, ps)
		}
		p.next()
		p.closeValue(KindList, base, pos)
		base, pos = len(p.vals), p.expect(tokLParen, "'(' before the datatype declarations")
		for p.tok.kind != tokRParen {
			p.datatypeDec()
		}
		p.next()
		p.closeValue(KindList, base, pos)
	case CmdEcho:
		if p.tok.kind != tokString {
			p.unexpected("a string")
		}
		p.pushConst()
	case CmdGetInfo, CmdGetOption:
		p.keyword()
	case CmdPush, CmdPop:
		if p.tok.kind == tokRParen && p.mode&OptionalPushPopLevel != 0 {
			break
		}
		p.numeral("a numeral (the number of levels)")
	case CmdSetInfo, CmdSetOption:
		p.keyword()
		if p.tok.kind != tokRParen {
			p.sexpr()
		}
	case CmdSetLogic:
		p.symbol("a logic name")
	}
	p.expectClose()
}

// termList parses ( term* ) with at least min terms as a KindList value.
// funDecls reads the ((f ((x S) ...) S) ...) list of define-funs-rec, in
// scripts and in models.
func (p *parser) funDecls() {
	base, pos := len(p.vals), p.expect(tokLParen, "'(' before the function declarations")
	for p.tok.kind != tokRParen {
		b, ps := len(p.vals), p.expect(tokLParen, "'(' to start a function declaration")
		p.symbol("a function name")
		p.sortedVars(false)
		p.sort()
		p.expectClose()
		p.closeValue(KindList, b, ps)
	}
	p.next()
	p.closeValue(KindList, base, pos)
}

func (p *parser) termList(min int) {
	base, pos := len(p.vals), p.expect(tokLParen, "'('")
	for p.tok.kind != tokRParen {
		p.term()
	}
	if len(p.vals)-base < min {
		p.fail(p.tok.pos, "expected a term, found ')'")
	}
	p.next()
	p.closeValue(KindList, base, pos)
}

// sortedVars parses ( (v s)* ) as a KindList of KindList pairs. In
// quantifiers (flat) the pairs are pushed directly instead.
func (p *parser) sortedVars(flat bool) {
	base, pos := len(p.vals), p.expect(tokLParen, "'(' before the sorted variables")
	for p.tok.kind != tokRParen {
		b, ps := len(p.vals), p.expect(tokLParen, "'(' to start a sorted variable (v Sort)")
		p.symbol("a variable name")
		p.sort()
		p.expectClose()
		if !flat {
			p.closeValue(KindList, b, ps)
		}
	}
	if flat && len(p.vals) == base {
		p.fail(p.tok.pos, "a quantifier needs at least one variable")
	}
	p.next()
	if !flat {
		p.closeValue(KindList, base, pos)
	}
}

// datatypeDec parses ( ctor+ ) or ( par ( u+ ) ( ctor+ ) ).
func (p *parser) datatypeDec() {
	base, pos := len(p.vals), p.expect(tokLParen, "'(' to start a datatype declaration")
	if p.tok.kind == tokSymbol && string(p.tok.text) == "par" {
		p.next()
		b, ps := len(p.vals), p.expect(tokLParen, "'(' before the sort parameters")
		for p.tok.kind != tokRParen {
			p.symbol("a sort parameter")
		}
		p.next()
		p.closeValue(KindList, b, ps)
		p.constructors()
		p.expectClose()
		p.closeValue(KindPar, base, pos)
		return
	}
	for p.tok.kind != tokRParen {
		p.constructor()
	}
	if len(p.vals) == base {
		p.fail(p.tok.pos, "a datatype needs at least one constructor")
	}
	p.next()
	p.closeValue(KindList, base, pos)
}

func (p *parser) constructors() {
	base, pos := len(p.vals), p.expect(tokLParen, "'(' before the constructors")
	for p.tok.kind != tokRParen {
		p.constructor()
	}
	p.next()
	p.closeValue(KindList, base, pos)
}

// constructor parses ( c (sel sort)* ).
func (p *parser) constructor() {
	base, pos := len(p.vals), p.expect(tokLParen, "'(' to start a constructor")
	p.symbol("a constructor name")
	for p.tok.kind != tokRParen {
		b, ps := len(p.vals), p.expect(tokLParen, "'(' to start a selector (name Sort)")
		p.symbol("a selector name")
		p.sort()
		p.expectClose()
		p.closeValue(KindList, b, ps)
	}
	p.next()
	p.closeValue(KindList, base, pos)
}

// identifier parses a symbol or (_ symbol index+) at the current token.
func (p *parser) identifier(what string) {
	if p.tok.kind == tokLParen {
		if t := p.peek(); t.kind == tokSymbol && string(t.text) == "_" {
			pos := p.tok.pos
			p.next()
			p.next()
			p.indexedRest(pos)
			return
		}
		p.unexpected(what)
	}
	p.symbol(what)
}

// indexedRest parses "f i1 ... in )" after "(_".
func (p *parser) indexedRest(pos Pos) {
	base := len(p.vals)
	p.symbol("an indexed identifier's name")
	for p.tok.kind != tokRParen {
		switch p.tok.kind {
		case tokNumeral, tokSymbol, tokQuotedSymbol, tokHex, tokBinary:
			// Indices are numerals or symbols; #x literals appear in (_ char #x41).
			p.pushConst0()
		default:
			p.unexpected("an index (numeral or symbol)")
		}
	}
	if len(p.vals) == base+1 {
		p.fail(p.tok.pos, "an indexed identifier needs at least one index")
	}
	p.next()
	p.closeValue(KindIndexed, base, pos)
}

// pushConst0 pushes the current atom as a symbol or constant.
func (p *parser) pushConst0() {
	if p.tok.kind == tokSymbol || p.tok.kind == tokQuotedSymbol {
		p.pushSymbol()
		return
	}
	p.pushConst()
}

// qualifiedRest parses "id sort )" after "(as".
func (p *parser) qualifiedRest(pos Pos) {
	base := len(p.vals)
	p.identifier("an identifier")
	p.sort()
	p.expectClose()
	p.closeValue(KindQualified, base, pos)
}

// sort parses a sort: an identifier or ( identifier sort+ ). Nested sorts use
// an explicit stack.
func (p *parser) sort() {
	type open struct {
		base int
		pos  Pos
	}
	var stack []open
	for {
		// Parse one sort or open one.
		if p.tok.kind == tokLParen {
			t := p.peek()
			if t.kind == tokSymbol && string(t.text) == "_" {
				p.identifier("a sort")
			} else {
				stack = append(stack, open{len(p.vals), p.tok.pos})
				p.next()
				p.identifier("a sort constructor")
				continue
			}
		} else {
			p.symbol("a sort")
		}
		// Close what is complete.
		for len(stack) > 0 && p.tok.kind == tokRParen {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(p.vals)-top.base < 2 {
				p.fail(p.tok.pos, "expected a sort, found ')'")
			}
			p.next()
			p.closeValue(KindApp, top.base, top.pos)
		}
		if len(stack) == 0 {
			return
		}
	}
}

// sexpr parses an attribute or option value: an atom or ( sexpr* ).
func (p *parser) sexpr() {
	type open struct {
		base int
		pos  Pos
	}
	var stack []open
	for {
		switch k := p.tok.kind; {
		case k == tokLParen:
			stack = append(stack, open{len(p.vals), p.tok.pos})
			p.next()
		case k == tokRParen && len(stack) > 0:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			p.next()
			p.closeValue(KindList, top.base, top.pos)
		case k == tokSymbol || k == tokQuotedSymbol:
			p.pushSymbol()
		case isConstTok(k) || k == tokKeyword:
			p.pushConst()
		default:
			p.unexpected("an s-expression")
		}
		if len(stack) == 0 {
			return
		}
	}
}

// attributes parses ":k v" pairs until ')' for an annotation whose children
// start at base. It returns true if it opened a :pattern list, whose terms
// the caller parses.
func (p *parser) attributes(base int) bool {
	for p.tok.kind == tokKeyword {
		text := p.tok.text
		p.pushConst()
		switch {
		case string(text) == ":pattern" && p.tok.kind == tokLParen:
			push(&p.frames, frame{kind: fPatterns, base: len(p.vals), pos: p.tok.pos})
			p.next()
			if p.tok.kind == tokRParen {
				p.fail(p.tok.pos, "a :pattern needs at least one term")
			}
			return true
		case p.tok.kind == tokKeyword || p.tok.kind == tokRParen:
			p.pushNone()
		default:
			p.sexpr()
		}
	}
	if p.tok.kind != tokRParen {
		p.unexpected("a keyword or ')'")
	}
	if len(p.vals)-base < 2 {
		p.fail(p.tok.pos, "'!' needs at least one attribute")
	}
	return false
}

// term parses one term and pushes it. Nested terms use the frame stack, not
// the Go stack: the loop alternates between starting a term at the current
// token and finishing the constructs that the completed term ends.
func (p *parser) term() {
	floor := len(p.frames)
	for {
		p.termStart()
		if p.finish(floor) {
			return
		}
	}
}

// termStart either pushes a complete term (an atom or an identifier form) or
// opens a frame and leaves the current token at its first sub-term.
func (p *parser) termStart() {
	for {
		switch p.tok.kind {
		case tokSymbol:
			if isReserved(p.tok.text) {
				p.reservedWord("a term")
			}
			p.pushSymbol()
			return
		case tokQuotedSymbol:
			p.pushSymbol()
			return
		case tokNumeral, tokDecimal, tokHex, tokBinary, tokString:
			p.pushConst()
			return
		case tokLParen:
		default:
			p.unexpected("a term")
		}
		pos := p.tok.pos
		head := p.peek()
		if head.kind == tokLParen {
			// ((_ f i) args) or ((as f s) args)
			p.next()
			base := len(p.vals)
			p.qualIdentifierParen()
			push(&p.frames, frame{kind: fApp, base: base, pos: pos})
			if p.tok.kind == tokRParen {
				p.fail(p.tok.pos, "an application needs at least one argument")
			}
			continue
		}
		if head.kind != tokSymbol && head.kind != tokQuotedSymbol {
			p.next()
			p.unexpected("a function symbol")
		}
		if head.kind == tokSymbol && len(head.text) <= 6 {
			switch string(head.text) {
			case "_":
				p.next()
				p.next()
				p.indexedRest(pos)
				return
			case "as":
				p.next()
				p.next()
				p.qualifiedRest(pos)
				return
			case "let":
				p.next()
				p.next()
				p.expect(tokLParen, "'(' before the let bindings")
				push(&p.frames, frame{kind: fLetBody, base: len(p.vals), pos: pos})
				p.letBinding()
				continue
			case "forall", "exists":
				sub := KindForall
				if head.text[0] == 'e' {
					sub = KindExists
				}
				p.next()
				p.next()
				base := len(p.vals)
				p.sortedVars(true)
				push(&p.frames, frame{kind: fQuant, sub: sub, base: base, pos: pos})
				continue
			case "match":
				p.next()
				p.next()
				push(&p.frames, frame{kind: fMatchArg, base: len(p.vals), pos: pos})
				continue
			case "!":
				p.next()
				p.next()
				push(&p.frames, frame{kind: fAnnot, base: len(p.vals), pos: pos})
				continue
			}
		}
		if head.kind == tokSymbol && isReserved(head.text) {
			if commandByName(head.text) != CmdInvalid {
				p.unexpected("')'")
			}
			p.next()
			p.reservedWord("a function symbol")
		}
		p.next()
		base := len(p.vals)
		p.pushSymbol()
		push(&p.frames, frame{kind: fApp, base: base, pos: pos})
		if p.tok.kind == tokRParen {
			p.fail(p.tok.pos, "an application needs at least one argument; write %s without parentheses", head.describe())
		}
	}
}

// qualIdentifierParen parses (_ f i+) or (as f s) at the current '('.
func (p *parser) qualIdentifierParen() {
	pos := p.tok.pos
	t := p.peek()
	if t.kind == tokSymbol {
		switch string(t.text) {
		case "_":
			p.next()
			p.next()
			p.indexedRest(pos)
			return
		case "as":
			p.next()
			p.next()
			p.qualifiedRest(pos)
			return
		}
	}
	p.next()
	p.unexpected("'_' or 'as' (a function symbol in parentheses must be indexed or qualified)")
}

// letBinding parses "(v" of the next binding and opens its frame.
func (p *parser) letBinding() {
	pos := p.expect(tokLParen, "'(' to start a let binding (v term)")
	p.symbol("a variable name")
	push(&p.frames, frame{kind: fLetBind, pos: pos})
}

// matchCase parses "(pattern" of the next case and opens its frame.
func (p *parser) matchCase() {
	pos := p.expect(tokLParen, "'(' to start a match case (pattern term)")
	if p.tok.kind == tokLParen {
		base, ps := len(p.vals), p.tok.pos
		p.next()
		p.symbol("a constructor")
		for p.tok.kind != tokRParen {
			p.symbol("a pattern variable")
		}
		if len(p.vals)-base < 2 {
			p.fail(p.tok.pos, "a constructor pattern in parentheses needs variables")
		}
		p.next()
		p.closeValue(KindApp, base, ps)
	} else {
		p.symbol("a pattern")
	}
	push(&p.frames, frame{kind: fMatchCase, pos: pos})
}

// finish runs after a term was pushed: it closes every construct that the
// term completes. It returns true when the frames are back at floor (the
// outermost term is done), false when another sub-term must be parsed.
func (p *parser) finish(floor int) bool {
	for len(p.frames) > floor {
		f := &p.frames[len(p.frames)-1]
		switch f.kind {
		case fApp:
			if p.tok.kind != tokRParen {
				return false
			}
			p.next()
			p.frames = p.frames[:len(p.frames)-1]
			p.closeValue(KindApp, f.base, f.pos)
		case fPatterns:
			if p.tok.kind != tokRParen {
				return false
			}
			p.next()
			p.frames = p.frames[:len(p.frames)-1]
			p.closeValue(KindList, f.base, f.pos)
			if p.attributes(p.frames[len(p.frames)-1].base) {
				return false
			}
		case fLetBind:
			p.expectClose()
			p.frames = p.frames[:len(p.frames)-1]
			if p.tok.kind == tokLParen {
				p.letBinding()
				return false
			}
			p.expect(tokRParen, "'(' or ')' after a let binding")
			return false // the body comes next; fLetBody is on top
		case fLetBody, fQuant:
			p.expectClose()
			kind := KindLet
			if f.kind == fQuant {
				kind = f.sub
			}
			p.frames = p.frames[:len(p.frames)-1]
			p.closeValue(kind, f.base, f.pos)
		case fMatchArg:
			p.expect(tokLParen, "'(' before the match cases")
			f.kind = fMatchCases
			p.matchCase()
			return false
		case fMatchCase:
			p.expectClose()
			p.frames = p.frames[:len(p.frames)-1]
			if p.tok.kind == tokLParen {
				p.matchCase()
				return false
			}
			p.expectClose() // end of the cases
			m := &p.frames[len(p.frames)-1]
			p.expectClose() // end of the match
			p.frames = p.frames[:len(p.frames)-1]
			p.closeValue(KindMatch, m.base, m.pos)
		case fAnnot:
			if p.attributes(f.base) {
				return false
			}
			p.next()
			p.frames = p.frames[:len(p.frames)-1]
			p.closeValue(KindAnnotated, f.base, f.pos)
		default:
			panic("smtlib: bad parser frame")
		}
	}
	return true
}

// estimate counts opening parentheses and atoms (runs of symbol, numeral or
// literal characters) so that the arena can be allocated once. Parentheses
// and atoms inside comments and literals are counted too, so it errs high.
// The loop is branch-free: it adds one at every start of a run.
func estimate(src []byte) (parens, atoms int) {
	parens = bytes.Count(src, []byte{'('})
	prev := uint8(0)
	i := 0
	for ; i+8 <= len(src); i += 8 {
		// Eight bytes at a time: the lookups do not wait for each other.
		b := src[i : i+8 : i+8]
		c0, c1, c2, c3 := atomChar[b[0]], atomChar[b[1]], atomChar[b[2]], atomChar[b[3]]
		c4, c5, c6, c7 := atomChar[b[4]], atomChar[b[5]], atomChar[b[6]], atomChar[b[7]]
		atoms += int(c0&^prev + c1&^c0 + c2&^c1 + c3&^c2 + c4&^c3 + c5&^c4 + c6&^c5 + c7&^c6)
		prev = c7
	}
	for _, c := range src[i:] {
		cur := atomChar[c]
		atoms += int(cur &^ prev)
		prev = cur
	}
	return parens, atoms
}

var atomChar = func() (t [256]uint8) {
	for c := range 256 {
		if class[c]&(cSymRest|cSymStart) != 0 || c == '#' || c == '"' || c == '|' || c == ':' {
			t[c] = 1
		}
	}
	return
}()
