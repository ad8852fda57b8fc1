package scramble

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// The parser reads one command at a time, as the official bison parser does,
// and makes its random draws at the moments the official parser reduces the
// corresponding grammar rules: a term's draws after those of its arguments,
// left to right. Terms, sorts and s-expressions are read by loops over an
// explicit stack of frames, never by recursion.

// frame kinds
const (
	fApp     = iota // ( head arg... ): ws[base] is the head
	fLet            // (let ((v t)...) body): ws[base:] holds name, term pairs, then bindings and body
	fQuant          // (forall|exists (vars) body): ws[base] is the variable list
	fAnnot          // (! term attr...): ws[base] is the term
	fPattern        // :pattern (term...)
	fMatch          // (match term (case...)): ws[base] is the term, then cases
	fSort           // (id sort...): ws[base] is the identifier
	fSexpr          // (sexpr...)
)

type frame struct {
	kind  uint8
	state uint8  // fLet: 0 bindings, 1 body; fMatch: 0 scrutinee, 1 case bodies
	base  int32  // where the frame's items start in ws
	sym   uint32 // fQuant: forall or exists
	pat   uint32 // fMatch: the pattern of the case being read
}

// bailout carries a parse error up to parse, which recovers it.
type bailout struct{ err error }

// segment is a run of commands printed together: the official scrambler
// prints (and shuffles, and extends its name permutation) at each check-sat.
type segment struct {
	start, end int    // commands
	bound      uint32 // names with declaration ids below this are renamed
}

type parser struct {
	file string
	sc   *scanner
	back bool // the current token is to be read again

	syms *symtab
	a    arena
	rnd  lcg
	opts *Options

	scramble bool // the seed is not zero
	blobs    bool // applications may be written out as blobs (not under -core)
	ws       []uint32
	frames   []frame

	logic                     string
	logicSet                  bool
	isDL, isArith, isBV, isFP bool
	nAsserts                  int
	cmds                      []cmdRec // the stored commands
	data                      store
	ser                       serializer
	segs                      []segment
	segStart                  int
	namesAtFlush              uint32   // names known when the last segment ended
	printed                   []bool   // name -> printed in a segment before scanned
	scanned                   int      // commands scanned for printed
	perm                      []uint32 // declaration id -> printed number
	statuses                  []string
	declSym                   []uint32 // name -> symbol spelled in its declaration
}

func (p *parser) fail(err error) { panic(bailout{err}) }

