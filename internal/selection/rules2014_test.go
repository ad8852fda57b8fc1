package selection

import (
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// easy2014 makes a benchmark that every 2013 solver solved in under 5 s.
func easy2014(_ int, c *Candidate) {
	c.Prior = map[int]Prior{2013: {Solvers: 3, SolvedBy: 3, MaxTime: 4.9, MinTime: 0.1}}
}

// timed2014 gives benchmark i the difficulty i: its fastest 2013 solver
// took i seconds, and not every solver solved it.
func timed2014(i int, c *Candidate) {
	c.Prior = map[int]Prior{2013: {Solvers: 2, SolvedBy: 1, MaxTime: float64(i), MinTime: float64(i)}}
}

// TestRetire2014 follows "Retire very easy benchmarks ... unless doing so
// reduces the pool of benchmarks for the division to less than 300".
func TestRetire2014(t *testing.T) {
	const L = "QF_LIA"
	notEasy := func(i int, c *Candidate) {
		switch i % 4 {
		case 0: // not all solved it
			c.Prior = map[int]Prior{2013: {Solvers: 3, SolvedBy: 2, MaxTime: 1}}
		case 1: // 5 s is not under 5 s
			c.Prior = map[int]Prior{2013: {Solvers: 3, SolvedBy: 3, MaxTime: 5}}
		case 2: // no solver ran it
			c.Prior = map[int]Prior{2013: {}}
		case 3: // easy, but in another year
			c.Prior = map[int]Prior{2012: {Solvers: 3, SolvedBy: 3, MaxTime: 1}}
		}
	}
	tests := []struct {
		name              string
		rest, easy        int
		retired, selected int
	}{
		{"pool would drop to 250", 250, 150, 0, 400},
		{"pool stays 350", 350, 50, 50, 350},
		{"pool of exactly 300 is not less than 300", 300, 10, 10, 300},
		{"pool would drop to 299", 299, 10, 0, 309},
		{"nothing easy", 400, 0, 0, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cands := concat(lib(L, "rest", tt.rest, notEasy), lib(L, "easy", tt.easy, easy2014))
			sel := mustSelect(t, cands, Options{Rules: 2014, Track: benchmark.SingleQuery})
			s := summary(t, sel, L)
			if s.Dropped[Easy] != tt.retired || s.Selected != tt.selected {
				t.Errorf("retired %d, selected %d; want %d, %d", s.Dropped[Easy], s.Selected, tt.retired, tt.selected)
			}
			if s.Eligible != tt.selected {
				t.Errorf("eligible %d, want %d", s.Eligible, tt.selected)
			}
		})
	}
}

// quintileOf is the quintile (0 = hardest) of benchmark i of 500 timed
// ones, hardest being the slowest.
func quintileOf(b Selected) int {
	p, ok := b.Prior[2013]
	if !ok || p.SolvedBy == 0 {
		return 0
	}
	return 4 - int(p.MinTime)/100
}

