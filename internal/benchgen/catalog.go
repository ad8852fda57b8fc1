package benchgen

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// Size chooses the parameters of a generated library.
type Size string

// The sizes of a generated library.
const (
	// Small instances are answered by z3 in milliseconds: for tests.
	Small Size = "small"
	// Medium instances take z3 from a fraction of a second to tens of
	// seconds: for demos of a competition.
	Medium Size = "medium"
)

// ParseSize reads a size name.
func ParseSize(s string) (Size, error) {
	switch Size(s) {
	case Small, Medium:
		return Size(s), nil
	}
	return "", fmt.Errorf("unknown size %q (want small or medium)", s)
}

// Instance is one benchmark of a generated library: where it goes, what it
// is expected to answer, and how to write it.
type Instance struct {
	Logic       string
	Family      string // the family directory without its "smtarena-" prefix
	Name        string // the file name
	Incremental bool
	// Statuses are the expected answers of the check-sats, in order (one
	// for a non-incremental benchmark).
	Statuses []benchmark.Status
	Write    func(w io.Writer) error
}

// Path returns where the instance goes in a library, in the SMT-LIB layout:
// non-incremental/LOGIC/smtarena-FAMILY/NAME or incremental/...
func (in Instance) Path() string {
	track := "non-incremental"
	if in.Incremental {
		track = "incremental"
	}
	return filepath.Join(track, in.Logic, "smtarena-"+in.Family, in.Name)
}

// Instances lists the benchmarks of the library generated for a seed and a
// size: every family, in every logic it has, with both statuses. The list
// and every file's bytes depend only on seed and size.
func Instances(seed uint64, size Size) ([]Instance, error) {
	pr, ok := sizes[size]
	if !ok {
		return nil, fmt.Errorf("unknown size %q (want small or medium)", size)
	}
	var out []Instance
	add := func(logic, family, name string, incremental bool, st []benchmark.Status, write func(w io.Writer) error) {
		out = append(out, Instance{Logic: logic, Family: family, Name: name, Incremental: incremental, Statuses: st, Write: write})
	}
	one := func(s benchmark.Status) []benchmark.Status { return []benchmark.Status{s} }
	statusName := func(unsat bool) string { return string(statusOf(!unsat)) }
	for _, enc := range PigeonEncodings {
		for _, h := range pr.holes[enc] {
			for _, p := range []int{h, h + 1} {
				o := PigeonholeOptions{Encoding: enc, Pigeons: p, Holes: h}
				add(enc.Logic(), "pigeonhole", fmt.Sprintf("php-%s-%dp-%dh.smt2", enc, p, h), false, one(o.Status()),
					func(w io.Writer) error { return Pigeonhole(w, o) })
			}
		}
	}
	for _, logic := range PlantedLogics {
		for i, sh := range pr.planted[logic] {
			for _, unsat := range []bool{false, true} {
				name := fmt.Sprintf("planted-%d-v%d-c%d-k%d-%s.smt2", i, sh.vars, sh.constraints, sh.clause, statusName(unsat))
				o := PlantedOptions{Logic: logic, Vars: sh.vars, Constraints: sh.constraints, Clause: sh.clause, Terms: sh.terms, Unsat: unsat}
				o.Seed = instanceSeed(seed, logic, name)
				add(logic, "planted", name, false, one(o.Status()), func(w io.Writer) error { return Planted(w, o) })
			}
		}
	}
	for _, logic := range []string{"QF_LIA", "QF_BV"} {
		// n queens on n columns (sat for n >= 4), n+1 queens on n (unsat).
		for _, o := range append(queensOf(logic, pr.queens[logic].sat, 0), queensOf(logic, pr.queens[logic].unsat, 1)...) {
			name := fmt.Sprintf("queens-%d.smt2", o.N)
			if o.Queens > o.N {
				name = fmt.Sprintf("queens-%d-in-%d-columns.smt2", o.Queens, o.N)
			}
			add(logic, "queens", name, false, one(o.Status()), func(w io.Writer) error { return Queens(w, o) })
		}
	}
	for _, wd := range pr.factor {
		for _, unsat := range []bool{false, true} {
			name := fmt.Sprintf("factor-w%d-%s.smt2", wd, statusName(unsat))
			o := FactorOptions{Width: wd, Unsat: unsat, Seed: instanceSeed(seed, "QF_BV", name)}
			add("QF_BV", "factor", name, false, one(o.Status()), func(w io.Writer) error { return Factor(w, o) })
		}
	}
	for _, logic := range []string{"QF_IDL", "QF_RDL"} {
		for _, j := range pr.jobs[logic] {
			for _, unsat := range []bool{false, true} {
				name := fmt.Sprintf("scheduling-%d-jobs-%s.smt2", j, statusName(unsat))
				o := SchedulingOptions{Logic: logic, Jobs: j, Unsat: unsat, Seed: instanceSeed(seed, logic, name)}
				add(logic, "scheduling", name, false, one(o.Status()), func(w io.Writer) error { return Scheduling(w, o) })
			}
		}
	}
	for _, h := range pr.traceHoles {
		name := fmt.Sprintf("php-trace-%dh.smt2", h)
		add("QF_UF", "pigeonhole", name, true, PigeonholeTraceStatuses(h), func(w io.Writer) error { return PigeonholeTrace(w, h) })
	}
	for _, logic := range []string{"QF_LIA", "QF_LRA"} {
		for i, sh := range pr.trace[logic] {
			name := fmt.Sprintf("planted-trace-%d-v%d-q%d.smt2", i, sh.vars, sh.queries)
			o := TraceOptions{Logic: logic, Vars: sh.vars, Constraints: sh.constraints, Scope: sh.scope, Clause: sh.clause, Terms: sh.terms}
			o.Seed = instanceSeed(seed, logic, name)
			o.Queries = randomQueries(o.Seed, sh.queries)
			add(logic, "planted", name, true, o.Queries, func(w io.Writer) error { return Trace(w, o) })
		}
	}
	return out, nil
}

