package selection

import (
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// usable2006 gives benchmark i a category and a sub-category, cycling
// through easy-sat, easy-unsat, hard-sat, hard-unsat.
func usable2006(cat benchmark.Category) func(int, *Candidate) {
	return func(i int, c *Candidate) {
		c.Category = cat
		c.Status = []benchmark.Status{benchmark.Sat, benchmark.Unsat}[i%2]
		c.Difficulty = []float64{1, 4}[i/2%2]
	}
}

// sub2006 gives every benchmark the same category and sub-category.
func sub2006(cat benchmark.Category, st benchmark.Status, diff float64) func(int, *Candidate) {
	return func(_ int, c *Candidate) { c.Category, c.Status, c.Difficulty = cat, st, diff }
}

func byCategory(sel Selection) map[benchmark.Category]int {
	out := map[benchmark.Category]int{}
	for _, b := range sel.Benchmarks {
		out[b.Category]++
	}
	return out
}

func bySub(sel Selection, cat benchmark.Category) [4]int {
	var out [4]int
	for _, b := range sel.Benchmarks {
		if b.Category != cat {
			continue
		}
		_, sc := subcategory2006(&b.Candidate)
		out[sc]++
	}
	return out
}

// TestRules2006 follows section 3.4 of the 2006 paper step by step.
func TestRules2006(t *testing.T) {
	const L = "QF_IDL"
	ind, cra, ran := benchmark.Industrial, benchmark.Crafted, benchmark.Random
	type want struct {
		selected int
		dropped  map[Reason]int
		cats     map[benchmark.Category]int // selected by category, if set
		subs     map[benchmark.Category][4]int
	}
	tests := []struct {
		name  string
		cands []Candidate
		want  want
	}{
		{
			// Step 2: three families of 300 put 3×200 into the pool; step 3
			// gives industrial all 100 slots, there being no crafted or
			// random benchmark.
			name: "family cap 3x300",
			cands: concat(lib(L, "a", 300, usable2006(ind)), lib(L, "b", 300, usable2006(ind)),
				lib(L, "c", 300, usable2006(ind))),
			want: want{selected: 100, dropped: map[Reason]int{FamilyCap: 300, NotDrawn: 500},
				cats: map[benchmark.Category]int{ind: 100}},
		},
		{
			name:  "family cap 300+50",
			cands: concat(lib(L, "a", 300, usable2006(ind)), lib(L, "b", 50, usable2006(ind))),
			want:  want{selected: 100, dropped: map[Reason]int{FamilyCap: 100, NotDrawn: 150}},
		},
		{
			name:  "family of exactly 200 is not cut",
			cands: lib(L, "a", 200, usable2006(ind)),
			want:  want{selected: 100, dropped: map[Reason]int{NotDrawn: 100}},
		},
		{
			// Step 1: check benchmarks are in whatever their difficulty or
			// status, and take no slot.
			name: "check always in",
			cands: concat(lib(L, "check", 3, sub2006(benchmark.Check, benchmark.Unknown, -1)),
				lib(L, "a", 150, usable2006(ind))),
			want: want{selected: 103, dropped: map[Reason]int{NotDrawn: 50},
				cats: map[benchmark.Category]int{benchmark.Check: 3, ind: 100}},
		},
		{
			name:  "shares 85/10/5",
			cands: concat(lib(L, "i", 200, usable2006(ind)), lib(L, "c", 200, usable2006(cra)), lib(L, "r", 200, usable2006(ran))),
			want: want{selected: 100, cats: map[benchmark.Category]int{ind: 85, cra: 10, ran: 5},
				subs: map[benchmark.Category][4]int{ind: {22, 21, 21, 21}, cra: {3, 3, 2, 2}, ran: {2, 1, 1, 1}}},
		},
		{
			// "If there are not enough crafted or random benchmarks, then
			// more industrial slots are allocated."
			name:  "too few crafted and random",
			cands: concat(lib(L, "i", 200, usable2006(ind)), lib(L, "c", 4, usable2006(cra)), lib(L, "r", 2, usable2006(ran))),
			want:  want{selected: 100, cats: map[benchmark.Category]int{ind: 94, cra: 4, ran: 2}},
		},
		{
			// "If ... there are not enough industrial benchmarks, then more
			// crafted slots are allocated."
			name:  "too few industrial",
			cands: concat(lib(L, "i", 30, usable2006(ind)), lib(L, "c", 100, usable2006(cra)), lib(L, "r", 100, usable2006(ran))),
			want:  want{selected: 100, cats: map[benchmark.Category]int{ind: 30, cra: 65, ran: 5}},
		},
		{
			// Our extension: random takes what neither could.
			name:  "too few industrial and crafted",
			cands: concat(lib(L, "i", 10, usable2006(ind)), lib(L, "c", 20, usable2006(cra)), lib(L, "r", 100, usable2006(ran))),
			want:  want{selected: 100, cats: map[benchmark.Category]int{ind: 10, cra: 20, ran: 70}},
		},
		{
			name:  "fewer than 100 in all",
			cands: concat(lib(L, "i", 50, usable2006(ind)), lib(L, "c", 5, usable2006(cra))),
			want:  want{selected: 55, cats: map[benchmark.Category]int{ind: 50, cra: 5}},
		},
		{
			// Step 4: a short sub-category's allotment is divided among the
			// others: 100 = 25×4, hard-unsat has 5, the 20 left go 7, 7, 6.
			name: "short sub-category",
			cands: concat(lib(L, "es", 100, sub2006(ind, benchmark.Sat, 0)), lib(L, "eu", 100, sub2006(ind, benchmark.Unsat, 2)),
				lib(L, "hs", 100, sub2006(ind, benchmark.Sat, 3)), lib(L, "hu", 5, sub2006(ind, benchmark.Unsat, 5))),
			want: want{selected: 100, subs: map[benchmark.Category][4]int{ind: {32, 32, 31, 5}}},
		},
		{
			// "benchmarks with difficulty -1 are ignored"; unknown status
			// is neither sat nor unsat; no category is none of the three.
			name: "ignored",
			cands: concat(lib(L, "none", 40, sub2006(ind, benchmark.Sat, -1)), lib(L, "unk", 30, sub2006(ind, benchmark.Unknown, 1)),
				lib(L, "nocat", 10, sub2006("", benchmark.Sat, 1)), lib(L, "ok", 20, usable2006(ind))),
			want: want{selected: 20, dropped: map[Reason]int{NoSubcategory: 80}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel := mustSelect(t, tt.cands, Options{Rules: 2006, Track: benchmark.SingleQuery, Seed: 7})
			s := summary(t, sel, L)
			if s.Selected != tt.want.selected || len(sel.Benchmarks) != tt.want.selected {
				t.Errorf("selected %d (%d listed), want %d", s.Selected, len(sel.Benchmarks), tt.want.selected)
			}
			for r, n := range tt.want.dropped {
				if s.Dropped[r] != n {
					t.Errorf("dropped %s: %d, want %d (all: %v)", r, s.Dropped[r], n, s.Dropped)
				}
			}
			if tt.want.cats != nil {
				if got := byCategory(sel); !equalMaps(got, tt.want.cats) {
					t.Errorf("by category %v, want %v", got, tt.want.cats)
				}
			}
			for cat, w := range tt.want.subs {
				if got := bySub(sel, cat); got != w {
					t.Errorf("%s by sub-category %v, want %v", cat, got, w)
				}
			}
			if s.Candidates != len(tt.cands) || s.Selected+sumDropped(s) != s.Candidates {
				t.Errorf("summary does not add up: %+v", s)
			}
		})
	}
}

func TestSlots2006(t *testing.T) {
	tests := []struct{ avail, want [3]int }{
		{[3]int{1000, 1000, 1000}, [3]int{85, 10, 5}},
		{[3]int{1000, 0, 0}, [3]int{100, 0, 0}},
		{[3]int{1000, 3, 1}, [3]int{96, 3, 1}},
		{[3]int{0, 1000, 1000}, [3]int{0, 95, 5}},
		{[3]int{0, 0, 7}, [3]int{0, 0, 7}},
		{[3]int{0, 0, 0}, [3]int{0, 0, 0}},
	}
	for _, tt := range tests {
		if got := slots2006Alloc(tt.avail); got != tt.want {
			t.Errorf("slots(%v) = %v, want %v", tt.avail, got, tt.want)
		}
	}
}

func TestEvenly(t *testing.T) {
	tests := []struct {
		k         int
		caps, out [4]int
	}{
		{85, [4]int{100, 100, 100, 100}, [4]int{22, 21, 21, 21}},
		{10, [4]int{100, 100, 100, 100}, [4]int{3, 3, 2, 2}},
		{3, [4]int{0, 100, 100, 100}, [4]int{0, 1, 1, 1}},
		{85, [4]int{0, 0, 0, 2}, [4]int{0, 0, 0, 2}},
		{85, [4]int{10, 100, 1, 100}, [4]int{10, 37, 1, 37}},
		{0, [4]int{5, 5, 5, 5}, [4]int{}},
	}
	for _, tt := range tests {
		if got := evenly(tt.k, tt.caps); got != tt.out {
			t.Errorf("evenly(%d, %v) = %v, want %v", tt.k, tt.caps, got, tt.out)
		}
	}
}

func TestSubcategory2006(t *testing.T) {
	tests := []struct {
		cat      benchmark.Category
		st       benchmark.Status
		diff     float64
		wcat, ws int
	}{
		{benchmark.Industrial, benchmark.Sat, 0, 0, easySat},
		{benchmark.Crafted, benchmark.Unsat, 2, 1, easyUnsat},
		{benchmark.Random, benchmark.Sat, 3, 2, hardSat},
		{benchmark.Industrial, benchmark.Unsat, 5, 0, hardUnsat},
		{benchmark.Industrial, benchmark.Sat, 2.4, 0, easySat}, // rounds to 2
		{benchmark.Industrial, benchmark.Sat, 2.5, 0, hardSat}, // rounds to 3
		{benchmark.Industrial, benchmark.Sat, -1, 0, -1},
		{benchmark.Industrial, benchmark.Unknown, 1, 0, -1},
		{benchmark.Check, benchmark.Sat, 1, -1, easySat},
	}
	for _, tt := range tests {
		c := Candidate{Benchmark: benchmark.Benchmark{Category: tt.cat, Status: tt.st, Difficulty: tt.diff}}
		if cat, sc := subcategory2006(&c); cat != tt.wcat || sc != tt.ws {
			t.Errorf("%s %s %g: (%d, %d), want (%d, %d)", tt.cat, tt.st, tt.diff, cat, sc, tt.wcat, tt.ws)
		}
	}
}

func equalMaps[K comparable](a, b map[K]int) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

func sumDropped(s LogicSummary) int {
	n := 0
	for _, v := range s.Dropped {
		n += v
	}
	return n
}
