package compete

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/proof"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/track"
)

// isProbe reports whether a pair of the proof track belongs to the checker
// soundness probe: its benchmark is satisfiable, which no benchmark the
// track selects is.
func isProbe(p store.Pair) bool {
	return p.Track == string(benchmark.Proof) && p.Expected == string(benchmark.Sat)
}

// probeBenchmarks picks, per division of the proof track, the track's
// probe setting of satisfiable benchmarks of the logics run, in run order
// (seeded), for the checker soundness probe.
func (p *Prepared) probeBenchmarks(ctx context.Context, t benchmark.Track, runLogic map[string]bool, divOf map[string]string) ([]benchmark.Benchmark, error) {
	n := p.Def.Tracks[string(t)].Probe
	if t != benchmark.Proof || n <= 0 {
		return nil, nil
	}
	bs, err := p.eligible(ctx, t)
	if err != nil {
		return nil, err
	}
	var sat []benchmark.Benchmark
	for _, b := range bs {
		if b.Status == benchmark.Sat && runLogic[b.Logic] {
			sat = append(sat, b)
		}
	}
	taken := map[string]int{}
	var out []benchmark.Benchmark
	for _, b := range p.runOrder(sat) {
		if d := divOf[b.Logic]; taken[d] < n {
			taken[d]++
			out = append(out, b)
		}
	}
	return out, nil
}

// runProof runs a pair of the proof track: the solver, then its checker,
// under the track's limits together (internal/proof). The proof is kept in
// the work directory under proofs/<track>/<pair id>.out (.gz when large).
func (r *runner) runProof(ctx context.Context, slot int, p store.Pair, ts track.Solver) (store.Result, error) {
	out := filepath.Join(r.p.Def.Path(r.p.Def.WorkDir), "proofs", string(r.track), fmt.Sprintf("%d.out", p.ID))
	limits := r.limits(slot)
	pr, err := proof.Run(ctx, proof.Pair{Solver: ts.ProofArgs(p.Input), Limits: limits, Output: out,
		Checker: func(output string) []string { return ts.CheckerArgs(p.Input, output) }})
	if err != nil {
		return store.Result{}, err
	}
	probe := isProbe(p)
	o := proof.Judge(pr.Check, pr.Limit, probe)
	stats := make([][2]string, len(pr.Check.Stats))
	for i, s := range pr.Check.Stats {
		stats[i] = [2]string{s.Key, s.Value}
	}
	head := pr.CheckerOutput
	if len(head) > 4096 {
		head = head[:4096]
	}
	extra := map[string]any{"verdict": pr.Check.Verdict, "checker_line": pr.Check.Line, "reason": o.Reason,
		"wrong": o.Erroneous, "probe": probe, "unsound_checker": o.Unsound, "stats": stats,
		"solver_answer": pr.Answer, "solver_reason": pr.Solver.Reason, "solver_exit_code": pr.Solver.ExitCode, "solver_error": pr.Solver.Error,
		"solver_cpu": pr.Solver.CPU.Seconds(), "solver_wall": pr.Solver.Wall.Seconds(), "checker_output": string(head),
		"proof_file": pr.Kept.Path, "proof_bytes": pr.Kept.Bytes, "proof_stored_bytes": pr.Kept.Stored, "proof_compressed": pr.Kept.Compressed,
		"backend": pr.Solver.Backend}
	if c := pr.Checker; c != nil {
		extra["checker_reason"], extra["checker_exit_code"], extra["checker_error"] = c.Reason, c.ExitCode, c.Error
		extra["checker_cpu"], extra["checker_wall"] = c.CPU.Seconds(), c.Wall.Seconds()
	}
	recordLimits(extra, limits)
	recordKept(extra, r.p.Def.Path(r.p.Def.WorkDir), pr.Kept)
	res := r.result(p, extra)
	res.Status, res.Answer = pr.Status, o.Answer
	res.CPU, res.Wall, res.MemoryMB = pr.CPU.Seconds(), pr.Wall.Seconds(), float64(pr.PeakBytes)/(1<<20)
	return res, nil
}

