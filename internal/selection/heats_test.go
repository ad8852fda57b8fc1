package selection

import (
	"fmt"
	"slices"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/crand"
)

func heatPaths(heats [][]Selected) [][]string {
	out := make([][]string, len(heats))
	for h, heat := range heats {
		for _, b := range heat {
			out[h] = append(out[h], b.Path)
		}
	}
	return out
}

// TestHeats: "the selected benchmarks may be randomly divided into a
// number of (possibly unequal-sized) heats".
func TestHeats(t *testing.T) {
	sel := mustSelect(t, synthetic(20000, 5, 4), Options{Rules: 2022, Track: benchmark.SingleQuery, Seed: 1})
	for _, n := range []int{1, 3, 4, 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			heats := Heats(sel, n, crand.New(99))
			if len(heats) != n {
				t.Fatalf("%d heats", len(heats))
			}
			var all []string
			perLogic := map[string][]int{}
			for h, heat := range heats {
				for _, b := range heat {
					all = append(all, b.Path)
					if perLogic[b.Logic] == nil {
						perLogic[b.Logic] = make([]int, n)
					}
					perLogic[b.Logic][h]++
				}
			}
			// Every selected benchmark in exactly one heat.
			slices.Sort(all)
			if !slices.Equal(all, fingerprintPaths(sel)) {
				t.Fatal("heats are not a partition of the selection")
			}
			// Equal shares (±1) of the whole and of each logic.
			sizes := make([]int, n)
			for h := range heats {
				sizes[h] = len(heats[h])
			}
			if slices.Max(sizes)-slices.Min(sizes) > 1 {
				t.Errorf("heat sizes %v", sizes)
			}
			for l, c := range perLogic {
				if slices.Max(c)-slices.Min(c) > 1 {
					t.Errorf("%s per heat %v", l, c)
				}
			}
			// Same stream, same heats; another, others.
			if !slices.EqualFunc(heatPaths(heats), heatPaths(Heats(sel, n, crand.New(99))), slices.Equal) {
				t.Error("same seed, different heats")
			}
			if n > 1 && slices.EqualFunc(heatPaths(heats), heatPaths(Heats(sel, n, crand.New(100))), slices.Equal) {
				t.Error("another seed, same heats")
			}
		})
	}
	if h := Heats(sel, 0, crand.New(1)); len(h) != 1 || len(h[0]) != len(sel.Benchmarks) {
		t.Errorf("n = 0: %d heats", len(h))
	}
	if h := Heats(Selection{}, 3, crand.New(1)); len(h) != 3 || len(h[0])+len(h[1])+len(h[2]) != 0 {
		t.Errorf("empty selection: %v", h)
	}
}

// TestHeatsAsDocumented recomputes heats from docs/selection.md: per logic
// in name order, a full Fisher-Yates shuffle of its benchmarks in path
// order, dealt round-robin with the count running on across logics.
func TestHeatsAsDocumented(t *testing.T) {
	cands := concat(lib("QF_B", "f", 5, nil), lib("QF_A", "f", 4, nil))
	sel := mustSelect(t, cands, Options{Rules: 2018, Track: benchmark.SingleQuery})
	r := crand.New(7)
	want := make([][]string, 3)
	deal := 0
	for _, logic := range []string{"QF_A", "QF_B"} {
		var a []string
		for _, b := range sel.Benchmarks {
			if b.Logic == logic {
				a = append(a, b.Path)
			}
		}
		for i := 0; i < len(a)-1; i++ {
			j := i + int(r.Random())%(len(a)-i)
			a[i], a[j] = a[j], a[i]
		}
		for _, p := range a {
			want[deal%3] = append(want[deal%3], p)
			deal++
		}
	}
	if got := heatPaths(Heats(sel, 3, crand.New(7))); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("heats %v, want %v", got, want)
	}
}

func fingerprintPaths(sel Selection) []string {
	out := make([]string, len(sel.Benchmarks))
	for i, b := range sel.Benchmarks {
		out[i] = b.Path
	}
	slices.Sort(out)
	return out
}