func queensOf(logic string, ns []int, extra int) []QueensOptions {
	var out []QueensOptions
	for _, n := range ns {
		out = append(out, QueensOptions{Logic: logic, N: n, Queens: n + extra})
	}
	return out
}

// plantedShape are the parameters of planted instances at one size.
type plantedShape struct {
	vars, constraints, clause, terms int
	scope, queries                   int // traces only
}

// sizeParams are the parameters of every family at one size.
type sizeParams struct {
	holes      map[PigeonEncoding][]int
	planted    map[string][]plantedShape
	queens     map[string]struct{ sat, unsat []int }
	factor     []int
	jobs       map[string][]int
	traceHoles []int
	trace      map[string][]plantedShape
}

// The parameters below were chosen with z3 4.8.12 on one core: see
// TestMedium for the times.

var sizes = map[Size]sizeParams{
	Small: {
		holes: map[PigeonEncoding][]int{PigeonBool: {3, 4}, PigeonSort: {3, 4}, PigeonZeroOne: {3, 4}, PigeonInt: {3, 4}},
		planted: map[string][]plantedShape{
			"QF_LIA": {{vars: 10, constraints: 20, clause: 1}, {vars: 20, constraints: 50, clause: 2}},
			"QF_LRA": {{vars: 10, constraints: 20, clause: 1}, {vars: 20, constraints: 50, clause: 2}},
			"QF_IDL": {{vars: 10, constraints: 20, clause: 1}, {vars: 20, constraints: 60, clause: 3}},
			"QF_RDL": {{vars: 10, constraints: 20, clause: 1}, {vars: 20, constraints: 60, clause: 3}},
		},
		queens: map[string]struct{ sat, unsat []int }{
			"QF_LIA": {sat: []int{5, 6}, unsat: []int{4, 5}},
			"QF_BV":  {sat: []int{5, 6}, unsat: []int{4, 5}},
		},
		factor:     []int{8, 10},
		jobs:       map[string][]int{"QF_IDL": {4, 5}, "QF_RDL": {4, 5}},
		traceHoles: []int{3, 4},
		trace: map[string][]plantedShape{
			"QF_LIA": {{vars: 10, constraints: 10, scope: 3, queries: 6, clause: 1}, {vars: 20, constraints: 30, scope: 5, queries: 10, clause: 1}},
			"QF_LRA": {{vars: 10, constraints: 10, scope: 3, queries: 6, clause: 1}, {vars: 20, constraints: 30, scope: 5, queries: 10, clause: 2}},
		},
	},
	Medium: {
		holes: map[PigeonEncoding][]int{PigeonBool: {8, 9}, PigeonSort: {8, 9}, PigeonZeroOne: {8, 9}, PigeonInt: {6, 7}},
		planted: map[string][]plantedShape{
			"QF_LIA": {{vars: 100, constraints: 300, clause: 3}, {vars: 200, constraints: 600, clause: 2}},
			"QF_LRA": {{vars: 200, constraints: 800, clause: 3}, {vars: 400, constraints: 1200, clause: 3}},
			"QF_IDL": {{vars: 200, constraints: 800, clause: 3}, {vars: 300, constraints: 1200, clause: 3}},
			"QF_RDL": {{vars: 200, constraints: 800, clause: 3}, {vars: 300, constraints: 1200, clause: 3}},
		},
		queens: map[string]struct{ sat, unsat []int }{
			"QF_LIA": {sat: []int{20, 30}, unsat: []int{8, 9}},
			"QF_BV":  {sat: []int{30, 50}, unsat: []int{10, 11}},
		},
		factor:     []int{18, 20},
		jobs:       map[string][]int{"QF_IDL": {7, 8}, "QF_RDL": {7, 8}},
		traceHoles: []int{8, 9},
		trace: map[string][]plantedShape{
			"QF_LIA": {{vars: 300, constraints: 600, scope: 30, queries: 20, clause: 1}, {vars: 100, constraints: 200, scope: 30, queries: 20, clause: 2}},
			"QF_LRA": {{vars: 100, constraints: 200, scope: 20, queries: 20, clause: 3}, {vars: 200, constraints: 400, scope: 40, queries: 30, clause: 3}},
		},
	},
}

