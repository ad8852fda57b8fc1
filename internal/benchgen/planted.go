package benchgen

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// PlantedOptions shape a planted-solution benchmark: a random assignment is
// picked first, and every constraint is drawn so that the assignment
// satisfies it.
type PlantedOptions struct {
	// Logic is QF_LIA or QF_LRA (linear atoms with small integer
	// coefficients) or QF_IDL or QF_RDL (difference atoms).
	Logic string
	Seed  uint64
	Vars  int
	// Constraints is the number of asserted constraints; it is ignored
	// when Bytes is set.
	Constraints int
	// Bytes, when positive, adds constraints until the file has about
	// this many bytes (the corpus mode).
	Bytes int64
	// Clause is the most atoms a constraint has: a constraint of several
	// atoms is their disjunction, with at least one atom true under the
	// planted assignment. 0 or 1: every constraint is a single atom.
	Clause int
	// Terms is the most variables in a linear atom (default 3).
	Terms int
	// Window: a linear atom draws its variables from Window consecutive
	// variables (cyclically), as constraints from programs relate nearby
	// variables (default 5). With Window >= Vars any variables mix, and
	// exact simplex fills in: z3 then needs seconds for an LP of 100
	// variables and 300 constraints.
	Window int
	// Range bounds the planted values: |x| <= Range (default 100).
	Range int
	// Unsat hides a contradiction among the constraints: for QF_LIA and
	// QF_LRA a few atoms and the negation of a positive combination of
	// them (a Farkas certificate), for QF_IDL and QF_RDL a cycle of
	// difference constraints of negative weight, or of weight zero with a
	// strict edge.
	Unsat bool
}

// Status is unsat when o.Unsat is set, sat otherwise.
func (o PlantedOptions) Status() benchmark.Status { return statusOf(!o.Unsat) }

// PlantedLogics are the logics Planted and Trace accept.
var PlantedLogics = []string{"QF_LIA", "QF_LRA", "QF_IDL", "QF_RDL"}

// Planted writes a planted-solution benchmark.
func Planted(w io.Writer, o PlantedOptions) error {
	p, err := newPlanted(w, o.Logic, o.Seed, o.Vars, o.Clause, o.Terms, o.Window, o.Range)
	if err != nil {
		return err
	}
	if o.Constraints < 1 && o.Bytes <= 0 {
		return fmt.Errorf("planted: need Constraints or Bytes")
	}
	e := p.e
	size := strconv.Itoa(o.Constraints)
	if o.Bytes > 0 {
		size = "about " + strconv.FormatInt(o.Bytes, 10) + " bytes of"
	}
	how := "Satisfiable: every constraint holds under a planted random assignment."
	if o.Unsat {
		how = "Unsatisfiable: every constraint holds under a planted random assignment except " + p.contradictionText() + ", hidden among them."
	}
	e.header(o.Logic, benchmark.Random, o.Status(),
		fmt.Sprintf("Planted solution: %d %s variables, %s %s (seed %d).", o.Vars, p.sort(), size, p.shape(), o.Seed),
		how)
	p.declare()
	var special []placed
	if o.Unsat {
		special = p.placeContradiction()
	}
	progress := func(i int) float64 {
		if o.Bytes > 0 {
			return float64(e.n) / float64(o.Bytes)
		}
		return float64(i) / float64(o.Constraints)
	}
	for i := 0; progress(i) < 1; i++ {
		for len(special) > 0 && special[0].at <= progress(i) {
			p.assertAtom(&special[0].a)
			special = special[1:]
		}
		p.assertConstraint()
	}
	for k := range special {
		p.assertAtom(&special[k].a)
	}
	e.checkSat(true)
	return e.done()
}

// TraceOptions shape an incremental planted-solution benchmark.
type TraceOptions struct {
	Logic       string // one of PlantedLogics
	Seed        uint64
	Vars        int
	Constraints int // asserted before the first push
	Scope       int // constraints asserted in each push scope (at least one)
	// Bytes, when positive, sizes the base and the scopes so that the
	// file has about this many bytes: half base, half scopes.
	Bytes  int64
	Clause int // as in PlantedOptions
	Terms  int
	Window int
	Range  int
	// Queries are the statuses of the check-sats, in order.
	Queries []benchmark.Status
}

