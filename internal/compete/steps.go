package compete

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/crand"
	"github.com/smtarena/smtarena/internal/library"
	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/scramble"
	"github.com/smtarena/smtarena/internal/selection"
	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/trace"
	"github.com/smtarena/smtarena/internal/track"
)

// selectFor selects a track's benchmarks by the competition's rules
// (internal/selection), with the prior results the store holds. It returns
// the selected benchmarks and, for incremental scripts cut to a prefix, how
// many check-sats to keep. Where the rules leave the choice to the
// organisers (2022's parallel and cloud tracks), every eligible benchmark
// is taken.
func selectFor(ctx context.Context, p *Prepared, t benchmark.Track, bs []benchmark.Benchmark, log *slog.Logger) ([]benchmark.Benchmark, map[int64]int, error) {
	cands, err := Candidates(ctx, p.Store, bs, p.Def.Rules)
	if err != nil {
		return nil, nil, err
	}
	rules := p.Def.Rules
	sel, err := selection.Select(cands, selection.Options{Rules: rules, Track: t, Seed: p.Seed})
	if errors.Is(err, errors.ErrUnsupported) {
		// 2022 §5.6/5.7: "400 instances will be chosen such that their run
		// times are sufficiently high based on our estimation".
		n := p.Def.Tracks[string(t)].Count
		if n <= 0 {
			n = 400
		}
		hard := hardest(cands, n, p.Seed)
		log.Info("selected the hardest benchmarks by prior results", "track", t, "eligible", len(bs), "selected", len(hard))
		return hard, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	keep := map[int64]int{}
	out := make([]benchmark.Benchmark, 0, len(sel.Benchmarks))
	for _, s := range sel.Benchmarks {
		out = append(out, s.Benchmark)
		if s.Incremental && s.KeepCheckSats > 0 && s.KeepCheckSats < s.CheckSats {
			keep[s.ID] = s.KeepCheckSats
		}
	}
	for _, ls := range sel.Summary {
		log.Info("selected", "track", t, "logic", ls.Logic, "eligible", ls.Eligible, "selected", ls.Selected)
	}
	return out, keep, nil
}

// cutAfter returns the script up to and including its n-th check-sat,
// followed by (exit): 2018's cut of an incremental script before its first
// check-sat of unknown status.
func cutAfter(name string, src []byte, n int) ([]byte, error) {
	s, err := smtlib.Parse(name, src, 0)
	if err != nil {
		return nil, err
	}
	seen := 0
	cmds := s.Commands()
	for i, c := range cmds {
		if c.Kind != smtlib.CmdCheckSat {
			continue
		}
		seen++
		if seen == n {
			end := len(src)
			if i+1 < len(cmds) {
				end = cmds[i+1].Pos.Offset()
			}
			return append(append([]byte(nil), src[:end]...), "\n(exit)\n"...), nil
		}
	}
	return src, nil
}

// sourceOf finds a benchmark's file among the library roots.
func (p *Prepared) sourceOf(b benchmark.Benchmark) (string, error) {
	for _, r := range p.Def.Library {
		root := p.Def.Path(r)
		// The library path starts at the track directory; the root may be
		// above it, at it, or be a logic directory below it.
		for _, cand := range []string{filepath.Join(root, b.Path), filepath.Join(filepath.Dir(root), b.Path)} {
			if _, err := os.Stat(cand); err == nil {
				return cand, nil
			}
		}
		if library.LibraryPath(root) != "" {
			var found string
			_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && library.LibraryPath(path) == b.Path {
					found = path
					return filepath.SkipAll
				}
				return nil
			})
			if found != "" {
				return found, nil
			}
		}
	}
	return "", fmt.Errorf("%s: not found under the library roots %v", b.Path, p.Def.Library)
}

// inputError is a benchmark the track cannot use: the scrambler refuses it
// (as the official one would: a set-option it does not know, ...) or it
// does not parse. The benchmark is left out of the track, not the
// competition stopped.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// prepareInput writes the file the solvers get for a benchmark (once; an
// existing one is kept) and returns its path and the expected answer(s).
func (p *Prepared) prepareInput(t benchmark.Track, b benchmark.Benchmark, keep int, dir string) (string, string, error) {
	src, err := p.sourceOf(b)
	if err != nil {
		return "", "", err
	}
	expected := expectedOf(b, src)
	dst := filepath.Join(dir, fmt.Sprintf("%d.smt2", b.ID))
	if _, err := os.Stat(dst); err == nil {
		return dst, expected, nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return "", "", err
	}
	if keep > 0 {
		if data, err = cutAfter(src, data, keep); err != nil {
			return "", "", &inputError{err}
		}
		exp := strings.Fields(expected)
		if keep < len(exp) {
			expected = strings.Join(exp[:keep], " ")
		}
	}
	// Scramble as the official scrambler does for the track, with the
	// competition's seed (the 2022 setting: -term_annot pattern). An
	// incremental script gets its expected answers in front.
	opts := scramble.Options{Seed: uint64(p.Seed), Annot: scramble.AnnotPattern, Track: scrambleTrack(t)}
	var out bytes.Buffer
	if t == benchmark.Incremental {
		for _, a := range strings.Fields(expected) {
			out.WriteString(a + "\n")
		}
		out.WriteString(scramble.StatusHeaderEnd + "\n")
	}
	if _, err := scramble.Scramble(&out, bytes.NewReader(data), src, opts); err != nil {
		var se *scramble.SyntaxError
		var re *scramble.RejectError
		if errors.As(err, &se) || errors.As(err, &re) {
			return "", "", &inputError{fmt.Errorf("scramble: %w", err)}
		}
		return "", "", fmt.Errorf("scramble: %w", err)
	}
	tmp := fmt.Sprintf("%s.%d.tmp", dst, os.Getpid()) // two compete at once each write their own
	if err := os.WriteFile(tmp, out.Bytes(), 0o644); err != nil {
		return "", "", err
	}
	return dst, expected, os.Rename(tmp, dst)
}