// TestQuintiles2014 follows the 40/60/75/90 % fill and the 85 % industrial
// rule on 500 benchmarks, 100 per quintile.
func TestQuintiles2014(t *testing.T) {
	const L = "QF_BV"
	crafted := func(pred func(i int) bool) func(int, *Candidate) {
		return func(i int, c *Candidate) {
			timed2014(i, c)
			if pred(i) {
				c.Category = benchmark.Crafted
			}
		}
	}
	tests := []struct {
		name  string
		cands []Candidate
		n     int
		want  [5]int // selected per quintile, hardest first
		ind   [5]int // of which industrial; -1: not checked
	}{
		{
			name:  "N=100",
			cands: lib(L, "f", 500, timed2014),
			n:     100, want: [5]int{40, 20, 15, 15, 10}, ind: [5]int{40, 20, 15, 15, 10},
		},
		{
			// Each quintile has 100: the top four run short and pass
			// their rest down.
			name:  "N=450",
			cands: lib(L, "f", 500, timed2014),
			n:     450, want: [5]int{100, 100, 100, 100, 50}, ind: [5]int{100, 100, 100, 100, 50},
		},
		{
			// Unsolved or without a 2013 result: hardest.
			name: "unsolved and new are hardest",
			cands: concat(lib(L, "f", 500, func(i int, c *Candidate) {
				timed2014(i, c)
				if i >= 400 && i%2 == 0 {
					c.Prior = map[int]Prior{2013: {Solvers: 2}}
				} else if i >= 400 {
					c.Prior = nil
				}
			})),
			n: 100, want: [5]int{40, 20, 15, 15, 10}, ind: [5]int{40, 20, 15, 15, 10},
		},
		{
			// Half industrial everywhere (< 85 %): 85 % of each
			// quintile's share, rounded: 34, 17, 12.75→13, 13, 8.5→9.
			name:  "85% industrial",
			cands: lib(L, "f", 500, crafted(func(i int) bool { return i%2 == 1 })),
			n:     100, want: [5]int{40, 20, 15, 15, 10}, ind: [5]int{34, 17, 13, 13, 9},
		},
		{
			// The top quintile has only 10 industrial: all of them, and
			// 30 others. The others are at least 85 % industrial: drawn
			// from the whole quintile.
			name:  "too few industrial",
			cands: lib(L, "f", 500, crafted(func(i int) bool { return i >= 400 && i < 490 || i%100 == 7 })),
			n:     100, want: [5]int{40, 20, 15, 15, 10}, ind: [5]int{10, -1, -1, -1, -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel := mustSelect(t, tt.cands, Options{Rules: 2014, Track: benchmark.SingleQuery, N: tt.n, Seed: 42})
			var got, ind [5]int
			for _, b := range sel.Benchmarks {
				q := quintileOf(b)
				got[q]++
				if b.Category == benchmark.Industrial {
					ind[q]++
				}
			}
			if got != tt.want {
				t.Errorf("per quintile %v, want %v", got, tt.want)
			}
			for q := range ind {
				if tt.ind[q] >= 0 && ind[q] != tt.ind[q] {
					t.Errorf("industrial per quintile %v, want %v", ind, tt.ind)
					break
				}
			}
			s := summary(t, sel, L)
			if s.Selected != tt.n || s.Dropped[NotDrawn] != 500-tt.n {
				t.Errorf("summary %+v", s)
			}
		})
	}
}

// TestN2014 checks that every N below the pool gives exactly N, whatever
// the rounding of the quintiles' shares.
func TestN2014(t *testing.T) {
	for n := 1; n <= 60; n++ {
		cands := lib("QF_UF", "f", n, func(i int, c *Candidate) {
			timed2014(i, c)
			if i%3 == 0 {
				c.Category = benchmark.Random
			}
		})
		for want := 1; want <= n+1; want++ {
			sel := mustSelect(t, cands, Options{Rules: 2014, Track: benchmark.SingleQuery, N: want, Seed: uint32(n)})
			if got := len(sel.Benchmarks); got != min(want, n) {
				t.Fatalf("pool %d, N %d: selected %d", n, want, got)
			}
		}
	}
}

// TestApplication2014: "A random selection of all the available
// benchmarks", all of them when there is time.
func TestApplication2014(t *testing.T) {
	var st [][]benchmark.Status
	for i := 0; i < 20; i++ {
		st = append(st, []benchmark.Status{benchmark.Sat, benchmark.Unknown})
	}
	cands := concat(incLib("QF_BV", "f", st...), lib("QF_BV", "g", 5, nil))
	sel := mustSelect(t, cands, Options{Rules: 2014, Track: benchmark.Incremental})
	if s := summary(t, sel, "QF_BV"); s.Candidates != 20 || s.Selected != 20 || count(sel, withReason(All)) != 20 {
		t.Errorf("all: %+v", s)
	}
	if sel.Benchmarks[0].KeepCheckSats != 2 {
		t.Errorf("2014 keeps every check-sat, got %d", sel.Benchmarks[0].KeepCheckSats)
	}
	sel = mustSelect(t, cands, Options{Rules: 2014, Track: benchmark.Incremental, N: 5, Seed: 3})
	if s := summary(t, sel, "QF_BV"); s.Selected != 5 || s.Dropped[NotDrawn] != 15 || count(sel, withReason(Drawn)) != 5 {
		t.Errorf("N=5: %+v", s)
	}
}
