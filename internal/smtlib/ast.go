package smtlib

import "strings"

// Term is one occurrence of a term (or sort, or s-expression) in a Script:
// an index into the script's arena. Every Term has a position. Terms are only
// meaningful together with the Script that made them.
type Term uint32

// NoTerm stands for an absent term, such as the value of an attribute that has
// none.
const NoTerm Term = ^Term(0)

// Kind is the syntactic class of a term.
type Kind uint8

// The kinds of terms. Leaves (symbols and constants) have no children; the
// layout of the children of the other kinds is given next to each.
const (
	KindNone      Kind = iota // absent value (NoTerm, attribute without value)
	KindSymbol                // simple or quoted symbol; Name is the symbol without bars
	KindNumeral               // 42
	KindDecimal               // 4.2
	KindHex                   // #x2a
	KindBinary                // #b101
	KindString                // "a ""quoted"" string", as written
	KindKeyword               // :named
	KindApp                   // (f t1 ... tn): Head is f, Args are t1..tn
	KindIndexed               // (_ f i1 ... in): Head is f, Args are the indices
	KindQualified             // (as f s): Head is the identifier f, Arg 0 the sort s
	KindLet                   // (let ((v1 t1) ... (vn tn)) b): Args v1 t1 ... vn tn b
	KindForall                // (forall ((v1 s1) ...) b): Args v1 s1 ... vn sn b
	KindExists                // (exists ((v1 s1) ...) b): Args v1 s1 ... vn sn b
	KindMatch                 // (match t ((p1 t1) ...)): Args t p1 t1 ... pn tn
	KindAnnotated             // (! t :k1 v1 ...): Args t k1 v1 ...; a missing value is KindNone
	KindList                  // (x1 ... xn): sort lists, sorted variables, s-expressions
	KindPar                   // (par (u1 ... un) x): Args (u1 ... un) x, in datatype declarations
	kindCommand               // a command's own node; never visible as a Term
)

