package scramble

// The parsed script is a tree shaped like the official scrambler's parse
// tree, since that shape decides how it prints: a node has an optional head
// symbol, may be a "name" (a symbol subject to renaming), may print
// parentheses, and has children. It is stored flat:
//
//   - A ref (uint32) is either a leaf, refLeaf|[refName]|symbol, or the index
//     of a compound node. Leaves, the most common occurrences, take no space
//     beyond their ref.
//   - A compound node is 8 bytes: its head (symbol and flags) and where its
//     children start in kids. Nodes are created when they close, with their
//     children appended to kids at that moment, so the children of node i end
//     where those of node i+1 start and no length is stored.

const (
	refLeaf  = 1 << 31
	refName  = 1 << 30 // a leaf that is a name; in a node head, the head is
	refParen = 1 << 31 // in a node head: print parentheses
	symMask  = 1<<30 - 1
)

type node struct {
	head  uint32 // symbol | refName | refParen; symbol 0 is "no head"
	start uint32 // first child in kids
}

// Well-known symbols, interned first so that their numbers are constants.
const (
	symNone uint32 = iota
	symBang
	symUnderscore
	symAs
	symLet
	symForall
	symExists
	symMatch
	symNamed
	symPattern
	symAssert
	symCheckSat
	symDeclareFun
	symDeclareSort
	symDefineFun
	symDefineSort
	symDeclareDatatypes
	symExit
	symPush
	symPop
	symSetLogic
	symSetOption
	symOne
	symZero
	symAnd
	symOr
	symXor
	symDistinct
	symEq
	symPlus
	symTimes
	symBvand
	symBvor
	symBvxor
	symBvnand
	symBvnor
	symBvcomp
	symBvadd
	symBvmul
	symFpEq
	symFpAdd
	symFpMul
	symLt
	symGt
	symLe
	symGe
	symBvslt
	symBvsgt
	symBvsle
	symBvsge
	symBvult
	symBvugt
	symBvule
	symBvuge
	symFpLt
	symFpGt
	symFpLeq
	symFpGeq
	numWellKnown
)

var wellKnown = [numWellKnown]string{
	"", "!", "_", "as", "let", "forall", "exists", "match", ":named", ":pattern",
	"assert", "check-sat", "declare-fun", "declare-sort", "define-fun", "define-sort",
	"declare-datatypes", "exit", "push", "pop", "set-logic", "set-option", "1", "0",
	"and", "or", "xor", "distinct", "=", "+", "*",
	"bvand", "bvor", "bvxor", "bvnand", "bvnor", "bvcomp", "bvadd", "bvmul",
	"fp.eq", "fp.add", "fp.mul",
	"<", ">", "<=", ">=",
	"bvslt", "bvsgt", "bvsle", "bvsge", "bvult", "bvugt", "bvule", "bvuge",
	"fp.lt", "fp.gt", "fp.leq", "fp.geq",
}

// mirror gives the symbol that a flipped comparison becomes.
var mirror = map[uint32]uint32{
	symLt: symGt, symGt: symLt, symLe: symGe, symGe: symLe,
	symBvslt: symBvsgt, symBvsgt: symBvslt, symBvsle: symBvsge, symBvsge: symBvsle,
	symBvult: symBvugt, symBvugt: symBvult, symBvule: symBvuge, symBvuge: symBvule,
	symFpLt: symFpGt, symFpGt: symFpLt, symFpLeq: symFpGeq, symFpGeq: symFpLeq,
}

// symtab interns the spellings of leaves and heads. Every symbol token also
// gets a name: |foo| and foo are different spellings of one name, and a
// name declared anywhere gets an id (in order of declaration) by which it is
// renamed.
type symtab struct {
	ids    map[string]uint32 // spelling -> symbol
	text   []string          // symbol -> spelling
	nameOf []uint32          // symbol -> name (0: not a symbol token)

	names  map[string]uint32 // unquoted spelling -> name
	nameID []uint32          // name -> declaration id (0: not declared)
	first  []uint32          // name -> the symbol that first spelled it
	nextID uint32            // the next declaration id, from 1
}

func newSymtab() *symtab {
	t := &symtab{
		ids:    make(map[string]uint32, 1024),
		names:  make(map[string]uint32, 1024),
		nameID: []uint32{0},
		first:  []uint32{0},
		nextID: 1,
	}
	for _, s := range wellKnown {
		t.ids[s] = uint32(len(t.text))
		t.text = append(t.text, s)
		t.nameOf = append(t.nameOf, 0)
	}
	return t
}

// intern returns the symbol spelled b; isSym says whether b is a symbol
// token (which makes it a possible name).
func (t *symtab) intern(b []byte, isSym bool) uint32 {
	if id, ok := t.ids[string(b)]; ok {
		if isSym && t.nameOf[id] == 0 {
			t.nameOf[id] = t.nameFor(id)
		}
		return id
	}
	id := uint32(len(t.text))
	s := string(b)
	t.ids[s] = id
	t.text = append(t.text, s)
	t.nameOf = append(t.nameOf, 0)
	if isSym {
		t.nameOf[id] = t.nameFor(id)
	}
	return id
}

// nameFor finds or creates the name of symbol id.
func (t *symtab) nameFor(id uint32) uint32 {
	key := unquote(t.text[id])
	if n, ok := t.names[key]; ok {
		return n
	}
	n := uint32(len(t.nameID))
	t.names[key] = n
	t.nameID = append(t.nameID, 0)
	t.first = append(t.first, id)
	return n
}

// declare gives the name of symbol id a declaration id unless it has one.
func (t *symtab) declare(id uint32) {
	n := t.nameOf[id]
	if n == 0 {
		n = t.nameFor(id)
		t.nameOf[id] = n
	}
	if t.nameID[n] == 0 {
		t.nameID[n] = t.nextID
		t.nextID++
	}
}

// unquote strips the bars of |foo|, as the official scrambler does.
func unquote(s string) string {
	if len(s) > 1 && s[0] == '|' && s[len(s)-1] == '|' {
		return s[1 : len(s)-1]
	}
	return s
}

// arena holds the nodes of a script.
type arena struct {
	nodes []node
	kids  []uint32
}

// add creates a node with the given head and children and returns its ref.
func (a *arena) add(head uint32, children []uint32) uint32 {
	r := uint32(len(a.nodes))
	a.nodes = append(a.nodes, node{head: head, start: uint32(len(a.kids))})
	a.kids = append(a.kids, children...)
	return r
}

// children returns the children of compound node r.
func (a *arena) children(r uint32) []uint32 {
	end := uint32(len(a.kids))
	if int(r)+1 < len(a.nodes) {
		end = a.nodes[r+1].start
	}
	return a.kids[a.nodes[r].start:end]
}

// headSym returns the head symbol of ref r: the symbol of a leaf, or the head
// of a node (symNone when it has none).
func (a *arena) headSym(r uint32) uint32 {
	if r&refLeaf != 0 {
		return r & symMask
	}
	return a.nodes[r].head & symMask
}
