package compete

import (
	"context"
	"fmt"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/selection"
	"github.com/smtarena/smtarena/internal/store"
)

// Candidates offers indexed benchmarks to the selection of a rules year,
// with what the stored results of earlier years say of them (imported with
// `smtarena import`, or written by earlier competitions):
//   - Prior, per earlier year: how many solvers ran the benchmark, how many
//     solved it (a sat or unsat answer, not contradicting a known status),
//     and the slowest and fastest solving CPU times;
//   - NewFamily: the family (as the year's rules define it) has no result
//     in any earlier year, the closest the store can tell to "new this
//     year";
//   - SoundSat, SoundUnsat: a solver answered sat (unsat) this year without
//     contradicting a known status.
func Candidates(ctx context.Context, st store.Store, bs []benchmark.Benchmark, year int) ([]selection.Candidate, error) {
	rs, err := st.Results(ctx, store.ResultFilter{})
	if err != nil {
		return nil, fmt.Errorf("prior results: %w", err)
	}
	type acc struct {
		solvers, solved map[string]bool
		max, min        float64
	}
	prior := map[string]map[int]*acc{}
	knownFamilies := map[string]bool{}
	soundSat, soundUnsat := map[string]bool{}, map[string]bool{}
	for _, r := range rs {
		if r.Track == ValidationTrack {
			continue // a validating solver's answer on a core, not on the benchmark
		}
		ok := (r.Answer == "sat" || r.Answer == "unsat") && !((r.Expected == "sat" || r.Expected == "unsat") && r.Expected != r.Answer)
		if r.Year == year {
			if ok && r.Answer == "sat" {
				soundSat[r.BenchmarkPath] = true
			}
			if ok && r.Answer == "unsat" {
				soundUnsat[r.BenchmarkPath] = true
			}
			continue
		}
		if r.Year > year {
			continue
		}
		knownFamilies[benchmark.Family(r.BenchmarkPath, year)] = true
		py := prior[r.BenchmarkPath]
		if py == nil {
			py = map[int]*acc{}
			prior[r.BenchmarkPath] = py
		}
		a := py[r.Year]
		if a == nil {
			a = &acc{solvers: map[string]bool{}, solved: map[string]bool{}, min: -1}
			py[r.Year] = a
		}
		who := r.Solver + "/" + r.Configuration
		a.solvers[who] = true
		if ok {
			a.solved[who] = true
			if r.CPU > a.max {
				a.max = r.CPU
			}
			if a.min < 0 || r.CPU < a.min {
				a.min = r.CPU
			}
		}
	}
	out := make([]selection.Candidate, len(bs))
	for i, b := range bs {
		c := selection.Candidate{Benchmark: b, SoundSat: soundSat[b.Path], SoundUnsat: soundUnsat[b.Path],
			NewFamily: !knownFamilies[benchmark.Family(b.Path, year)]}
		if py := prior[b.Path]; py != nil {
			c.Prior = map[int]selection.Prior{}
			for y, a := range py {
				p := selection.Prior{Solvers: len(a.solvers), SolvedBy: len(a.solved), MaxTime: a.max, MinTime: a.min}
				if p.MinTime < 0 {
					p.MinTime = 0
				}
				c.Prior[y] = p
			}
		}
		out[i] = c
	}
	return out, nil
}
