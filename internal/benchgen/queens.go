package benchgen

import (
	"fmt"
	"io"
	"math/bits"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// QueensOptions shape an n-queens benchmark: one queen in each of Queens
// rows of a board with N columns, no two in the same column or diagonal.
type QueensOptions struct {
	Logic  string // QF_LIA (integer columns) or QF_BV (bit-vector columns)
	N      int
	Queens int // N (sat for N = 1 and N >= 4) or N+1 (unsat: two queens share a column)
}

// Status is sat for N queens when N = 1 or N >= 4, unsat otherwise.
func (o QueensOptions) Status() benchmark.Status {
	return statusOf(o.Queens <= o.N && (o.N == 1 || o.N >= 4))
}

// Queens writes an n-queens benchmark. Queen i sits in row i and column
// c_i, 0 <= c_i < N; columns are distinct, and c_i - c_j differs from
// j - i and i - j.
func Queens(w io.Writer, o QueensOptions) error {
	if o.N < 1 || (o.Queens != o.N && o.Queens != o.N+1) {
		return fmt.Errorf("queens: want N >= 1 and N or N+1 queens, have N = %d and %d queens", o.N, o.Queens)
	}
	bv := false
	switch o.Logic {
	case "QF_LIA":
	case "QF_BV":
		bv = true
	default:
		return fmt.Errorf("queens: logic %q is not QF_LIA or QF_BV", o.Logic)
	}
	e := newEmitter(w)
	why := "Unsatisfiable: more queens than columns."
	if o.Status() == benchmark.Sat {
		why = "Satisfiable: the n-queens problem has solutions for n = 1 and n >= 4."
	} else if o.Queens == o.N {
		why = "Unsatisfiable: the n-queens problem has no solution for n = 2 and n = 3."
	}
	e.header(o.Logic, benchmark.Crafted, o.Status(),
		fmt.Sprintf("N-queens: %d queens, one per row, on a board with %d columns; no two in a column or diagonal.", o.Queens, o.N), why)
	// Widths with 2^w > 2N + 1 keep bvsub exact on column differences.
	width := bits.Len(uint(2*o.N + 1))
	bvConst := func(v int) {
		e.str("(_ bv")
		e.nat(int64(v))
		e.byte(' ')
		e.nat(int64(width))
		e.byte(')')
	}
	if bv {
		e.declare("c", o.Queens, fmt.Sprintf("(_ BitVec %d)", width))
	} else {
		e.declare("c", o.Queens, "Int")
	}
	for i := range o.Queens {
		if bv {
			e.str("(assert (bvult ")
			e.sym("c", i)
			e.byte(' ')
			bvConst(o.N)
			e.byte(')')
		} else {
			e.str("(assert (and (<= 0 ")
			e.sym("c", i)
			e.str(") (< ")
			e.sym("c", i)
			e.byte(' ')
			e.nat(int64(o.N))
			e.str("))")
		}
		e.endCmd()
	}
	if o.Queens > 1 {
		e.str("(assert (distinct")
		for i := range o.Queens {
			e.byte(' ')
			e.sym("c", i)
		}
		e.byte(')')
		e.endCmd()
	}
	for i := range o.Queens {
		for j := i + 1; j < o.Queens; j++ {
			d := j - i
			if bv {
				e.str("(assert (and (not (= (bvsub ")
				e.sym("c", i)
				e.byte(' ')
				e.sym("c", j)
				e.str(") ")
				bvConst(d)
				e.str(")) (not (= (bvsub ")
				e.sym("c", j)
				e.byte(' ')
				e.sym("c", i)
				e.str(") ")
				bvConst(d)
				e.str(")))")
			} else {
				e.str("(assert (and (not (= (- ")
				e.sym("c", i)
				e.byte(' ')
				e.sym("c", j)
				e.str(") ")
				e.nat(int64(d))
				e.str(")) (not (= (- ")
				e.sym("c", i)
				e.byte(' ')
				e.sym("c", j)
				e.str(") ")
				e.int(int64(-d))
				e.str(")))")
			}
			e.endCmd()
		}
	}
	e.checkSat(true)
	return e.done()
}
