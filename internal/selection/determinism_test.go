package selection

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/crand"
)

// synthetic builds n candidates (a fraction incremental) spread over
// logics and families of up to 300, with every status, category and
// difficulty, prior results for 2013 and 2018-2020, and some new families.
// It draws from math/rand, not crand: it is test data, not a selection.
func synthetic(n, logics int, seed uint64) []Candidate {
	rng := rand.New(rand.NewPCG(seed, 1))
	statuses := []benchmark.Status{benchmark.Sat, benchmark.Unsat, benchmark.Unknown}
	cats := []benchmark.Category{benchmark.Industrial, benchmark.Industrial, benchmark.Crafted, benchmark.Random, benchmark.Check}
	out := make([]Candidate, n)
	for i := range out {
		logic := fmt.Sprintf("QF_L%02d", i%logics)
		fam := fmt.Sprintf("sub%d/fam%d", i/logics%7, i/logics/300)
		kind := "non-incremental"
		inc := i%10 == 9
		if inc {
			kind = "incremental"
		}
		c := Candidate{Benchmark: benchmark.Benchmark{
			ID:          int64(i),
			Path:        fmt.Sprintf("%s/%s/%s/b%07d.smt2", kind, logic, fam, i),
			Logic:       logic,
			Incremental: inc,
			Category:    cats[rng.IntN(len(cats))],
			Status:      statuses[rng.IntN(3)],
			Difficulty:  float64(rng.IntN(7) - 1),
			Asserts:     rng.IntN(4),
			CheckSats:   1,
		}}
		if inc {
			c.CheckSats = 1 + rng.IntN(5)
			for k := 0; k < c.CheckSats; k++ {
				c.Statuses = append(c.Statuses, statuses[rng.IntN(3)])
			}
		}
		c.SoundSat, c.SoundUnsat = rng.IntN(2) == 0, rng.IntN(2) == 0
		c.NewFamily = i/logics/300%50 == 3
		if rng.IntN(2) == 0 {
			solvers := 1 + rng.IntN(4)
			c.Prior = map[int]Prior{}
			for _, y := range []int{2013, 2018 + rng.IntN(3)} {
				solved := rng.IntN(solvers + 1)
				t := rng.Float64() * 10
				c.Prior[y] = Prior{Solvers: solvers, SolvedBy: solved, MaxTime: t, MinTime: t / 2}
			}
		}
		out[i] = c
	}
	return out
}

// configs are selections with random draws, and one without.
var configs = []Options{
	{Rules: 2006, Track: benchmark.SingleQuery},
	{Rules: 2014, Track: benchmark.SingleQuery, N: 150},
	{Rules: 2014, Track: benchmark.Incremental, N: 40},
	{Rules: 2018, Track: benchmark.Incremental},
	{Rules: 2022, Track: benchmark.SingleQuery},
	{Rules: 2022, Track: benchmark.Incremental},
	{Rules: 2022, Track: benchmark.UnsatCore},
	{Rules: 2022, Track: benchmark.ModelValidation, Logics: []string{"QF_L00", "QF_L01", "QF_L02"}},
	{Rules: 2022, Track: benchmark.Proof},
}

func fingerprint(sel Selection) []string {
	out := make([]string, len(sel.Benchmarks))
	for i, b := range sel.Benchmarks {
		out[i] = fmt.Sprintf("%s %d %s", b.Path, b.KeepCheckSats, b.Reason)
	}
	return out
}

// TestDeterminism: the same seed gives the same selection whatever the
// order of the candidates; another seed gives another one.
func TestDeterminism(t *testing.T) {
	cands := synthetic(40000, 7, 1)
	shuffled := slices.Clone(cands)
	rand.New(rand.NewPCG(2, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, opts := range configs {
		t.Run(fmt.Sprintf("%d-%s", opts.Rules, opts.Track), func(t *testing.T) {
			opts.Seed = 20220701
			sel := mustSelect(t, cands, opts)
			for _, s := range sel.Summary {
				if s.Selected+sumDropped(s) != s.Candidates || s.Sat+s.Unsat+s.Unknown != s.Selected ||
					s.Eligible < s.Selected {
					t.Errorf("summary does not add up: %+v", s)
				}
			}
			a := fingerprint(sel)
			b := fingerprint(mustSelect(t, shuffled, opts))
			if len(a) == 0 {
				t.Fatal("empty selection")
			}
			if !slices.Equal(a, b) {
				t.Fatalf("input order changed the selection (%d vs %d benchmarks)", len(a), len(b))
			}
			if !slices.IsSorted(a) {
				t.Error("selection not in path order")
			}
			opts.Seed++
			c := fingerprint(mustSelect(t, cands, opts))
			random := opts.Rules != 2018
			if random == slices.Equal(a, c) {
				t.Errorf("another seed: same selection = %v, want %v", slices.Equal(a, c), !random)
			}
		})
	}
}

// TestDrawOrderAsDocumented recomputes a 2022 selection from
// docs/selection.md's description alone: logics in name order sharing one
// stream; in a logic, the new families in name order, one draw each over
// the family's eligible benchmarks in path order; then the first k steps
// of a Fisher-Yates shuffle of the remaining benchmarks in path order.
func TestDrawOrderAsDocumented(t *testing.T) {
	cands := concat(
		lib("QF_B", "old", 400, nil), lib("QF_B", "new/y", 3, newFamily), lib("QF_B", "new/x", 4, newFamily),
		lib("QF_A", "f", 700, nil))
	rand.New(rand.NewPCG(3, 3)).Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	const seed = 12345
	sel := mustSelect(t, cands, Options{Rules: 2022, Track: benchmark.SingleQuery, Seed: seed})

	r := crand.New(seed)
	fy := func(a []string, k int) []string {
		for i := 0; i < k; i++ {
			j := i + int(r.Random())%(len(a)-i)
			a[i], a[j] = a[j], a[i]
		}
		return a[:k]
	}
	paths := func(logic, family string) []string {
		var out []string
		for _, c := range cands {
			if c.Logic == logic && (family == "" || benchmark.Family(c.Path, 2022) == family) {
				out = append(out, c.Path)
			}
		}
		slices.Sort(out)
		return out
	}
	// QF_A: n = 700, 350 drawn.
	want := fy(paths("QF_A", ""), 350)
	// QF_B: n = 407, 300: new/x then new/y, then 298 of the other 405.
	x := paths("QF_B", "new/x")[int(r.Random())%4]
	y := paths("QF_B", "new/y")[int(r.Random())%3]
	rest := slices.DeleteFunc(paths("QF_B", ""), func(p string) bool { return p == x || p == y })
	want = append(want, x, y)
	want = append(want, fy(rest, 298)...)
	slices.Sort(want)

	var got []string
	for _, b := range sel.Benchmarks {
		got = append(got, b.Path)
	}
	if !slices.Equal(got, want) {
		t.Errorf("selection differs from the documented draw order (%d vs %d)", len(got), len(want))
	}
}
