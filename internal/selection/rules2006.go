package selection

import (
	"cmp"
	"math"
	"slices"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The categories and sub-categories of 2006's slots, in the order the paper
// names them; this is also the order of the draws.
var (
	categories2006 = [3]benchmark.Category{benchmark.Industrial, benchmark.Crafted, benchmark.Random}
	share2006      = [3]int{85, 10, 5}
)

const (
	easySat = iota
	easyUnsat
	hardSat
	hardUnsat
)

// rules2006 follows section 3.4 of "Design and Results of SMT-COMP 2006"
// for one division (logic):
//
//  1. "all benchmarks in the check category are automatically included";
//  2. "for each family, if the family contains more than 200 benchmarks,
//     then 200 randomly selected benchmarks are put into the pool";
//  3. 100 slots, "85 ... industrial; 10 ... crafted; and 5 ... random",
//     reallocated when a category has too few;
//  4. each category's slots filled "with the same number of benchmarks
//     from each sub-category" (easy/hard × sat/unsat), a short
//     sub-category's allotment "divided among the other sub-categories".
func (s *selector) rules2006(m []int) {
	families := map[string][]int{}
	var names []string
	for _, i := range m {
		c := &s.cands[i]
		if c.Category == benchmark.Check {
			s.keep(i, c.CheckSats, CheckCategory)
			continue
		}
		f := benchmark.Family(c.Path, 2006)
		if _, ok := families[f]; !ok {
			names = append(names, f)
		}
		families[f] = append(families[f], i)
	}
	// Step 2, family by family in name order, each drawn from its
	// benchmarks in path order. The pool is the "remaining benchmarks" of
	// step 2: the difficulty and status of step 4 are not looked at yet.
	slices.Sort(names)
	var pool []int
	for _, f := range names {
		fam := families[f]
		if len(fam) > familyCap2006 {
			fam = choose(s.r, fam, familyCap2006)
			s.drop(FamilyCap, len(families[f])-familyCap2006)
		}
		pool = append(pool, fam...)
	}
	slices.SortFunc(pool, func(a, b int) int { return cmp.Compare(s.cands[a].Path, s.cands[b].Path) })

	// Step 4's partition, made first because step 3 can only count the
	// benchmarks that can fill a slot.
	var sub [3][4][]int
	for _, i := range pool {
		cat, sc := subcategory2006(&s.cands[i])
		if cat < 0 || sc < 0 {
			s.drop(NoSubcategory, 1)
			continue
		}
		sub[cat][sc] = append(sub[cat][sc], i)
	}
	var avail [3]int
	for cat := range sub {
		for _, l := range sub[cat] {
			avail[cat] += len(l)
		}
	}
	for cat, n := range slots2006Alloc(avail) {
		var caps [4]int
		for sc, l := range sub[cat] {
			caps[sc] = len(l)
		}
		for sc, k := range evenly(n, caps) {
			s.draw(sub[cat][sc], k, Drawn)
		}
	}
}

// slots2006Alloc allocates the 100 slots to industrial, crafted and random
// given how many benchmarks each can offer. Each category first gets its
// share (85, 10, 5) up to what it has; the slots left over go to
// industrial, then crafted, then random, each up to what it has. This is
// the paper's "if there are not enough crafted or random benchmarks, then
// more industrial slots are allocated. If, on the other hand, there are not
// enough industrial benchmarks, then more crafted slots are allocated",
// extended to random last (the paper: "all divisions had sufficient numbers
// of either industrial or crafted benchmarks"). Fewer than 100 benchmarks:
// all are taken.
func slots2006Alloc(avail [3]int) [3]int {
	var alloc [3]int
	total, used := 0, 0
	for cat := range alloc {
		alloc[cat] = min(share2006[cat], avail[cat])
		used += alloc[cat]
		total += avail[cat]
	}
	left := min(slots2006, total) - used
	for cat := range alloc {
		add := min(left, avail[cat]-alloc[cat])
		alloc[cat] += add
		left -= add
	}
	return alloc
}

// evenly divides k slots among sub-categories holding caps benchmarks "with
// the same number of benchmarks from each": in rounds, the slots left are
// split equally among the sub-categories that still have benchmarks, the
// remainder of the division going one each to the first of them in the
// paper's order (easy-sat, easy-unsat, hard-sat, hard-unsat); a
// sub-category gets no more than it has, and its unused share goes round
// again. So 85 slots give 22, 21, 21, 21.
func evenly(k int, caps [4]int) [4]int {
	var got [4]int
	for k > 0 {
		var open []int
		for sc := range caps {
			if got[sc] < caps[sc] {
				open = append(open, sc)
			}
		}
		if len(open) == 0 {
			break
		}
		q, r := k/len(open), k%len(open)
		for rank, sc := range open {
			g := q
			if rank < r {
				g++
			}
			g = min(g, caps[sc]-got[sc])
			got[sc] += g
			k -= g
		}
	}
	return got
}

// subcategory2006 places a benchmark in a category (index into
// categories2006) and a sub-category, or returns -1 for either. "A
// benchmark is easy if it has difficulty 0, 1, or 2 (benchmarks with
// difficulty -1 are ignored) and hard if it has difficulty 3, 4, or 5":
// difficulties are integers there (5·(1 − solved/total), rounded); we round
// a fractional one to the nearest integer, and any negative one (also our
// "no :difficulty") is ignored. "A benchmark is 'sat' or 'unsat' based on
// its status attribute": unknown is neither, so it is ignored too.
func subcategory2006(c *Candidate) (cat, sc int) {
	cat = slices.Index(categories2006[:], c.Category)
	if c.Difficulty < 0 {
		return cat, -1
	}
	hard := math.Round(c.Difficulty) >= 3
	switch {
	case c.Status == benchmark.Sat && !hard:
		return cat, easySat
	case c.Status == benchmark.Unsat && !hard:
		return cat, easyUnsat
	case c.Status == benchmark.Sat:
		return cat, hardSat
	case c.Status == benchmark.Unsat:
		return cat, hardUnsat
	}
	return cat, -1
}