// Trace writes an incremental benchmark: a planted-solution base at level
// zero, then per query a push, fresh constraints the planted assignment
// satisfies, for an unsat query a hidden contradiction as in Planted, the
// query's :status and check-sat. A scope with a contradiction is popped
// right after its check-sat; a satisfiable one is kept open at random (up
// to three deep), so later queries see the constraints of several scopes.
func Trace(w io.Writer, o TraceOptions) error {
	p, err := newPlanted(w, o.Logic, o.Seed, o.Vars, o.Clause, o.Terms, o.Window, o.Range)
	if err != nil {
		return err
	}
	if len(o.Queries) == 0 {
		return fmt.Errorf("trace: no queries")
	}
	e := p.e
	sats := 0
	for _, q := range o.Queries {
		if q == benchmark.Sat {
			sats++
		} else if q != benchmark.Unsat {
			return fmt.Errorf("trace: query status %q is neither sat nor unsat", q)
		}
	}
	e.header(o.Logic, benchmark.Random, "",
		fmt.Sprintf("Incremental planted solution: %d variables, %d queries (%d sat, %d unsat) in push scopes over a base of constraints (seed %d).",
			o.Vars, len(o.Queries), sats, len(o.Queries)-sats, o.Seed),
		fmt.Sprintf("Every constraint holds under a planted random assignment, except that the scope of each unsatisfiable query hides %s.", p.contradictionText()))
	p.declare()
	base, scope := o.Constraints, o.Scope
	var baseEnd int64
	if o.Bytes > 0 {
		baseEnd = o.Bytes / 2
	}
	for i := 0; ; i++ {
		if (o.Bytes > 0 && e.n >= baseEnd) || (o.Bytes <= 0 && i >= base) {
			break
		}
		p.assertConstraint()
	}
	baseEnd = e.n
	depth := 0
	for qi, q := range o.Queries {
		e.str("(push 1)\n")
		depth++
		var special []placed
		if q == benchmark.Unsat {
			special = p.placeContradiction()
		}
		// In the corpus mode, scope q ends where its share of the bytes
		// left after the base does, less the commands around it. Every
		// scope has an assert (the 2014 rules want one before each
		// check-sat).
		start := e.n
		end := baseEnd + (o.Bytes-baseEnd)*int64(qi+1)/int64(len(o.Queries)) - 60
		progress := func(i int) float64 {
			if o.Bytes > 0 {
				return float64(e.n-start) / float64(max(1, end-start))
			}
			return float64(i) / float64(max(1, scope))
		}
		for i := 0; i == 0 || progress(i) < 1; i++ {
			for len(special) > 0 && special[0].at <= progress(i) {
				p.assertAtom(&special[0].a)
				special = special[1:]
			}
			p.assertConstraint()
		}
		for k := range special {
			p.assertAtom(&special[k].a)
		}
		e.status(q)
		e.checkSat(false)
		if q == benchmark.Unsat || depth >= 3 || p.r.IntN(2) == 0 {
			e.str("(pop 1)\n")
			depth--
		}
	}
	for ; depth > 0; depth-- {
		e.str("(pop 1)\n")
	}
	e.str("(exit)\n")
	return e.done()
}

// Comparison operators of atoms.
const (
	opLE = iota
	opLT
	opGE
	opGT
	opEQ
)

var opNames = [...]string{"<=", "<", ">=", ">", "="}

// atom is sum(coefs[i]*vars[i]) op rhs/den, or for difference logic
// x - y op rhs (vars = x, y; coefs = 1, -1), written (op x y) when plain.
type atom struct {
	vars  []int
	coefs []int64
	op    int
	rhs   int64 // numerator over planted.den
	plain bool
}

