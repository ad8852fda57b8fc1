package scramble

import "encoding/binary"

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
	refBlob  = 1 << 30 // not a leaf: a blob, a term already written out
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
	slots []slot   // open addressing, a power of two long
	text  []string // symbol -> spelling
	// symbol -> name; 0 for spellings that are not symbols (numerals,
	// keywords, strings)
	nameOf []uint32

	names  map[string]uint32 // unquoted spelling -> name
	nameID []uint32          // name -> declaration id (0: not declared)
	first  []uint32          // name -> the symbol that first spelled it
	nextID uint32            // the next declaration id, from 1
}

// slot is an entry of the symbol table: the first eight bytes of the
// spelling (which with its length decide equality for short ones), its
// hash, length, and symbol plus one (0 for a free slot).
type slot struct {
	key  uint64
	hash uint32
	n    uint16 // length, saturated
	_    uint16
	id   uint32
}

func newSymtab() *symtab {
	t := &symtab{
		slots:  make([]slot, 1024),
		names:  make(map[string]uint32, 1024),
		nameID: []uint32{0},
		first:  []uint32{0},
		nextID: 1,
	}
	for _, s := range wellKnown {
		t.intern([]byte(s))
	}
	return t
}

// key returns the first eight bytes of b, little-endian, zero-padded, and
// a hash of b.
func key(b []byte) (uint64, uint32) {
	var k uint64
	if n := len(b); n <= 8 {
		if cap(b) >= 8 {
			// read eight bytes (the spare capacity of the scanner's
			// window) and keep those of b
			k = binary.LittleEndian.Uint64(b[:8]) & shortMask[n]
		} else {
			for i := n - 1; i >= 0; i-- {
				k = k<<8 | uint64(b[i])
			}
		}
		return k, uint32((k*0x9E3779B97F4A7C15)>>32) ^ uint32(n)
	}
	k = binary.LittleEndian.Uint64(b)
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return k, h
}

// shortMask[n] keeps the first n bytes of a little-endian word.
var shortMask = [9]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, 0xffffffffffffffff}