var kindNames = [...]string{"none", "symbol", "numeral", "decimal", "hexadecimal", "binary",
	"string", "keyword", "application", "indexed identifier", "qualified identifier", "let",
	"forall", "exists", "match", "annotation", "list", "par", "command"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// IsConstant reports whether k is a spec_constant of SMT-LIB.
func (k Kind) IsConstant() bool { return k >= KindNumeral && k <= KindString }

// hasHead reports whether the first child of a node of kind k is its head.
func (k Kind) hasHead() bool { return k == KindApp || k == KindIndexed || k == KindQualified }

// A slot is one occurrence: what it refers to, and where it is.
type slot struct {
	ref uint32
	pos Pos
}

// A ref's top two bits say what its index counts.
const (
	tagNode  = 0 << 30
	tagSym   = 1 << 30
	tagConst = 2 << 30
	tagNone  = 3 << 30
	tagMask  = 3 << 30
	maxIndex = 1<<30 - 1
)

// node is a compound term. Its children are the slots from start up to the
// next node's start: children are written when their parent closes, so the
// blocks of consecutive nodes are adjacent. This keeps a node at 8 bytes.
type node struct {
	kind  Kind
	cmd   CommandKind
	start uint32
}

// Script is a parsed SMT-LIB script: its commands and the arena that holds
// their terms.
type Script struct {
	File *File

	cmds   []Command
	slots  []slot
	nodes  []node
	syms   []string // names of the symbols, indexed by a tagSym ref
	consts []string // texts of constants and keywords, by a tagConst ref

	symTab   *interner // owns syms while parsing
	constTab *interner
}

// Command is one command of a script.
type Command struct {
	Kind CommandKind
	Pos  Pos
	node uint32
}

func newScript(file *File) *Script {
	return &Script{File: file, symTab: newInterner(), constTab: newInterner()}
}

// Commands returns the commands of the script in order.
func (s *Script) Commands() []Command { return s.cmds }

// Position expands a Pos of this script.
func (s *Script) Position(p Pos) Position { return s.File.Position(p) }

// Pos returns where t occurs.
func (s *Script) Pos(t Term) Pos {
	if t == NoTerm {
		return NoPos
	}
	return s.slots[t].pos
}

// Kind returns the syntactic class of t.
func (s *Script) Kind(t Term) Kind {
	if t == NoTerm {
		return KindNone
	}
	ref := s.slots[t].ref
	switch ref & tagMask {
	case tagNode:
		return s.nodes[ref].kind
	case tagSym:
		return KindSymbol
	case tagConst:
		return constKind(s.consts[ref&maxIndex])
	}
	return KindNone
}

func constKind(text string) Kind {
	switch text[0] {
	case ':':
		return KindKeyword
	case '"':
		return KindString
	case '#':
		if len(text) > 1 && text[1] == 'x' {
			return KindHex
		}
		return KindBinary
	}
	if strings.IndexByte(text, '.') >= 0 {
		return KindDecimal
	}
	return KindNumeral
}

// Name returns the name of a symbol (without bars), the text of a constant or
// keyword as written, or "" for compound terms.
func (s *Script) Name(t Term) string {
	if t == NoTerm {
		return ""
	}
	ref := s.slots[t].ref
	switch ref & tagMask {
	case tagSym:
		return s.syms[ref&maxIndex]
	case tagConst:
		return s.consts[ref&maxIndex]
	}
	return ""
}

// SymbolIndex returns the index of the symbol t among the script's
// interned symbols (0 to NumSymbols()-1), and false if t is not a symbol:
// what evaluators key per-script caches by.
func (s *Script) SymbolIndex(t Term) (int, bool) {
	if t == NoTerm {
		return 0, false
	}
	ref := s.slots[t].ref
	if ref&tagMask != tagSym {
		return 0, false
	}
	return int(ref & maxIndex), true
}

// ConstIndex returns the index of the constant t among the script's
// interned constant texts (0 to NumConsts()-1), and false if t is not a
// constant or keyword: what evaluators key per-script caches of constant
// values by.
func (s *Script) ConstIndex(t Term) (int, bool) {
	if t == NoTerm {
		return 0, false
	}
	ref := s.slots[t].ref
	if ref&tagMask != tagConst {
		return 0, false
	}
	return int(ref & maxIndex), true
}

// NumConsts returns how many distinct constant and keyword texts the
// script uses.
func (s *Script) NumConsts() int { return len(s.consts) }

// IsSymbol reports whether t is the symbol name.
func (s *Script) IsSymbol(t Term, name string) bool {
	if t == NoTerm {
		return false
	}
	ref := s.slots[t].ref
	return ref&tagMask == tagSym && s.syms[ref&maxIndex] == name
}

// children returns the range of child slots of t.
func (s *Script) children(t Term) (start, end uint32) {
	if t == NoTerm {
		return 0, 0
	}
	ref := s.slots[t].ref
	if ref&tagMask != tagNode {
		return 0, 0
	}
	return s.nodeRange(ref)
}

func (s *Script) nodeRange(n uint32) (start, end uint32) {
	start = s.nodes[n].start
	if int(n)+1 < len(s.nodes) {
		return start, s.nodes[n+1].start
	}
	return start, uint32(len(s.slots))
}

// Head returns the head of an application, indexed or qualified identifier,
// and NoTerm for other kinds.
func (s *Script) Head(t Term) Term {
	if !s.Kind(t).hasHead() {
		return NoTerm
	}
	start, _ := s.children(t)
	return Term(start)
}

// NumArgs returns the number of arguments of t (not counting a head).
func (s *Script) NumArgs(t Term) int {
	start, end := s.children(t)
	n := int(end - start)
	if n > 0 && s.Kind(t).hasHead() {
		n--
	}
	return n
}

// Arg returns argument i of t (not counting a head).
func (s *Script) Arg(t Term, i int) Term {
	start, _ := s.children(t)
	if s.Kind(t).hasHead() {
		start++
	}
	return Term(start + uint32(i))
}

// Args returns the arguments of t (not counting a head) as a fresh slice.
// Loops over large terms should prefer NumArgs and Arg.
func (s *Script) Args(t Term) []Term {
	n := s.NumArgs(t)
	if n == 0 {
		return nil
	}
	out := make([]Term, n)
	first := s.Arg(t, 0)
	for i := range out {
		out[i] = first + Term(i)
	}
	return out
}

// NumChildren and Child give every child of t, the head included: the
// uniform view that generic walks use.
func (s *Script) NumChildren(t Term) int {
	start, end := s.children(t)
	return int(end - start)
}

// Child returns child i of t, counting a head as child 0.
func (s *Script) Child(t Term, i int) Term {
	start, _ := s.children(t)
	return Term(start + uint32(i))
}

// CmdNumArgs returns the number of arguments of the command c.
func (s *Script) CmdNumArgs(c Command) int {
	start, end := s.nodeRange(c.node)
	return int(end - start)
}

// CmdArg returns argument i of the command c; the layout per command kind is
// documented with CommandKind.
func (s *Script) CmdArg(c Command, i int) Term {
	start, _ := s.nodeRange(c.node)
	return Term(start + uint32(i))
}

// CmdArgs returns the arguments of c as a fresh slice.
func (s *Script) CmdArgs(c Command) []Term {
	start, end := s.nodeRange(c.node)
	out := make([]Term, end-start)
	for i := range out {
		out[i] = Term(start + uint32(i))
	}
	return out
}

func (s *Script) internSym(b []byte) uint32 {
	i := s.symTab.intern(b)
	s.syms = s.symTab.names
	return i
}

func (s *Script) internConst(b []byte) uint32 {
	i := s.constTab.intern(b)
	s.consts = s.constTab.names
	return i
}

// NumSymbols returns how many distinct symbols the script uses.
func (s *Script) NumSymbols() int { return len(s.syms) }

// Size returns the number of term occurrences in the script's arena.
func (s *Script) Size() int { return len(s.slots) }

// trim gives back the spare capacity of the arena once parsing is done.
func (s *Script) trim() {
	if wasted(cap(s.slots), len(s.slots)) {
		s.slots = append([]slot(nil), s.slots...)
	}
	if wasted(cap(s.nodes), len(s.nodes)) {
		s.nodes = append([]node(nil), s.nodes...)
	}
}

// wasted says whether an arena's unused room is worth a copy to give it
// back: over an eighth of it, and over 16384 elements (a small script's
// copy would cost more than the room).
func wasted(capacity, length int) bool {
	return capacity-length > length/8 && capacity-length > 1<<14
}
