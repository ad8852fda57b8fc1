package benchgen

import (
	"fmt"
	"io"
	"strconv"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// PigeonEncoding says how a pigeonhole benchmark encodes "pigeon i sits in
// hole j", and so which logic it is in.
type PigeonEncoding string

// The encodings of the pigeonhole principle.
const (
	// PigeonBool: a Boolean p_i_j per pigeon and hole; every pigeon in some
	// hole, no hole with two pigeons (QF_UF).
	PigeonBool PigeonEncoding = "bool"
	// PigeonSort: holes and pigeons are constants of a declared sort Hole;
	// the pigeons are distinct and each equals one of the holes (QF_UF).
	PigeonSort PigeonEncoding = "sort"
	// PigeonZeroOne: an integer 0 <= x_i_j <= 1 per pigeon and hole, a sum
	// >= 1 per pigeon and <= 1 per hole (QF_LIA; its linear relaxation is
	// already infeasible, so it is easy).
	PigeonZeroOne PigeonEncoding = "01"
	// PigeonInt: the hole of pigeon i is an integer 1 <= h_i <= holes, and
	// the h_i are distinct (QF_LIA).
	PigeonInt PigeonEncoding = "int"
)

// PigeonEncodings lists the encodings.
var PigeonEncodings = []PigeonEncoding{PigeonBool, PigeonSort, PigeonZeroOne, PigeonInt}

// Logic returns the logic of the encoding.
func (enc PigeonEncoding) Logic() string {
	switch enc {
	case PigeonZeroOne, PigeonInt:
		return "QF_LIA"
	}
	return "QF_UF"
}

// PigeonholeOptions shape a pigeonhole benchmark.
type PigeonholeOptions struct {
	Encoding PigeonEncoding
	Pigeons  int
	Holes    int
}

// Status is unsat when there are more pigeons than holes, sat otherwise.
func (o PigeonholeOptions) Status() benchmark.Status { return statusOf(o.Pigeons <= o.Holes) }

// Pigeonhole writes a benchmark that puts o.Pigeons pigeons in o.Holes holes,
// at most one per hole.
func Pigeonhole(w io.Writer, o PigeonholeOptions) error {
	if o.Pigeons < 1 || o.Holes < 1 {
		return fmt.Errorf("pigeonhole: need at least one pigeon and one hole, have %d and %d", o.Pigeons, o.Holes)
	}
	e := newEmitter(w)
	e.header(o.Encoding.Logic(), benchmark.Crafted, o.Status(),
		fmt.Sprintf("Pigeonhole principle: %d pigeons in %d holes, at most one pigeon per hole (%s encoding).", o.Pigeons, o.Holes, o.Encoding),
		"Satisfiable if and only if there are no more pigeons than holes.")
	m, n := o.Pigeons, o.Holes
	switch o.Encoding {
	case PigeonBool:
		for i := range m {
			for j := range n {
				e.str("(declare-fun ")
				pij(e, "p", i, j)
				e.str(" () Bool)\n")
			}
			e.flush()
		}
		pigeonClauses(e, m, n, 0)
	case PigeonSort:
		e.str("(declare-sort Hole 0)\n")
		e.declare("hole", n, "Hole")
		e.declare("pigeon", m, "Hole")
		if m > 1 {
			e.str("(assert (distinct")
			for i := range m {
				e.byte(' ')
				e.sym("pigeon", i)
			}
			e.byte(')')
			e.endCmd()
		}
		for i := range m {
			e.str("(assert ")
			if n > 1 {
				e.str("(or")
			}
			for j := range n {
				e.str(" (= ")
				e.sym("pigeon", i)
				e.byte(' ')
				e.sym("hole", j)
				e.byte(')')
			}
			if n > 1 {
				e.byte(')')
			}
			e.endCmd()
		}
	case PigeonZeroOne:
		for i := range m {
			for j := range n {
				e.str("(declare-fun ")
				pij(e, "x", i, j)
				e.str(" () Int)\n")
			}
			e.flush()
		}
		for i := range m {
			for j := range n {
				e.str("(assert (and (<= 0 ")
				pij(e, "x", i, j)
				e.str(") (<= ")
				pij(e, "x", i, j)
				e.str(" 1))")
				e.endCmd()
			}
		}
		sum := func(first, count int, at func(k int) (int, int)) {
			if count > 1 {
				e.str("(+")
			}
			for k := range count {
				i, j := at(first + k)
				e.byte(' ')
				pij(e, "x", i, j)
			}
			if count > 1 {
				e.byte(')')
			}
		}
		for i := range m {
			e.str("(assert (>= ")
			sum(0, n, func(j int) (int, int) { return i, j })
			e.str(" 1)")
			e.endCmd()
		}
		for j := range n {
			e.str("(assert (<= ")
			sum(0, m, func(i int) (int, int) { return i, j })
			e.str(" 1)")
			e.endCmd()
		}
	case PigeonInt:
		e.declare("h", m, "Int")
		for i := range m {
			e.str("(assert (and (<= 1 ")
			e.sym("h", i)
			e.str(") (<= ")
			e.sym("h", i)
			e.byte(' ')
			e.nat(int64(n))
			e.str("))")
			e.endCmd()
		}
		if m > 1 {
			e.str("(assert (distinct")
			for i := range m {
				e.byte(' ')
				e.sym("h", i)
			}
			e.byte(')')
			e.endCmd()
		}
	default:
		return fmt.Errorf("pigeonhole: unknown encoding %q", o.Encoding)
	}
	e.checkSat(true)
	return e.done()
}

// pij appends the symbol prefix_i_j.
func pij(e *emitter, prefix string, i, j int) {
	e.str(prefix)
	e.byte('_')
	e.nat(int64(i))
	e.byte('_')
	e.nat(int64(j))
}

// pigeonClauses asserts the clauses of the Boolean encoding for pigeons
// from..m-1: each in some hole, and none in a hole with an earlier pigeon.
func pigeonClauses(e *emitter, m, n, from int) {
	for i := from; i < m; i++ {
		e.str("(assert ")
		if n > 1 {
			e.str("(or")
		}
		for j := range n {
			e.byte(' ')
			pij(e, "p", i, j)
		}
		if n > 1 {
			e.byte(')')
		}
		e.endCmd()
		for k := range i {
			for j := range n {
				e.str("(assert (not (and ")
				pij(e, "p", k, j)
				e.byte(' ')
				pij(e, "p", i, j)
				e.str(")))\n")
			}
			e.flush()
		}
	}
}

// PigeonholeTrace writes an incremental QF_UF benchmark in the Boolean
// encoding: with every pigeon variable declared up front, it pushes one
// scope per pigeon, adding its clauses and checking satisfiability (sat up
// to holes pigeons, unsat with one more), then pops the last pigeon, asserts
// only that it sits in some hole, checks again (sat), and pops the rest. PigeonholeTraceStatuses gives the
// statuses of its check-sats in order.
func PigeonholeTrace(w io.Writer, holes int) error {
	if holes < 1 {
		return fmt.Errorf("pigeonhole trace: need at least one hole, have %d", holes)
	}
	n, m := holes, holes+1
	e := newEmitter(w)
	e.header("QF_UF", benchmark.Crafted, "",
		"Incremental pigeonhole principle: "+strconv.Itoa(m)+" pigeons enter "+strconv.Itoa(n)+" holes one push at a time, at most one pigeon per hole.",
		"Satisfiable while there are no more pigeons than holes.")
	for i := range m {
		for j := range n {
			e.str("(declare-fun ")
			pij(e, "p", i, j)
			e.str(" () Bool)\n")
		}
		e.flush()
	}
	st := PigeonholeTraceStatuses(holes)
	for i := range m {
		e.str("(push 1)\n")
		pigeonClausesOne(e, n, i)
		e.status(st[i])
		e.checkSat(false)
	}
	// Without its exclusions, the last pigeon may share a hole: sat. (The
	// assert also keeps the 2014 rule of an assert before each check-sat.)
	e.str("(pop 1)\n(assert ")
	if n > 1 {
		e.str("(or")
	}
	for j := range n {
		if n > 1 {
			e.byte(' ')
		}
		pij(e, "p", m-1, j)
	}
	if n > 1 {
		e.byte(')')
	}
	e.str(")\n")
	e.status(st[m])
	e.checkSat(false)
	for range m - 1 {
		e.str("(pop 1)\n")
	}
	e.str("(exit)\n")
	return e.done()
}

// pigeonClausesOne asserts the clauses that pigeon i adds.
func pigeonClausesOne(e *emitter, n, i int) {
	pigeonClauses(e, i+1, n, i)
}

// PigeonholeTraceStatuses returns the statuses of the check-sats of
// PigeonholeTrace: holes times sat, unsat, sat.
func PigeonholeTraceStatuses(holes int) []benchmark.Status {
	st := make([]benchmark.Status, 0, holes+2)
	for range holes {
		st = append(st, benchmark.Sat)
	}
	return append(st, benchmark.Unsat, benchmark.Sat)
}