// runIncremental runs an incremental pair with the trace executor, which
// behaves as the official one (internal/trace) and keeps the time of every
// answer. The pair's score is the number of correct answers before the
// first wrong one (e = 1 then), as the rules count them.
func (r *runner) runIncremental(ctx context.Context, slot int, p store.Pair, ts track.Solver) (store.Result, error) {
	in, err := trace.Open(p.Input)
	if err != nil {
		return store.Result{}, err
	}
	defer in.Close()
	limits := r.limits(slot)
	conn, err := trace.StartSandbox(ctx, ts.IncrementalArgv(), sandbox.Spec{Limits: limits})
	if err != nil {
		return store.Result{}, err
	}
	var out bytes.Buffer
	tr := trace.Run(conn, in, trace.Options{Out: &out})
	if ctx.Err() != nil {
		return store.Result{}, ctx.Err()
	}
	sat, unsat, wrong := 0, 0, 0
	times := make([][2]float64, 0, len(tr.Answers))
	for _, a := range tr.Answers {
		switch {
		case a.Wrong:
			wrong++
		case a.Answer == "sat":
			sat++
		case a.Answer == "unsat":
			unsat++
		}
		times = append(times, [2]float64{a.WallAt.Seconds(), a.CPUAt.Seconds()})
	}
	sr := tr.Solver
	extra := map[string]any{"reason": sr.Reason, "exit_code": sr.ExitCode, "signal": sr.Signal,
		"trace": tr.Status, "message": tr.Message, "output": out.String(), "solved": sat + unsat, "sat": sat, "unsat": unsat, "wrong_answers": wrong,
		"check_sats": len(strings.Fields(p.Expected)), "queries": tr.Queries, "answer_times": times}
	recordLimits(extra, limits)
	if err := r.keepOutput(p, out.Bytes(), extra); err != nil {
		return store.Result{}, err
	}
	res := r.result(p, extra)
	res.Status = track.StatusOf(sr.Reason)
	if tr.Status == trace.Bad {
		res.Status = "abort"
	}
	res.Answer = fmt.Sprintf("%d/%d", sat+unsat, tr.Queries)
	res.CPU, res.Wall, res.MemoryMB = sr.CPU.Seconds(), sr.Wall.Seconds(), float64(sr.PeakMemoryBytes)/(1<<20)
	return res, nil
}

// scrambleTrack maps a track to the scrambler's settings for it; parallel
// and cloud get single-query's.
func scrambleTrack(t benchmark.Track) scramble.Track {
	if st, err := scramble.ParseTrack(string(t)); err == nil {
		return st
	}
	st, _ := scramble.ParseTrack(string(benchmark.SingleQuery))
	return st
}

// hardest picks the n benchmarks with the highest estimated run time, the
// estimate being what earlier years say: never solved (though run) is
// hardest, then no earlier result at all, then the slowest time of the
// fastest solver. Ties are broken by a seeded shuffle of the path order.
func hardest(cands []selection.Candidate, n int, seed uint32) []benchmark.Benchmark {
	type scored struct {
		b       benchmark.Benchmark
		rank    int
		minTime float64
	}
	xs := make([]scored, len(cands))
	for i, c := range cands {
		x := scored{b: c.Benchmark, rank: 1}
		if len(c.Prior) > 0 {
			solved := false
			best := -1.0
			for _, pr := range c.Prior {
				if pr.SolvedBy > 0 {
					solved = true
					if best < 0 || pr.MinTime < best {
						best = pr.MinTime
					}
				}
			}
			if solved {
				x.rank, x.minTime = 2, best
			} else {
				x.rank = 0
			}
		}
		xs[i] = x
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i].b.Path < xs[j].b.Path })
	r := crand.New(seed)
	for i := len(xs) - 1; i > 0; i-- {
		j := int(r.Random()) % (i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
	sort.SliceStable(xs, func(i, j int) bool {
		if xs[i].rank != xs[j].rank {
			return xs[i].rank < xs[j].rank
		}
		return xs[i].minTime > xs[j].minTime
	})
	if n > len(xs) {
		n = len(xs)
	}
	out := make([]benchmark.Benchmark, n)
	for i := range out {
		out[i] = xs[i].b
	}
	return out
}