// randomQueries returns n query statuses, with at least one sat and one
// unsat when n >= 2.
func randomQueries(seed uint64, n int) []benchmark.Status {
	r := rand.New(rand.NewPCG(seed, 0x9e7))
	q := make([]benchmark.Status, n)
	for i := range q {
		q[i] = statusOf(r.IntN(2) == 0)
	}
	if n >= 2 {
		i := r.IntN(n)
		j := (i + 1 + r.IntN(n-1)) % n
		q[i], q[j] = benchmark.Sat, benchmark.Unsat
	}
	return q
}

// instanceSeed derives the seed of one instance from the library's seed
// and the instance's name, so that adding a family changes no other file.
func instanceSeed(seed uint64, logic, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(logic + "/" + name))
	return splitmix(seed ^ h.Sum64())
}

// splitmix is the SplitMix64 finaliser: a bijective mix of the bits.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// WriteLibrary writes the instances of Instances(seed, size) under dir and
// returns them.
func WriteLibrary(dir string, seed uint64, size Size) ([]Instance, error) {
	list, err := Instances(seed, size)
	if err != nil {
		return nil, err
	}
	for _, in := range list {
		if _, err := writeFile(filepath.Join(dir, in.Path()), in.Write); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// writeFile creates path (and its directory), writes it, and returns its
// size.
func writeFile(path string, write func(w io.Writer) error) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	cw := &countingWriter{w: f}
	bw := bufio.NewWriterSize(cw, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return cw.n, fmt.Errorf("write %s: %w", path, err)
	}
	return cw.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
