package smtlib

import (
	"strconv"
	"strings"
)

// Sort identifies a sort within one checked script. NoSort marks a term whose
// sort is unknown because of an error, so that one mistake is reported once
// and not again at every enclosing term.
type Sort uint32

// The sorts every checked script knows by number.
const (
	NoSort Sort = iota
	SortBool
	SortInt
	SortReal
	SortString
	SortRegLan
	SortRoundingMode
)

// sortClass says what a sort is made of.
type sortClass uint8

const (
	classNone sortClass = iota
	classBool
	classInt
	classReal
	classString
	classRegLan
	classRoundingMode
	classBitVec // n is the width
	classFloat  // n, m are eb and sb
	classArray  // args are index and element
	classUser   // declared sort or datatype: decl, args
	classParam  // sort parameter n of a par declaration
)

type sortData struct {
	class sortClass
	n, m  uint32
	args  []Sort
	decl  *sortDecl // classUser
	name  string    // classParam
}

// sortDecl is a declared sort symbol: declare-sort, a datatype, or a
// define-sort macro (which never becomes a sort of its own).
type sortDecl struct {
	name  string
	arity int
	id    int // tells apart two declarations of one name (after pop)
	dt    *datatype

	// define-sort
	macro  bool
	params []string
	body   Term
}

// sortTable interns sorts so that equal sorts have equal numbers.
type sortTable struct {
	data  []sortData
	index map[string]Sort
	key   []byte
}

func newSortTable() *sortTable {
	t := &sortTable{index: make(map[string]Sort)}
	for c := classNone; c <= classRoundingMode; c++ {
		t.data = append(t.data, sortData{class: c})
	}
	return t
}

func (t *sortTable) intern(d sortData) Sort {
	k := append(t.key[:0], byte(d.class))
	k = strconv.AppendUint(k, uint64(d.n), 10)
	k = append(k, ',')
	k = strconv.AppendUint(k, uint64(d.m), 10)
	if d.decl != nil {
		k = append(k, 'd')
		k = strconv.AppendInt(k, int64(d.decl.id), 10)
	}
	if d.class == classParam {
		k = append(k, d.name...)
	}
	for _, a := range d.args {
		k = append(k, ' ')
		k = strconv.AppendUint(k, uint64(a), 10)
	}
	t.key = k
	if s, ok := t.index[string(k)]; ok {
		return s
	}
	s := Sort(len(t.data))
	t.data = append(t.data, d)
	t.index[string(k)] = s
	return s
}

func (t *sortTable) bitVec(width uint32) Sort {
	return t.intern(sortData{class: classBitVec, n: width})
}

func (t *sortTable) float(eb, sb uint32) Sort {
	return t.intern(sortData{class: classFloat, n: eb, m: sb})
}

func (t *sortTable) array(index, elem Sort) Sort {
	return t.intern(sortData{class: classArray, args: []Sort{index, elem}})
}

func (t *sortTable) class(s Sort) sortClass { return t.data[s].class }

// width returns the width of a bit-vector sort, or 0.
func (t *sortTable) width(s Sort) uint32 {
	if t.data[s].class != classBitVec {
		return 0
	}
	return t.data[s].n
}

// hasParams reports whether s mentions a sort parameter.
func (t *sortTable) hasParams(s Sort) bool {
	d := &t.data[s]
	if d.class == classParam {
		return true
	}
	for _, a := range d.args {
		if t.hasParams(a) {
			return true
		}
	}
	return false
}

// subst replaces the parameters of s by the sorts in env (by parameter
// number). The depth of s is that of a declaration written by hand, so
// recursion is fine here.
func (t *sortTable) subst(s Sort, env []Sort) Sort {
	d := t.data[s]
	switch d.class {
	case classParam:
		if int(d.n) < len(env) && env[d.n] != NoSort {
			return env[d.n]
		}
		return s
	case classArray, classUser:
		if len(d.args) == 0 {
			return s
		}
		args := make([]Sort, len(d.args))
		for i, a := range d.args {
			args[i] = t.subst(a, env)
		}
		d.args = args
		return t.intern(d)
	}
	return s
}

// match binds the parameters of the pattern p so that it equals s, and
// reports whether that is possible.
func (t *sortTable) match(p, s Sort, env []Sort) bool {
	if p == s {
		return true
	}
	dp, ds := &t.data[p], &t.data[s]
	if dp.class == classParam {
		if env[dp.n] == NoSort {
			env[dp.n] = s
			return true
		}
		return env[dp.n] == s
	}
	if dp.class != ds.class || dp.decl != ds.decl || len(dp.args) != len(ds.args) ||
		(dp.class != classUser && dp.class != classArray) {
		return false
	}
	for i := range dp.args {
		if !t.match(dp.args[i], ds.args[i], env) {
			return false
		}
	}
	return true
}

// String writes s as SMT-LIB writes it.
func (t *sortTable) String(s Sort) string {
	var b strings.Builder
	t.write(&b, s)
	return b.String()
}

func (t *sortTable) write(b *strings.Builder, s Sort) {
	d := &t.data[s]
	switch d.class {
	case classNone:
		b.WriteString("?")
	case classBool:
		b.WriteString("Bool")
	case classInt:
		b.WriteString("Int")
	case classReal:
		b.WriteString("Real")
	case classString:
		b.WriteString("String")
	case classRegLan:
		b.WriteString("RegLan")
	case classRoundingMode:
		b.WriteString("RoundingMode")
	case classBitVec:
		b.WriteString("(_ BitVec ")
		b.WriteString(strconv.FormatUint(uint64(d.n), 10))
		b.WriteByte(')')
	case classFloat:
		b.WriteString("(_ FloatingPoint ")
		b.WriteString(strconv.FormatUint(uint64(d.n), 10))
		b.WriteByte(' ')
		b.WriteString(strconv.FormatUint(uint64(d.m), 10))
		b.WriteByte(')')
	case classArray:
		b.WriteString("(Array ")
		t.write(b, d.args[0])
		b.WriteByte(' ')
		t.write(b, d.args[1])
		b.WriteByte(')')
	case classUser:
		if len(d.args) == 0 {
			b.WriteString(QuoteSymbol(d.decl.name))
			return
		}
		b.WriteByte('(')
		b.WriteString(QuoteSymbol(d.decl.name))
		for _, a := range d.args {
			b.WriteByte(' ')
			t.write(b, a)
		}
		b.WriteByte(')')
	case classParam:
		b.WriteString(QuoteSymbol(d.name))
	}
}