// placed is an atom of a contradiction and where it goes, as a fraction of
// the constraints.
type placed struct {
	a  atom
	at float64
}

// planted holds the assignment and draws atoms it satisfies.
type planted struct {
	e      *emitter
	r      *rand.Rand
	logic  string
	dl     bool  // difference logic
	real   bool  // Real variables
	den    int64 // planted values are val[i]/den
	val    []int64
	names  []string // x0, x1, ...
	clause int
	terms  int
	window int
	a      atom   // scratch
	cl     []atom // scratch for clauses
	perm   []int  // scratch
}

func newPlanted(w io.Writer, logic string, seed uint64, vars, clause, terms, window, rng int) (*planted, error) {
	if !slices.Contains(PlantedLogics, logic) {
		return nil, fmt.Errorf("planted: logic %q is not one of %v", logic, PlantedLogics)
	}
	if vars < 2 {
		return nil, fmt.Errorf("planted: need at least two variables, have %d", vars)
	}
	if terms <= 0 {
		terms = 3
	}
	if rng <= 0 {
		rng = 100
	}
	if window <= 0 {
		window = 5
	}
	p := &planted{
		e:      newEmitter(w),
		r:      rand.New(rand.NewPCG(seed, 0x9a7e5)),
		logic:  logic,
		dl:     logic == "QF_IDL" || logic == "QF_RDL",
		real:   logic == "QF_LRA" || logic == "QF_RDL",
		den:    1,
		clause: max(1, clause),
		terms:  min(max(1, terms), vars),
	}
	p.window = min(max(window, p.terms), vars)
	if logic == "QF_LRA" {
		// Rational values: with equalities among the constraints, an
		// integer solution need not exist.
		p.den = int64(2 + p.r.IntN(6))
	}
	p.val = make([]int64, vars)
	for i := range p.val {
		p.val[i] = int64(p.r.IntN(2*rng+1)-rng) * p.den
		if p.den > 1 {
			p.val[i] += int64(p.r.IntN(int(p.den)))
		}
	}
	p.perm = make([]int, vars)
	p.names = make([]string, vars)
	for i := range p.names {
		p.names[i] = "x" + strconv.Itoa(i)
	}
	return p, nil
}

func (p *planted) sort() string {
	if p.real {
		return "Real"
	}
	return "Int"
}

func (p *planted) declare() { p.e.declare("x", len(p.val), p.sort()) }

// shape describes the constraints for the :source.
func (p *planted) shape() string {
	kind := "linear constraints with up to " + strconv.Itoa(p.terms) + " of " + strconv.Itoa(p.window) + " consecutive variables"
	if p.dl {
		kind = "difference constraints"
	}
	if p.clause > 1 {
		kind += ", disjunctions of up to " + strconv.Itoa(p.clause) + " atoms"
	}
	return kind
}

func (p *planted) contradictionText() string {
	if p.dl {
		return "a cycle of difference constraints whose weights sum to less than zero (or to zero with a strict edge)"
	}
	return "the negation of a positive combination of a few of them (a Farkas certificate of unsatisfiability)"
}

// value returns the left-hand side of a under the assignment, times den.
func (p *planted) value(a *atom) int64 {
	v := int64(0)
	for i, x := range a.vars {
		v += a.coefs[i] * p.val[x]
	}
	return v
}

// slack is how far a true atom's bound is from the value, times den: often
// tight, so that the constraints cut close to the planted point.
func (p *planted) slack() int64 {
	switch p.r.IntN(4) {
	case 0:
		return 0
	case 1:
		return int64(p.r.IntN(int(p.den)) + 1)
	default:
		return int64(p.r.IntN(10*int(p.den)) + 1)
	}
}

