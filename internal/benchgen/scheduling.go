package benchgen

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// SchedulingOptions shape a single-machine scheduling benchmark in
// difference logic: jobs of random durations 1..9 run one at a time within a
// horizon.
type SchedulingOptions struct {
	Logic string // QF_IDL or QF_RDL
	Seed  uint64
	Jobs  int
	// Unsat makes the horizon one less than the total duration; otherwise
	// it equals the total duration.
	Unsat bool
}

// Status is unsat when the horizon is shorter than the total duration.
func (o SchedulingOptions) Status() benchmark.Status { return statusOf(!o.Unsat) }

// Scheduling writes the benchmark: start times s_i relative to an origin z,
// 0 <= s_i - z <= horizon - d_i, and for every two jobs one before the
// other, (or (<= (- s_i s_j) (- d_i)) (<= (- s_j s_i) (- d_j))). The jobs
// are totally ordered, so they fit if and only if the horizon is at least
// the sum of the durations: a pigeonhole argument solvers find hard.
func Scheduling(w io.Writer, o SchedulingOptions) error {
	if o.Logic != "QF_IDL" && o.Logic != "QF_RDL" {
		return fmt.Errorf("scheduling: logic %q is not QF_IDL or QF_RDL", o.Logic)
	}
	if o.Jobs < 2 {
		return fmt.Errorf("scheduling: need at least two jobs, have %d", o.Jobs)
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x5c4ed))
	d := make([]int64, o.Jobs)
	total := int64(0)
	for i := range d {
		d[i] = int64(1 + r.IntN(9))
		total += d[i]
	}
	horizon := total
	why := fmt.Sprintf("Satisfiable: the horizon %d is the total duration.", horizon)
	if o.Unsat {
		horizon--
		why = fmt.Sprintf("Unsatisfiable: the horizon %d is one less than the total duration %d.", horizon, total)
	}
	sort := "Int"
	if o.Logic == "QF_RDL" {
		sort = "Real"
	}
	e := newEmitter(w)
	e.header(o.Logic, benchmark.Crafted, o.Status(),
		fmt.Sprintf("Single-machine scheduling: %d jobs of durations 1 to 9 without overlap within a horizon (seed %d).", o.Jobs, o.Seed), why)
	e.str("(declare-fun z () " + sort + ")\n")
	e.declare("s", o.Jobs, sort)
	for i := range d {
		e.str("(assert (>= (- ")
		e.sym("s", i)
		e.str(" z) 0))\n(assert (<= (- ")
		e.sym("s", i)
		e.str(" z) ")
		e.int(horizon - d[i])
		e.byte(')')
		e.endCmd()
	}
	for i := range d {
		for j := i + 1; j < len(d); j++ {
			e.str("(assert (or (<= (- ")
			e.sym("s", i)
			e.byte(' ')
			e.sym("s", j)
			e.str(") ")
			e.int(-d[i])
			e.str(") (<= (- ")
			e.sym("s", j)
			e.byte(' ')
			e.sym("s", i)
			e.str(") ")
			e.int(-d[j])
			e.str("))")
			e.endCmd()
		}
	}
	e.checkSat(true)
	return e.done()
}
