package selection

import (
	"cmp"
	"slices"

	"github.com/smtarena/smtarena/internal/crand"
)

// Heats divides a selection into n heats at random ("the selected
// benchmarks may be randomly divided into a number of (possibly
// unequal-sized) heats", 2014-2022), so that a competition cut short still
// has a random sample of every division. Logic by logic in name order, the
// logic's benchmarks in path order are shuffled by Fisher-Yates (for i = 0,
// ..., len-2: j = i + random() % (len - i), swap i and j), and dealt in
// shuffled order to heats 0, 1, ..., n-1, 0, 1, ..., the count running on
// from one logic to the next. Every heat thus holds an equal share (±1) of
// each logic and of the whole. n < 1 counts as 1.
func Heats(sel Selection, n int, r *crand.Rand) [][]Selected {
	n = max(n, 1)
	heats := make([][]Selected, n)
	all := slices.Clone(sel.Benchmarks)
	slices.SortFunc(all, func(a, b Selected) int {
		return cmp.Or(cmp.Compare(logicOf(&a.Candidate), logicOf(&b.Candidate)), cmp.Compare(a.Path, b.Path))
	})
	deal := 0
	for start := 0; start < len(all); {
		end := start + 1
		for end < len(all) && logicOf(&all[end].Candidate) == logicOf(&all[start].Candidate) {
			end++
		}
		group := all[start:end]
		for i := 0; i < len(group)-1; i++ {
			j := i + int(r.Random())%(len(group)-i)
			group[i], group[j] = group[j], group[i]
		}
		for _, b := range group {
			heats[deal%n] = append(heats[deal%n], b)
			deal++
		}
		start = end
	}
	return heats
}