// intern returns the symbol spelled b.
func (t *symtab) intern(b []byte) uint32 {
	if n := len(b); n <= 8 && cap(b) >= 8 {
		// short spellings: the first eight bytes and the length decide
		k := binary.LittleEndian.Uint64(b[:8]) & shortMask[n]
		h := uint32((k*0x9E3779B97F4A7C15)>>32) ^ uint32(n)
		slots := t.slots
		mask := uint32(len(slots) - 1)
		for i := h & mask; ; i = (i + 1) & mask {
			e := &slots[i]
			if e.key == k && e.n == uint16(n) && e.id != 0 {
				return e.id - 1
			}
			if e.id == 0 {
				return t.add(b, k, h)
			}
		}
	}
	k, h := key(b)
	n := uint16(min(len(b), 0xffff))
	slots := t.slots
	mask := uint32(len(slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &slots[i]
		if e.id == 0 {
			break
		}
		if e.key == k && e.hash == h && e.n == n && (len(b) <= 8 || t.text[e.id-1] == string(b)) {
			return e.id - 1
		}
	}
	return t.add(b, k, h)
}

// add enters a new spelling.
func (t *symtab) add(b []byte, k uint64, h uint32) uint32 {
	id := uint32(len(t.text))
	t.text = append(t.text, string(b))
	t.nameOf = append(t.nameOf, 0)
	if len(b) > 0 && (class[b[0]]&cSymStart != 0 || b[0] == '|') {
		t.nameOf[id] = t.nameFor(id)
	}
	if 2*len(t.text) > len(t.slots) {
		t.rehash()
	}
	t.put(slot{key: k, hash: h, n: uint16(min(len(b), 0xffff)), id: id + 1})
	return id
}

func (t *symtab) put(e slot) {
	mask := uint32(len(t.slots) - 1)
	i := e.hash & mask
	for t.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = e
}

// rehash doubles the table.
func (t *symtab) rehash() {
	old := t.slots
	t.slots = make([]slot, 2*len(old))
	for _, e := range old {
		if e.id != 0 {
			t.put(e)
		}
	}
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

// arena holds the nodes of a script in chunks, so that it grows without
// copying what it holds (a copy would briefly need twice the memory).
//
// Nodes live in chunks of nodeChunk. Child refs live in blocks of kidBlock
// entries: an allocation is a whole number of blocks, and kids[b] is the part
// of the allocation that starts with block b, so that kids[g>>kidBits]
// [g&kidMask:] reaches the end of g's allocation. The children of a node are
// always in one allocation. When they do not fit in what is left of the
// current one, the rest is skipped and an unused node marks where the
// previous node's children end.
type arena struct {
	// blobs are applications already written out as token streams (see
	// parser.blob); blob i is bb[blobs[i].off:][:blobs[i].n]
	bb    []byte
	blobs []blob

	nodes [][]node // chunks; the first may be shorter than nodeChunk
	nn    uint32   // nodes
	kids  [][]uint32
	nk    uint32   // the next free child slot (global index)
	buf   []uint32 // the current allocation; slot nk is buf[off]
	off   int
	grow  int // the size of the next allocation, in blocks
}

const (
	nodeBits  = 16
	nodeChunk = 1 << nodeBits
	kidBits   = 12
	kidBlock  = 1 << kidBits
	kidMask   = kidBlock - 1
	maxGrow   = 256 // blocks: allocations of up to 1M child refs
)

func (a *arena) node(r uint32) *node { return &a.nodes[r>>nodeBits][r&(nodeChunk-1)] }

func (a *arena) newNode(n node) uint32 {
	r := a.nn
	ci, j := int(r>>nodeBits), int(r&(nodeChunk-1))
	if ci == len(a.nodes) || j == len(a.nodes[ci]) {
		a.growNodes(ci)
	}
	a.nodes[ci][j] = n
	a.nn++
	return r
}

// growNodes makes room for the next node in chunk ci.
func (a *arena) growNodes(ci int) {
	if ci == len(a.nodes) {
		size := nodeChunk
		if ci == 0 {
			size = 1024 // small commands stay small
		}
		a.nodes = append(a.nodes, make([]node, size))
		return
	}
	c := make([]node, min(2*len(a.nodes[ci]), nodeChunk))
	copy(c, a.nodes[ci])
	a.nodes[ci] = c
}

// reserve makes room for n child refs in one allocation.
func (a *arena) reserve(n int) {
	if rest := len(a.buf) - a.off; rest > 0 {
		// skip the rest of the current allocation; an unused node marks
		// where the children of the last node end
		if a.nn > 0 {
			a.newNode(node{start: a.nk})
		}
		a.nk += uint32(rest)
	}
	a.grow = min(max(a.grow*2, 1), maxGrow)
	blocks := max(a.grow, (n+kidMask)/kidBlock)
	buf := make([]uint32, blocks*kidBlock)
	for b := 0; b < blocks; b++ {
		a.kids = append(a.kids, buf[b*kidBlock:])
	}
	a.buf, a.off = buf, 0
}

// add creates a node with the given head and children and returns its ref.
func (a *arena) add(head uint32, children []uint32) uint32 {
	if len(children) > len(a.buf)-a.off {
		a.reserve(len(children))
	}
	r := a.newNode(node{head: head, start: a.nk})
	copy(a.buf[a.off:], children)
	a.off += len(children)
	a.nk += uint32(len(children))
	return r
}

// children returns the children of compound node r.
func (a *arena) children(r uint32) []uint32 {
	start := a.node(r).start
	end := a.nk
	if r+1 < a.nn {
		end = a.node(r + 1).start
	}
	if end == start {
		return nil
	}
	return a.kids[start>>kidBits][start&kidMask : start&kidMask+end-start]
}

// headSym returns the head symbol of ref r: the symbol of a leaf, or the head
// of a node (symNone when it has none).
func (a *arena) headSym(r uint32) uint32 {
	if r&refLeaf != 0 {
		return r & symMask
	}
	if r&refBlob != 0 {
		return symNone
	}
	return a.node(r).head & symMask
}

type blob struct{ off, n uint32 }

// blobBytes returns the token stream of blob ref r.
func (a *arena) blobBytes(r uint32) []byte {
	b := a.blobs[r&^refBlob]
	return a.bb[b.off : b.off+b.n]
}

// reset empties the arena, keeping its first allocations for reuse.
func (a *arena) reset() {
	a.bb, a.blobs = a.bb[:0], a.blobs[:0]
	if len(a.nodes) > 1 {
		a.nodes = a.nodes[:1]
	}
	a.nn = 0
	if len(a.kids) > 0 {
		first := a.kids[0][:cap(a.kids[0])]
		a.kids = a.kids[:(len(first)+kidMask)/kidBlock]
		a.buf, a.off = first, 0
	}
	a.nk = 0
}