// drawTrue fills a with a fresh atom that the assignment satisfies; eq
// allows equalities.
func (p *planted) drawTrue(a *atom, eq bool) {
	a.vars, a.coefs, a.plain = a.vars[:0], a.coefs[:0], false
	if p.dl {
		x := p.r.IntN(len(p.val))
		y := p.r.IntN(len(p.val) - 1)
		if y >= x {
			y++
		}
		a.vars = append(a.vars, x, y)
		a.coefs = append(a.coefs, 1, -1)
		a.plain = p.r.IntN(10) == 0
	} else {
		k := p.terms
		if k > 2 {
			k = 2 + p.r.IntN(k-1)
		}
		base := p.r.IntN(len(p.val))
		for len(a.vars) < k {
			x := (base + p.r.IntN(p.window)) % len(p.val)
			if slices.Contains(a.vars, x) {
				continue
			}
			c := int64(p.r.IntN(9) + 1)
			if p.r.IntN(2) == 0 {
				c = -c
			}
			a.vars = append(a.vars, x)
			a.coefs = append(a.coefs, c)
		}
	}
	v := p.value(a)
	if a.plain {
		// (op x y): compare with 0.
		switch {
		case v < 0:
			a.op = [...]int{opLE, opLT}[p.r.IntN(2)]
		case v > 0:
			a.op = [...]int{opGE, opGT}[p.r.IntN(2)]
		default:
			a.op = [...]int{opLE, opGE}[p.r.IntN(2)]
		}
		a.rhs = 0
		return
	}
	a.op = p.r.IntN(4)
	if eq && !p.dl && p.r.IntN(6) == 0 {
		a.op = opEQ
	}
	s := p.slack()
	switch a.op {
	case opLE:
		a.rhs = v + s
	case opLT:
		a.rhs = v + s + 1
	case opGE:
		a.rhs = v - s
	case opGT:
		a.rhs = v - s - 1
	case opEQ:
		a.rhs = v
	}
}

// negate turns a true atom without equality into a false one.
func negate(a *atom) {
	a.op = [...]int{opGT, opGE, opLT, opLE}[a.op]
}

// assertConstraint asserts one fresh constraint: an atom, or a clause with
// at least one true atom.
func (p *planted) assertConstraint() {
	k := 1
	if p.clause > 1 {
		k = 1 + p.r.IntN(p.clause)
	}
	if k == 1 {
		p.drawTrue(&p.a, true)
		p.assertAtom(&p.a)
		return
	}
	for len(p.cl) < k {
		p.cl = append(p.cl, atom{})
	}
	good := p.r.IntN(k)
	for i := range k {
		p.drawTrue(&p.cl[i], false)
		if i != good && p.r.IntN(2) == 0 {
			negate(&p.cl[i])
		}
	}
	e := p.e
	e.str("(assert (or")
	for i := range k {
		e.byte(' ')
		p.writeAtom(&p.cl[i])
	}
	e.byte(')')
	e.endCmd()
}

func (p *planted) assertAtom(a *atom) {
	p.e.str("(assert ")
	p.writeAtom(a)
	p.e.endCmd()
}

// writeAtom appends a.
func (p *planted) writeAtom(a *atom) {
	e := p.e
	e.byte('(')
	e.str(opNames[a.op])
	e.byte(' ')
	if a.plain {
		e.str(p.names[a.vars[0]])
		e.byte(' ')
		e.str(p.names[a.vars[1]])
		e.byte(')')
		return
	}
	if p.dl {
		e.str("(- ")
		e.str(p.names[a.vars[0]])
		e.byte(' ')
		e.str(p.names[a.vars[1]])
		e.str(") ")
		e.int(a.rhs)
		e.byte(')')
		return
	}
	if len(a.vars) > 1 {
		e.str("(+")
	}
	for i, x := range a.vars {
		if len(a.vars) > 1 {
			e.byte(' ')
		}
		switch c := a.coefs[i]; c {
		case 1:
			e.str(p.names[x])
		case -1:
			e.str("(- ")
			e.str(p.names[x])
			e.byte(')')
		default:
			e.str("(* ")
			e.int(c)
			e.byte(' ')
			e.str(p.names[x])
			e.byte(')')
		}
	}
	if len(a.vars) > 1 {
		e.byte(')')
	}
	e.byte(' ')
	e.rat(a.rhs, p.den)
	e.byte(')')
}

