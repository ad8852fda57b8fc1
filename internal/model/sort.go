package model

import (
	"fmt"
	"strconv"
	"strings"
)

// sortKind is the family of a sort.
type sortKind uint8

const (
	skBool sortKind = iota + 1
	skInt
	skReal
	skBV
	skFP
	skRM
	skArray
	skUninterp // declare-sort, and sorts the validator does not evaluate
	skDatatype
	skString // strings, sequences, regular languages: unsupported
	skParam  // a parameter of a parametric datatype, in its field sorts: w is its index
)

// sortID identifies a sort in a sortTable; 0 is no sort.
type sortID int32

const (
	noSort   sortID = 0
	sortBool sortID = 1
	sortInt  sortID = 2
	sortReal sortID = 3
	sortRM   sortID = 4
)

type sortInfo struct {
	kind sortKind
	name string   // uninterpreted and datatype sorts: the name
	args []sortID // array: index, element; parametric sorts: parameters
	w, s int      // BV: width; FP: exponent and significand widths
	key  string
}

// sortTable interns sorts so that equal sorts have equal ids.
type sortTable struct {
	infos []sortInfo
	byKey map[string]sortID
	bvs   map[int]sortID // bit-vector sorts by width, without building keys
	// bv64 holds the sorts of widths up to 64 once made (noSort before):
	// every bit-vector value is given one.
	bv64 [65]sortID
}

func newSortTable() *sortTable {
	t := &sortTable{infos: []sortInfo{{}}, byKey: map[string]sortID{}, bvs: map[int]sortID{}}
	t.intern(sortInfo{kind: skBool, key: "Bool"})
	t.intern(sortInfo{kind: skInt, key: "Int"})
	t.intern(sortInfo{kind: skReal, key: "Real"})
	t.intern(sortInfo{kind: skRM, key: "RoundingMode"})
	return t
}

func (t *sortTable) intern(si sortInfo) sortID {
	if id, ok := t.byKey[si.key]; ok {
		return id
	}
	id := sortID(len(t.infos))
	t.infos = append(t.infos, si)
	t.byKey[si.key] = id
	return id
}

func (t *sortTable) info(id sortID) *sortInfo { return &t.infos[id] }

func (t *sortTable) String(id sortID) string {
	if id == noSort || int(id) >= len(t.infos) {
		return "?"
	}
	return t.infos[id].key
}

// maxWidth bounds bit-vector and floating-point widths: a wider sort is
// reported as a resource limit rather than allocated.
const maxWidth = 1 << 24

func (t *sortTable) bv(w int) sortID {
	if w >= 0 && w < len(t.bv64) && t.bv64[w] != noSort {
		return t.bv64[w]
	}
	if id, ok := t.bvs[w]; ok {
		return id
	}
	id := t.intern(sortInfo{kind: skBV, w: w, key: "(_ BitVec " + strconv.Itoa(w) + ")"})
	t.bvs[w] = id
	if w >= 0 && w < len(t.bv64) {
		t.bv64[w] = id
	}
	return id
}

func (t *sortTable) fp(eb, sb int) sortID {
	return t.intern(sortInfo{kind: skFP, w: eb, s: sb, key: fmt.Sprintf("(_ FloatingPoint %d %d)", eb, sb)})
}

func (t *sortTable) array(i, e sortID) sortID {
	return t.intern(sortInfo{kind: skArray, args: []sortID{i, e},
		key: "(Array " + t.String(i) + " " + t.String(e) + ")"})
}

func (t *sortTable) named(kind sortKind, name string, args []sortID) sortID {
	key := name
	if len(args) > 0 {
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = t.String(a)
		}
		key = "(" + name + " " + strings.Join(parts, " ") + ")"
	}
	return t.intern(sortInfo{kind: kind, name: name, args: args, key: key})
}

func (t *sortTable) kind(id sortID) sortKind { return t.infos[id].kind }

// width returns a bit-vector sort's width.
func (t *sortTable) width(id sortID) int { return t.infos[id].w }

// subst replaces the placeholders (skParam) in sort id by args.
func (t *sortTable) subst(id sortID, args []sortID) sortID {
	si := t.infos[id] // a copy: interning may move the table
	switch {
	case si.kind == skParam:
		if si.w < len(args) {
			return args[si.w]
		}
		return id
	case len(si.args) == 0:
		return id
	case si.kind == skArray:
		return t.array(t.subst(si.args[0], args), t.subst(si.args[1], args))
	}
	nargs := make([]sortID, len(si.args))
	for k, a := range si.args {
		nargs[k] = t.subst(a, args)
	}
	return t.named(si.kind, si.name, nargs)
}

// unify matches sort pattern pat (over placeholders) with sort conc,
// binding placeholders in binds by their index. A sort not known (noSort)
// matches anything and binds nothing.
func (t *sortTable) unify(pat, conc sortID, binds []sortID) bool {
	if conc == noSort {
		return true
	}
	p := t.infos[pat]
	if p.kind == skParam {
		if p.w >= len(binds) {
			return false
		}
		switch b := binds[p.w]; {
		case b == noSort, b == sortInt && conc == sortReal:
			// An Int where a Real is found too is a Real, as an Int value
			// where a Real is declared is converted (coerce).
			binds[p.w] = conc
			return true
		case b == sortReal && conc == sortInt:
			return true
		}
		return binds[p.w] == conc
	}
	if len(p.args) == 0 {
		return pat == conc
	}
	c := t.infos[conc]
	if p.kind != c.kind || p.name != c.name || len(p.args) != len(c.args) {
		return false
	}
	for k := range p.args {
		if !t.unify(p.args[k], c.args[k], binds) {
			return false
		}
	}
	return true
}