func (p *parser) syntaxf(pos Position, format string, args ...any) {
	p.fail(&SyntaxError{File: p.file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) rejectf(pos Position, format string, args ...any) {
	p.fail(&RejectError{File: p.file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// next reads the next token.
func (p *parser) next() {
	if p.back {
		p.back = false
		return
	}
	if err := p.sc.next(); err != nil {
		p.scanFailed(err)
	}
}

func (p *parser) scanFailed(err *scanErr) { p.syntaxf(err.pos, "%s", err.msg) }

func (p *parser) kind() tokKind { return p.sc.kind }
func (p *parser) pos() Position { return p.sc.position() }

func (p *parser) expected(what string) {
	p.syntaxf(p.pos(), "expected %s, found %s", what, p.sc.describe())
}

func (p *parser) expect(k tokKind) {
	p.next()
	if p.kind() != k {
		p.expected(k.String())
	}
}

func (p *parser) isWord(w string) bool {
	return p.kind() == tSymbol && string(p.sc.tok()) == w
}

// symbol reads a symbol and interns it.
func (p *parser) symbol(what string) uint32 {
	p.next()
	if p.kind() != tSymbol && p.kind() != tQSymbol {
		p.expected(what)
	}
	if p.kind() == tSymbol && isReserved(p.sc.tok()) {
		p.syntaxf(p.pos(), "expected %s, found the reserved word '%s'", what, p.sc.tok())
	}
	return p.syms.intern(p.sc.tok())
}

func (p *parser) numeral(what string) (uint32, int) {
	p.next()
	if p.kind() != tNumeral {
		p.expected(what)
	}
	n, err := strconv.Atoi(string(p.sc.tok()))
	if err != nil {
		n = -1 // too large
	}
	return p.syms.intern(p.sc.tok()), n
}

// isReserved reports whether a simple symbol is one of the words the
// official lexer turns into tokens of their own: the binders and other
// special words, and the command names. They cannot be used as symbols.
func isReserved(b []byte) bool {
	if len(b) == 0 || len(b) > 22 || !reservedStart[b[0]] {
		return false
	}
	switch string(b) {
	case "!", "_", "as", "let", "forall", "exists", "match",
		"assert", "check-sat", "check-sat-assuming", "declare-const", "declare-datatype",
		"declare-datatypes", "declare-fun", "declare-sort", "define-fun", "define-fun-rec",
		"define-funs-rec", "define-sort", "echo", "exit", "get-assertions", "get-assignment",
		"get-info", "get-model", "get-option", "get-proof", "get-unsat-assumptions",
		"get-unsat-core", "get-value", "pop", "push", "reset", "reset-assertions",
		"set-info", "set-logic", "set-option":
		return true
	}
	return false
}

var reservedStart = [256]bool{'!': true, '_': true, 'a': true, 'c': true, 'd': true, 'e': true, 'f': true, 'g': true, 'l': true, 'm': true, 'p': true, 'r': true, 's': true}

// declare gives symbol s a declaration id unless its name has one.
func (p *parser) declare(s uint32) {
	t := p.syms
	if n := t.nameOf[s]; p.scramble && n != 0 && n < p.namesAtFlush && t.nameID[n] == 0 && p.printedBefore(n) {
		// The official scrambler looks every name up when it prints, and
		// the lookup enters a name it does not know with id 0; a later
		// declaration then finds it and gives it no id. So a name printed
		// before its declaration is never renamed.
		t.nameID[n] = poisoned
		return
	}
	before := t.nextID
	t.declare(s)
	if t.nextID != before {
		n := t.nameOf[s]
		for len(p.declSym) <= int(n) {
			p.declSym = append(p.declSym, 0)
		}
		p.declSym[n] = s
	}
}

// poisoned is the declaration id of a name printed before its declaration.
const poisoned = ^uint32(0)

// printedBefore reports whether name n was printed (written as a name) in a
// segment already ended.
func (p *parser) printedBefore(n uint32) bool {
	t := p.syms
	for len(p.printed) < len(t.nameID) {
		p.printed = append(p.printed, false)
	}
	for _, c := range p.cmds[p.scanned:p.segStart] {
		forNames(p.data.get(c), func(s uint32) {
			if m := t.nameOf[s]; int(m) < len(p.printed) {
				p.printed[m] = true
			}
		})
	}
	p.scanned = p.segStart
	return p.printed[n]
}

func leaf(s uint32) uint32     { return refLeaf | s }
func nameLeaf(s uint32) uint32 { return refLeaf | refName | s }

func (p *parser) push(r uint32) { p.ws = append(p.ws, r) }

// reduce replaces ws[base:] by a node with the given head over them.
func (p *parser) reduce(base int, head uint32) uint32 {
	r := p.a.add(head, p.ws[base:])
	p.ws = p.ws[:base]
	return r
}

// command builds a command node and stores it.
func (p *parser) command(sym uint32, children ...uint32) {
	p.store(sym, p.a.add(sym|refParen, children))
}

func (p *parser) emptyList() uint32 { return p.a.add(refParen, nil) }

// parse reads the whole script.
func (p *parser) parse() (err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			err = b.err
		}
	}()
	for {
		p.next()
		if p.kind() == tEOF {
			break
		}
		if p.kind() != tLParen {
			p.expected("'(' to start a command")
		}
		p.cmd()
	}
	if len(p.cmds) > p.segStart {
		p.flush()
	}
	return nil
}

// nonSMTCOMP rejects a command the competition does not use, unless support
// for such commands was asked for.
func (p *parser) nonSMTCOMP(pos Position, name string) {
	if !p.opts.SupportNonSMTCOMP {
		p.rejectf(pos, "Encountered non-SMT-COMP command: '%s'. Maybe you want to re-run with '-support-non-smtcomp true'.", name)
	}
}

// allowedOptions are the set-option commands that the official scrambler
// accepts (and drops) without -support-non-smtcomp: those of its own outputs.
var allowedOptions = map[string]bool{
	":print-success":       true,
	":produce-unsat-cores": true,
}

func (p *parser) cmd() {
	p.next()
	cpos := p.pos()
	if p.kind() != tSymbol {
		p.expected("a command name")
	}
	name := string(p.sc.tok())
	switch name {
	case "assert":
		t := p.term()
		p.expect(tRParen)
		p.command(symAssert, t)
	case "check-sat":
		p.expect(tRParen)
		p.command(symCheckSat)
		p.flush()
	case "declare-const":
		s := p.symbol("a constant name")
		sort := p.sort()
		p.expect(tRParen)
		p.declare(s)
		p.command(symDeclareFun, nameLeaf(s), p.emptyList(), sort)
	case "declare-fun":
		s := p.symbol("a function name")
		p.expect(tLParen)
		base := len(p.ws)
		for {
			p.next()
			if p.kind() == tRParen {
				break
			}
			p.back = true
			p.push(p.sort())
		}
		var args uint32
		if len(p.ws) == base {
			args = p.emptyList()
		} else {
			args = p.reduce(base, refParen)
		}
		sort := p.sort()
		p.expect(tRParen)
		p.declare(s)
		p.command(symDeclareFun, nameLeaf(s), args, sort)
	case "define-fun":
		s := p.symbol("a function name")
		vars := p.sortedVars(false)
		sort := p.sort()
		body := p.term()
		p.expect(tRParen)
		p.declare(s)
		p.command(symDefineFun, nameLeaf(s), vars, sort, body)
	case "declare-sort":
		s := p.symbol("a sort name")
		num, n := p.numeral("the sort's arity")
		npos := p.pos()
		p.expect(tRParen)
		if n != 0 {
			p.rejectf(npos, "declare-sort with arity != 0")
		}
		p.declare(s)
		p.command(symDeclareSort, nameLeaf(s), leaf(num))
	case "define-sort":
		s := p.symbol("a sort name")
		p.expect(tLParen)
		p.next()
		if p.kind() != tRParen {
			p.rejectf(p.pos(), "define-sort with parameters")
		}
		sort := p.sort()
		p.expect(tRParen)
		p.declare(s)
		p.command(symDefineSort, nameLeaf(s), p.emptyList(), sort)
	case "declare-datatype":
		s := p.symbol("a datatype name")
		dt := p.datatypeDec()
		p.expect(tRParen)
		p.declare(s)
		arity := p.a.add(refParen|refName|s, []uint32{leaf(symZero)})
		sorts := p.a.add(refParen, []uint32{arity})
		decs := p.a.add(refParen, []uint32{dt})
		p.command(symDeclareDatatypes, sorts, decs)
	case "declare-datatypes":
		p.expect(tLParen)
		base := len(p.ws)
		for {
			p.next()
			if p.kind() == tRParen && len(p.ws) > base {
				break
			}
			if p.kind() != tLParen {
				p.expected("'(' to start a sort declaration")
			}
			s := p.symbol("a sort name")
			num, n := p.numeral("the sort's arity")
			npos := p.pos()
			p.expect(tRParen)
			if n != 0 {
				p.rejectf(npos, "declare-datatypes contains a sort with arity != 0")
			}
			p.declare(s)
			p.push(p.a.add(refParen|refName|s, []uint32{leaf(num)}))
		}
		sorts := p.reduce(base, refParen)
		p.push(sorts)
		p.expect(tLParen)
		dbase := len(p.ws)
		for {
			p.next()
			if p.kind() == tRParen && len(p.ws) > dbase {
				break
			}
			p.back = true
			p.push(p.datatypeDec())
		}
		decs := p.reduce(dbase, refParen)
		p.ws = p.ws[:base]
		p.expect(tRParen)
		p.command(symDeclareDatatypes, sorts, decs)
	case "echo":
		p.expect(tString)
		p.expect(tRParen)
	case "exit":
		p.expect(tRParen)
		p.command(symExit)
	case "push", "pop":
		_, n := p.numeral("the number of levels")
		npos := p.pos()
		p.expect(tRParen)
		if n < 0 || n > 1<<20 {
			p.rejectf(npos, "%s with too many levels", name)
		}
		sym := symPush
		if name == "pop" {
			sym = symPop
		}
		for i := 0; i < n; i++ {
			p.command(sym, leaf(symOne))
		}
	case "set-logic":
		p.next()
		if p.kind() != tSymbol && p.kind() != tQSymbol {
			p.expected("a logic name")
		}
		s := p.syms.intern(p.sc.tok())
		p.expect(tRParen)
		if p.logicSet {
			p.rejectf(cpos, "logic is already set")
		}
		p.setLogic(p.syms.text[s])
		p.command(symSetLogic, leaf(s))
	case "set-info":
		p.next()
		if p.kind() != tKeyword {
			p.expected("a keyword")
		}
		status := string(p.sc.tok()) == ":status"
		p.next()
		if p.kind() == tRParen {
			break
		}
		if status && p.kind() == tSymbol {
			p.statuses = append(p.statuses, string(p.sc.tok()))
		}
		p.back = true
		p.skipSexpr()
		p.expect(tRParen)
	case "set-option":
		p.next()
		if p.kind() != tKeyword {
			p.expected("a keyword")
		}
		kw := p.syms.intern(p.sc.tok())
		p.next()
		if p.kind() == tRParen {
			p.expected("an option value")
		}
		p.back = true
		val := p.sexpr(false)
		p.expect(tRParen)
		if allowedOptions[p.syms.text[kw]] {
			break
		}
		p.nonSMTCOMP(cpos, name)
		p.command(symSetOption, leaf(kw), val)
	case "get-unsat-core":
		p.expect(tRParen)
	case "check-sat-assuming", "declare-codatatype", "declare-codatatypes", "define-fun-rec",
		"define-funs-rec", "get-assertions", "get-assignment", "get-info", "get-model",
		"get-option", "get-proof", "get-unsat-assumptions", "get-value", "reset",
		"reset-assertions", "get-difficulty", "get-interpolants", "get-timeout-core",
		"check-sat-assuming-model", "get-learned-literals", "declare-heap", "set-timeout":
		p.nonSMTCOMP(cpos, name)
		base := len(p.ws)
		for {
			p.next()
			if p.kind() == tRParen {
				break
			}
			p.back = true
			p.push(p.sexpr(true))
		}
		sym := p.syms.intern([]byte(name))
		r := p.a.add(sym|refParen, p.ws[base:])
		p.ws = p.ws[:base]
		p.store(sym, r)
	default:
		p.syntaxf(cpos, "unknown command '%s'", clip(p.sc.tok()))
	}
}

func (p *parser) setLogic(l string) {
	p.logic, p.logicSet = l, true
	p.isDL = strings.Contains(l, "IDL") || strings.Contains(l, "RDL")
	p.isArith = strings.Contains(l, "IA") || strings.Contains(l, "RA")
	p.isBV = strings.Contains(l, "BV")
	p.isFP = strings.Contains(l, "FP")
}

// sortedVars reads ((v sort)...), declaring each variable after its sort;
// empty says whether () is allowed.
func (p *parser) sortedVars(nonEmpty bool) uint32 {
	p.expect(tLParen)
	base := len(p.ws)
	for {
		p.next()
		if p.kind() == tRParen {
			if nonEmpty && len(p.ws) == base {
				p.expected("a sorted variable")
			}
			break
		}
		if p.kind() != tLParen {
			p.expected("'(' to start a sorted variable")
		}
		v := p.symbol("a variable name")
		sort := p.sort()
		p.expect(tRParen)
		p.declare(v)
		p.push(p.a.add(refParen|refName|v, []uint32{sort}))
	}
	if len(p.ws) == base {
		return p.emptyList()
	}
	return p.reduce(base, refParen)
}

// datatypeDec reads ((ctor (sel sort)...)...) and shuffles the constructors.
func (p *parser) datatypeDec() uint32 {
	p.expect(tLParen)
	base := len(p.ws)
	for {
		p.next()
		if p.kind() == tRParen && len(p.ws) > base {
			break
		}
		if p.kind() != tLParen {
			p.expected("'(' to start a constructor declaration")
		}
		if p.next(); p.isWord("par") {
			p.rejectf(p.pos(), "parametric datatypes are not allowed in SMT-COMP")
		}
		p.back = true
		c := p.symbol("a constructor name")
		sbase := len(p.ws)
		for {
			p.next()
			if p.kind() == tRParen {
				break
			}
			if p.kind() != tLParen {
				p.expected("'(' to start a selector declaration")
			}
			s := p.symbol("a selector name")
			sort := p.sort()
			p.expect(tRParen)
			p.declare(s)
			p.push(p.a.add(refParen|refName|s, []uint32{sort}))
		}
		p.declare(c)
		p.push(p.reduce(sbase, refParen|refName|c))
	}
	if p.scramble {
		p.rnd.shuffle(p.ws[base:])
	}
	return p.reduce(base, refParen)
}

// identifierRest reads the rest of (_ sym index...) after the underscore.
// The indexed symbol is not a name; symbolic indices are.
func (p *parser) identifierRest() uint32 {
	base := len(p.ws)
	p.next()
	if p.kind() != tSymbol && p.kind() != tQSymbol {
		p.expected("the symbol of an indexed identifier")
	}
	p.push(leaf(p.syms.intern(p.sc.tok())))
	for {
		p.next()
		switch p.kind() {
		case tNumeral, tHex, tBinary, tDecimal, tString:
			p.push(leaf(p.syms.intern(p.sc.tok())))
			continue
		case tSymbol, tQSymbol:
			p.push(nameLeaf(p.syms.intern(p.sc.tok())))
			continue
		case tRParen:
			if len(p.ws) == base+1 {
				p.expected("an index")
			}
		default:
			p.expected("an index or ')'")
		}
		break
	}
	return p.reduce(base, refParen|symUnderscore)
}

// identifier reads a symbol or (_ sym index...).
func (p *parser) identifier() uint32 {
	p.next()
	switch p.kind() {
	case tSymbol, tQSymbol:
		if p.kind() == tSymbol && isReserved(p.sc.tok()) {
			p.syntaxf(p.pos(), "expected an identifier, found the reserved word '%s'", p.sc.tok())
		}
		return nameLeaf(p.syms.intern(p.sc.tok()))
	case tLParen:
		p.next()
		if !p.isWord("_") {
			p.expected("'_' (an indexed identifier)")
		}
		return p.identifierRest()
	}
	p.expected("an identifier")
	return 0
}

// asRest reads the rest of (as identifier sort) after "as".
func (p *parser) asRest() uint32 {
	id := p.identifier()
	sort := p.sort()
	p.expect(tRParen)
	return p.a.add(refParen|symAs, []uint32{id, sort})
}

// sort reads a sort: identifier | (identifier sort...).
func (p *parser) sort() uint32 {
	depth := len(p.frames)
	for {
		// want a sort
		p.next()
		switch p.kind() {
		case tSymbol, tQSymbol:
			p.back = true
			p.push(p.identifier())
		case tLParen:
			p.next()
			if p.isWord("_") {
				p.push(p.identifierRest())
				break
			}
			var head uint32
			if p.kind() == tLParen {
				p.next()
				if !p.isWord("_") {
					p.expected("'_' (an indexed identifier)")
				}
				head = p.identifierRest()
			} else {
				p.back = true
				head = p.identifier()
			}
			p.frames = append(p.frames, frame{kind: fSort, base: int32(len(p.ws))})
			p.push(head)
			continue
		default:
			p.expected("a sort")
		}
		// have a sort
		for {
			if len(p.frames) == depth {
				r := p.ws[len(p.ws)-1]
				p.ws = p.ws[:len(p.ws)-1]
				return r
			}
			f := &p.frames[len(p.frames)-1]
			p.next()
			if p.kind() != tRParen {
				p.back = true
				break
			}
			if len(p.ws) == int(f.base)+1 {
				p.expected("a sort")
			}
			r := p.reduce(int(f.base), refParen)
			p.frames = p.frames[:len(p.frames)-1]
			p.push(r)
		}
	}
}

// sexpr reads an s-expression; names says whether its symbols are names.
func (p *parser) sexpr(names bool) uint32 {
	depth := len(p.frames)
	for {
		p.next()
		switch p.kind() {
		case tLParen:
			p.frames = append(p.frames, frame{kind: fSexpr, base: int32(len(p.ws))})
			continue
		case tRParen:
			if len(p.frames) == depth {
				p.expected("an s-expression")
			}
			f := p.frames[len(p.frames)-1]
			p.frames = p.frames[:len(p.frames)-1]
			if len(p.ws) == int(f.base) {
				p.push(p.emptyList())
			} else {
				p.push(p.reduce(int(f.base), refParen))
			}
		case tSymbol, tQSymbol:
			if names {
				p.push(nameLeaf(p.syms.intern(p.sc.tok())))
			} else {
				p.push(leaf(p.syms.intern(p.sc.tok())))
			}
		case tEOF:
			p.expected("an s-expression")
		default:
			p.push(leaf(p.syms.intern(p.sc.tok())))
		}
		if len(p.frames) == depth {
			r := p.ws[len(p.ws)-1]
			p.ws = p.ws[:len(p.ws)-1]
			return r
		}
	}
}

// skipSexpr reads an s-expression and builds nothing.
func (p *parser) skipSexpr() {
	open := 0
	for {
		p.next()
		switch p.kind() {
		case tLParen:
			open++
		case tRParen:
			if open == 0 {
				p.expected("an s-expression")
			}
			open--
		case tEOF:
			p.expected("')'")
		}
		if open == 0 {
			return
		}
	}
}

// term reads a term.
func (p *parser) term() uint32 {
	depth := len(p.frames)
	if p.back {
		p.back = false
	} else if err := p.sc.next(); err != nil {
		p.scanFailed(err)
	}
	for {
		// the current token starts a term
		want := false
		switch p.sc.kind {
		case tSymbol:
			if isReserved(p.sc.tok()) {
				p.syntaxf(p.pos(), "expected a term, found the reserved word '%s'", p.sc.tok())
			}
			p.ws = append(p.ws, nameLeaf(p.syms.intern(p.sc.tok())))
		case tQSymbol:
			p.ws = append(p.ws, nameLeaf(p.syms.intern(p.sc.tok())))
		case tNumeral, tDecimal, tHex, tBinary, tString:
			p.ws = append(p.ws, leaf(p.syms.intern(p.sc.tok())))
		case tLParen:
			want = p.open()
		default:
			p.expected("a term")
		}
		if want {
			if p.back {
				p.back = false
			} else if err := p.sc.next(); err != nil {
				p.scanFailed(err)
			}
			continue
		}
		// a term is complete: let the innermost frame go on
		for {
			if len(p.frames) == depth {
				r := p.ws[len(p.ws)-1]
				p.ws = p.ws[:len(p.ws)-1]
				return r
			}
			f := &p.frames[len(p.frames)-1]
			if f.kind == fApp {
				if p.back {
					p.back = false
				} else if err := p.sc.next(); err != nil {
					p.scanFailed(err)
				}
				if p.sc.kind != tRParen {
					break // the token starts the next argument
				}
				p.reduceApp(f)
				continue
			}
			if p.resume() {
				if p.back {
					p.back = false
				} else if err := p.sc.next(); err != nil {
					p.scanFailed(err)
				}
				break
			}
		}
	}
}

// open reads what follows the parenthesis that opens a term. It pushes a
// complete term and returns false, or opens a frame that wants a term and
// returns true.
func (p *parser) open() bool {
	p.next()
	switch p.kind() {
	case tSymbol:
		if isReserved(p.sc.tok()) {
			switch string(p.sc.tok()) {
			case "!":
				p.frames = append(p.frames, frame{kind: fAnnot, base: int32(len(p.ws))})
				return true
			case "let":
				p.expect(tLParen)
				base := len(p.ws)
				p.letBinding()
				p.frames = append(p.frames, frame{kind: fLet, base: int32(base)})
				return true
			case "forall", "exists":
				sym := symForall
				if p.sc.tok()[0] == 'e' {
					sym = symExists
				}
				base := len(p.ws)
				p.push(p.sortedVars(true))
				p.frames = append(p.frames, frame{kind: fQuant, base: int32(base), sym: sym})
				return true
			case "match":
				p.frames = append(p.frames, frame{kind: fMatch, base: int32(len(p.ws))})
				return true
			case "_":
				p.push(p.identifierRest())
				return false
			case "as":
				p.push(p.asRest())
				return false
			}
			p.syntaxf(p.pos(), "expected a function symbol or a binder, found the reserved word '%s'", p.sc.tok())
		}
		p.frames = append(p.frames, frame{kind: fApp, base: int32(len(p.ws))})
		p.ws = append(p.ws, nameLeaf(p.syms.intern(p.sc.tok())))
		return true
	case tQSymbol:
		p.frames = append(p.frames, frame{kind: fApp, base: int32(len(p.ws))})
		p.push(nameLeaf(p.syms.intern(p.sc.tok())))
		return true
	case tLParen:
		p.next()
		var head uint32
		switch {
		case p.isWord("_"):
			head = p.identifierRest()
		case p.isWord("as"):
			head = p.asRest()
		default:
			p.expected("'_' or 'as' (a function symbol in parentheses must be indexed or qualified)")
		}
		p.frames = append(p.frames, frame{kind: fApp, base: int32(len(p.ws))})
		p.push(head)
		return true
	}
	p.expected("a function symbol or a binder")
	return false
}

// letBinding reads "(v" of a let binding, after its opening parenthesis
// has been checked for, and pushes v; the term follows.
func (p *parser) letBinding() {
	p.expect(tLParen)
	v := p.symbol("a variable name")
	p.push(nameLeaf(v))
}

// resume continues the innermost frame after a term (or, for fAnnot, an
// attribute) was completed. It returns true when the frame wants a term.
func (p *parser) resume() bool {
	f := &p.frames[len(p.frames)-1]
	switch f.kind {
	case fApp:
		p.next()
		if p.kind() != tRParen {
			p.back = true
			return true
		}
		p.reduceApp(f)
	case fLet:
		p.expect(tRParen)
		if f.state == 1 {
			// bindings, then the body: shuffle the bindings
			bindings := p.ws[int(f.base) : len(p.ws)-1]
			if p.scramble {
				p.rnd.shuffle(bindings)
			}
			body := p.ws[len(p.ws)-1]
			p.ws = p.ws[:len(p.ws)-1]
			list := p.reduceFrame(f, refParen)
			p.push(p.a.add(refParen|symLet, []uint32{list, body}))
			break
		}
		p.next()
		if p.kind() == tLParen {
			p.back = true
			p.letBinding()
			return true
		}
		if p.kind() != tRParen {
			p.expected("'(' or ')' after a let binding")
		}
		// the end of the bindings: declare the variables in order, then
		// turn the (name, term) pairs into binding nodes
		pairs := p.ws[int(f.base):]
		for i := 0; i < len(pairs); i += 2 {
			p.declare(pairs[i] & symMask)
		}
		k := int(f.base)
		for i := int(f.base); i < len(p.ws); i += 2 {
			v, t := p.ws[i], p.ws[i+1]
			p.ws[k] = p.a.add(refParen|refName|v&symMask, []uint32{t})
			k++
		}
		p.ws = p.ws[:k]
		f.state = 1
		return true
	case fQuant:
		p.expect(tRParen)
		p.push(p.reduceFrame(f, refParen|f.sym))
	case fAnnot:
		p.next()
		switch p.kind() {
		case tRParen:
			if len(p.ws) == int(f.base)+1 {
				p.expected("an attribute")
			}
			p.push(p.reduceFrame(f, refParen|symBang))
			return false
		case tKeyword:
		default:
			p.expected("an attribute or ')'")
		}
		kw := p.syms.intern(p.sc.tok())
		switch kw {
		case symNamed:
			p.next()
			if p.kind() != tSymbol && p.kind() != tQSymbol {
				p.expected("a name after :named")
			}
			n := p.syms.intern(p.sc.tok())
			p.push(p.a.add(symNamed, []uint32{leaf(n)}))
			return false
		case symPattern:
			p.expect(tLParen)
			p.frames = append(p.frames, frame{kind: fPattern, base: int32(len(p.ws))})
			return true
		}
		p.next()
		if p.kind() == tRParen || p.kind() == tKeyword {
			p.back = true
			p.push(leaf(kw))
			return false
		}
		p.back = true
		v := p.sexpr(false)
		p.push(p.a.add(kw, []uint32{v}))
		return false
	case fPattern:
		p.next()
		if p.kind() != tRParen {
			p.back = true
			return true
		}
		list := p.reduceFrame(f, refParen)
		p.push(p.a.add(symPattern, []uint32{list}))
		return false // back in fAnnot, after an attribute
	case fMatch:
		if f.state == 1 {
			p.expect(tRParen)
			body := p.ws[len(p.ws)-1]
			p.ws[len(p.ws)-1] = p.a.add(refParen, []uint32{f.pat, body})
			p.next()
			if p.kind() == tRParen {
				p.expect(tRParen)
				scrut := p.ws[int(f.base)]
				cases := p.a.add(refParen, p.ws[int(f.base)+1:])
				p.ws = p.ws[:int(f.base)]
				p.frames = p.frames[:len(p.frames)-1]
				p.push(p.a.add(refParen|symMatch, []uint32{scrut, cases}))
				return false
			}
			p.back = true
		} else {
			p.expect(tLParen)
			f.state = 1
		}
		p.expect(tLParen)
		f.pat = p.matchPattern()
		return true
	}
	return false
}

// reduceFrame pops frame f and replaces its items by a node.
func (p *parser) reduceFrame(f *frame, head uint32) uint32 {
	r := p.reduce(int(f.base), head)
	p.frames = p.frames[:len(p.frames)-1]
	return r
}

// matchPattern reads the pattern of a match case: v or (ctor v...),
// declaring the variables, then the constructor.
func (p *parser) matchPattern() uint32 {
	p.next()
	switch p.kind() {
	case tSymbol, tQSymbol:
		p.back = true
		s := p.symbol("a pattern")
		p.declare(s)
		return nameLeaf(s)
	case tLParen:
		c := p.symbol("a constructor")
		base := len(p.ws)
		for {
			p.next()
			if p.kind() == tRParen && len(p.ws) > base {
				break
			}
			p.back = true
			v := p.symbol("a variable")
			p.declare(v)
			p.push(nameLeaf(v))
		}
		p.declare(c)
		return p.reduce(base, refParen|refName|c)
	}
	p.expected("a pattern")
	return 0
}

// reduceApp closes an application: shuffles the arguments of commutative
// operators, or flips a coin for the others and mirrors the comparisons on
// heads.
func (p *parser) reduceApp(f *frame) {
	head := p.ws[int(f.base)]
	args := p.ws[int(f.base)+1:]
	if len(args) == 0 {
		p.syntaxf(p.pos(), "an application needs at least one argument")
	}
	from := p.commutative(head)
	if from >= 0 {
		if p.scramble && len(args) > from {
			p.rnd.shuffle(args[from:])
		}
	} else if p.scramble && p.rnd.next(2) != 0 {
		if m := p.flip(head); m != 0 {
			p.ws[int(f.base)] = leaf(m)
			for i, j := 0, len(args)-1; i < j; i, j = i+1, j-1 {
				args[i], args[j] = args[j], args[i]
			}
		}
	}
	if p.blobs && p.blob(f) {
		return
	}
	p.push(p.reduceFrame(f, refParen))
}

// blobMax bounds the size of a blob: a blob is copied into the blob of each
// enclosing application, so the bound keeps that copying linear.
const blobMax = 256

// blob writes out the application of frame f, whose draws are all made, as
// a token stream when its head and arguments are leaves or blobs and it is
// small. Nothing inside changes any more (an enclosing term only moves it as
// a whole), so writing it now spares building its node and walking it
// later. It reports whether it did.
func (p *parser) blob(f *frame) bool {
	kids := p.ws[int(f.base):]
	a := &p.a
	bb := a.bb
	start := len(bb)
	bb = append(bb, tokOpen)
	for _, c := range kids {
		if c&refLeaf != 0 {
			code := uint32(c&symMask)<<1 + 2 + (c&refName)>>30
			switch {
			case code < 0x80:
				bb = append(bb, byte(code))
			case code < 0x4000:
				bb = append(bb, byte(code)|0x80, byte(code>>7))
			default:
				bb = binary.AppendUvarint(bb, uint64(code))
			}
			continue
		}
		if c&refBlob == 0 {
			a.bb = bb[:start]
			return false
		}
		b := a.blobs[c&^refBlob]
		bb = append(bb, bb[b.off:b.off+b.n]...)
	}
	bb = append(bb, tokClose)
	if len(bb)-start > blobMax {
		a.bb = bb[:start]
		return false
	}
	a.bb = bb
	r := refBlob | uint32(len(a.blobs))
	a.blobs = append(a.blobs, blob{off: uint32(start), n: uint32(len(bb) - start)})
	p.ws = p.ws[:int(f.base)]
	p.frames = p.frames[:len(p.frames)-1]
	p.ws = append(p.ws, r)
	return true
}

// opSym is the symbol that decides how an application with head h is
// scrambled: that of h, or of the identifier in (as identifier sort).
func (p *parser) opSym(h uint32) uint32 {
	s := p.a.headSym(h)
	if s == symAs && h&refLeaf == 0 {
		s = p.a.headSym(p.a.children(h)[0])
	}
	return s
}

// commutative returns the index from which the arguments of an application
// with head h are shuffled, or -1.
func (p *parser) commutative(h uint32) int {
	s := p.opSym(h)
	switch s {
	case symAnd, symOr, symXor, symDistinct:
		return 0
	}
	if !p.logicSet {
		p.rejectf(p.pos(), "logic has not been set")
	}
	switch {
	case s == symEq && !p.isDL:
		return 0
	case (s == symTimes || s == symPlus) && p.isArith:
		return 0
	case s >= symBvand && s <= symBvmul && p.isBV:
		return 0
	case s == symFpEq && p.isFP:
		return 0
	case (s == symFpAdd || s == symFpMul) && p.isFP:
		return 1
	}
	return -1
}

// flip returns the mirror of the comparison at head h in the logic, or 0.
func (p *parser) flip(h uint32) uint32 {
	s := p.opSym(h)
	switch {
	case s >= symLt && s <= symGe && p.isArith,
		s >= symBvslt && s <= symBvuge && p.isBV,
		s >= symFpLt && s <= symFpGeq && p.isFP:
		return mirror[s]
	}
	return 0
}

// flush ends a segment at a check-sat (or the end of the input), as the
// official scrambler does before printing: keep only the core (done as the
// asserts were stored), shuffle each run of declare-fun, then each run of
// assert, then extend the permutation of names to the names declared since
// the last segment.
func (p *parser) flush() {
	seg := p.cmds[p.segStart:]
	if p.scramble && !p.opts.CountAsserts {
		p.shuffleRuns(seg, symDeclareFun)
		p.shuffleRuns(seg, symAssert)
		next := p.syms.nextID
		old := uint32(len(p.perm))
		for i := old; i < next; i++ {
			p.perm = append(p.perm, i)
		}
		if old == 0 {
			old = 1
		}
		for i := old; i+1 < next; i++ {
			j := i + uint32(p.rnd.next(uint64(next-i)))
			p.perm[i], p.perm[j] = p.perm[j], p.perm[i]
		}
	}
	p.segs = append(p.segs, segment{start: p.segStart, end: len(p.cmds), bound: p.syms.nextID})
	p.segStart = len(p.cmds)
	p.namesAtFlush = uint32(len(p.syms.nameID))
}

// shuffleRuns shuffles each run of consecutive commands sym.
func (p *parser) shuffleRuns(seg []cmdRec, sym uint32) {
	for i := 0; i < len(seg); {
		if seg[i].sym != sym {
			i++
			continue
		}
		j := i + 1
		for j < len(seg) && seg[j].sym == sym {
			j++
		}
		if j-i > 1 {
			v := seg[i:j]
			for k := len(v) - 1; k > 0; k-- {
				m := p.rnd.next(uint64(k) + 1)
				v[k], v[m] = v[m], v[k]
			}
		}
		i = j
	}
}

// namedAnnot returns the name of an assert as the official get_named_annot
// finds it.
func (p *parser) namedAnnot(root uint32) string {
	stack := []uint32{root}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cur&(refLeaf|refBlob) != 0 {
			continue
		}
		kids := p.a.children(cur)
		if p.a.headSym(cur) == symBang {
			if len(kids) > 0 {
				stack = append(stack, kids[0])
			}
			for _, attr := range kids[1:] {
				if attr&refLeaf == 0 && p.a.headSym(attr) == symNamed {
					if ak := p.a.children(attr); len(ak) > 0 {
						return p.syms.text[p.a.headSym(ak[0])]
					}
				}
			}
			continue
		}
		stack = append(stack, kids...)
	}
	return ""
}