// placeContradiction draws the atoms of a contradiction and where each goes.
func (p *planted) placeContradiction() []placed {
	var atoms []atom
	if p.dl {
		atoms = p.cycle()
	} else {
		atoms = p.farkas()
	}
	out := make([]placed, len(atoms))
	for i := range atoms {
		out[i] = placed{a: atoms[i], at: p.r.Float64()}
	}
	slices.SortStableFunc(out, func(a, b placed) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	return out
}

// farkas returns a few true non-strict atoms and the negation of a positive
// combination of them: sum(l_i * (a_i . x)) <= sum(l_i * b_i) is implied,
// and (> sum(l_i * a_i) . x  sum(l_i * b_i)) is asserted.
func (p *planted) farkas() []atom {
	k := 2 + p.r.IntN(4)
	atoms := make([]atom, k)
	comb := map[int]int64{}
	var bound int64
	for i := range atoms {
		a := &atoms[i]
		for {
			p.drawTrue(a, true)
			if a.op != opLT && a.op != opGT {
				break
			}
		}
		a.vars = slices.Clone(a.vars)
		a.coefs = slices.Clone(a.coefs)
		l := int64(1 + p.r.IntN(3))
		// As a <= constraint: sign * (a . x) <= sign * rhs.
		sign := int64(1)
		if a.op == opGE || (a.op == opEQ && p.r.IntN(2) == 0) {
			sign = -1
		}
		for j, x := range a.vars {
			comb[x] += sign * l * a.coefs[j]
		}
		bound += sign * l * a.rhs
	}
	c := atom{op: opGT, rhs: bound}
	for x := range p.val {
		if v := comb[x]; v != 0 {
			c.vars = append(c.vars, x)
			c.coefs = append(c.coefs, v)
		}
	}
	p.r.Shuffle(len(c.vars), func(i, j int) {
		c.vars[i], c.vars[j] = c.vars[j], c.vars[i]
		c.coefs[i], c.coefs[j] = c.coefs[j], c.coefs[i]
	})
	if len(c.vars) == 0 {
		// The combination cancelled out: 0 <= bound is implied, so
		// 0 > bound is false; keep a variable in the atom anyway.
		c.vars, c.coefs = []int{0}, []int64{0}
	}
	return append(atoms, c)
}

// cycle returns difference constraints x0 - x1 <= c0, ..., xk - x0 <= ck
// whose weights sum to a negative number, or to zero with one strict edge.
// All but one edge hold under the assignment.
func (p *planted) cycle() []atom {
	k := min(len(p.val), 2+p.r.IntN(5))
	for i := range p.perm {
		p.perm[i] = i
	}
	p.r.Shuffle(len(p.perm), func(i, j int) { p.perm[i], p.perm[j] = p.perm[j], p.perm[i] })
	nodes := p.perm[:k]
	atoms := make([]atom, k)
	var noise int64
	for i := range atoms {
		x, y := nodes[i], nodes[(i+1)%k]
		s := int64(p.r.IntN(4))
		noise += s
		atoms[i] = atom{vars: []int{x, y}, coefs: []int64{1, -1}, op: opLE, rhs: p.val[x] - p.val[y] + s}
	}
	bad := &atoms[p.r.IntN(k)]
	if p.r.IntN(2) == 0 {
		bad.rhs -= noise // weight zero
		atoms[p.r.IntN(k)].op = opLT
	} else {
		bad.rhs -= noise + 1 + int64(p.r.IntN(3))
	}
	for i := range atoms {
		a := &atoms[i]
		switch {
		case a.rhs == 0 && p.r.IntN(2) == 0:
			// x - y <= 0 as (<= x y).
			a.plain = true
		case p.r.IntN(3) == 0:
			// x - y <= c as y - x >= -c.
			a.vars[0], a.vars[1] = a.vars[1], a.vars[0]
			a.rhs = -a.rhs
			a.op = [...]int{opGE, opGT}[a.op]
		}
	}
	return atoms
}