// ProofSummary is a solver's row in a division's table of the proof
// track: its checker's verdicts, the sizes of its proofs, the sums of the
// checker's key=value statistics, and the soundness probe.
type ProofSummary struct {
	Division, Solver string
	Pairs            int
	// Verdicts counts the checker's verdicts (valid, holey, invalid,
	// sat, unknown) and, for pairs without one, the reason (timeout,
	// memout, error, ...).
	Verdicts map[string]int
	// Erroneous counts sat and invalid (2022 §5.8).
	Erroneous  int
	ProofBytes int64 // output of the solver, before compression
	CPU, Wall  float64
	// Stats holds, per key the checker printed, the sum of its values
	// when all are numbers, else the value when all are the same, else
	// "*".
	Stats map[string]string
	// ProbePairs ran on satisfiable benchmarks; ProbeValid of them the
	// checker called valid, which flags it unsound.
	ProbePairs, ProbeValid int
}

// ProofTables reads the proof track's results into a row per division and
// solver, sorted by division and solver, and the statistics' keys in the
// order they first appear. There is no score (2022 §5.8).
func ProofTables(ctx context.Context, def *config.Competition, st store.Store) ([]ProofSummary, []string, error) {
	t := benchmark.Proof
	if _, ok := def.Tracks[string(t)]; !ok {
		return nil, nil, nil
	}
	ps, err := st.Pairs(ctx, Key(def, t))
	if err != nil {
		return nil, nil, err
	}
	rs, err := st.Results(ctx, store.ResultFilter{Track: string(t)})
	if err != nil {
		return nil, nil, err
	}
	res := map[string]store.Result{}
	for _, r := range rs {
		res[r.SourceKey] = r
	}
	by := map[[2]string]*ProofSummary{}
	type acc struct {
		sum     float64
		numeric bool
		value   string
		same    bool
	}
	accs := map[[2]string]map[string]*acc{}
	var keys []string
	seenKey := map[string]bool{}
	for _, p := range ps {
		k := [2]string{p.Division, p.Solver}
		s := by[k]
		if s == nil {
			s = &ProofSummary{Division: p.Division, Solver: p.Solver, Verdicts: map[string]int{}, Stats: map[string]string{}}
			by[k], accs[k] = s, map[string]*acc{}
		}
		r, ok := res[fmt.Sprintf("pair:%d", p.ID)]
		if !ok {
			continue
		}
		var extra struct {
			Verdict    string      `json:"verdict"`
			Reason     string      `json:"reason"`
			Wrong      bool        `json:"wrong"`
			Unsound    bool        `json:"unsound_checker"`
			Stats      [][2]string `json:"stats"`
			ProofBytes int64       `json:"proof_bytes"`
		}
		_ = json.Unmarshal([]byte(r.Extra), &extra)
		if isProbe(p) {
			s.ProbePairs++
			if extra.Unsound {
				s.ProbeValid++
			}
			continue
		}
		s.Pairs++
		switch {
		case extra.Verdict != "":
			s.Verdicts[extra.Verdict]++
		case extra.Reason != "":
			s.Verdicts[extra.Reason]++
		default:
			s.Verdicts[r.Status]++ // unsupported logic
		}
		if extra.Wrong {
			s.Erroneous++
		}
		s.ProofBytes += extra.ProofBytes
		s.CPU += r.CPU
		s.Wall += r.Wall
		for _, kv := range extra.Stats {
			if !seenKey[kv[0]] {
				seenKey[kv[0]] = true
				keys = append(keys, kv[0])
			}
			a := accs[k][kv[0]]
			if a == nil {
				a = &acc{numeric: true, value: kv[1], same: true}
				accs[k][kv[0]] = a
			}
			f, err := strconv.ParseFloat(kv[1], 64)
			a.numeric = a.numeric && err == nil
			a.sum += f
			a.same = a.same && a.value == kv[1]
		}
	}
	out := make([]ProofSummary, 0, len(by))
	for k, s := range by {
		for key, a := range accs[k] {
			switch {
			case a.numeric:
				s.Stats[key] = strconv.FormatFloat(a.sum, 'f', -1, 64)
			case a.same:
				s.Stats[key] = a.value
			default:
				s.Stats[key] = "*"
			}
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Division != out[j].Division {
			return out[i].Division < out[j].Division
		}
		return out[i].Solver < out[j].Solver
	})
	return out, keys, nil
}
