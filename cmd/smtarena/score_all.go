package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
)

// allTracks is the --track value that scores every track of the year.
const allTracks = "all"

// trackScore is what scoring one track of --track all gave: its output and
// messages, printed once every track is done, in the order of the tracks.
type trackScore struct {
	track    string // its --track name
	so       score.Options
	results  int         // stored results of the year
	rows     []score.Row // room for the rows, made before the track starts
	out, err bytes.Buffer
	fail     error
}

// runScoreAll is `smtarena score --track all`: every track of the year
// with results in the store, scored as `--track T` scores it, in one
// process: the store is opened once, the inputs that do not depend on the
// track (--exclude, --defs, --submissions) are read once, and the tracks
// are scored at once as far as their rows fit in the memory of the largest
// (rowBudget) and GOMAXPROCS allows. With --out DIR a
// track's pages go into DIR/TRACK; to stdout the tracks come one after
// another in the order of benchmark.Tracks, each headed by its name.
func runScoreAll(ctx context.Context, opts ScoreOptions, io streams) error {
	if _, err := applyScoreConfig(&opts); err != nil {
		return err
	}
	if _, err := score.RuleSet(opts.Rules); err != nil {
		return err
	}
	year := opts.Year
	if year == 0 {
		year = opts.Rules
	}
	st, err := openStoreToRead(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	// The tracks with results of the year; those of other tracks, and
	// those the rules lack, are named and skipped.
	var tracks []*trackScore
	var none, unruled []string
	for _, t := range benchmark.Tracks {
		n, err := st.CountResults(ctx, store.ResultFilter{Year: year, Track: string(t)})
		if err != nil {
			return err
		}
		switch {
		case n == 0:
			none = append(none, string(t))
		case score.CheckTrack(opts.Rules, t) != nil:
			unruled = append(unruled, string(t))
		default:
			tracks = append(tracks, &trackScore{track: string(t), results: n})
		}
	}
	// The challenge tracks (2019), where there are results of them.
	for _, name := range slices.Sorted(maps.Keys(score.ChallengeTracks)) {
		n, err := st.CountResults(ctx, store.ResultFilter{Year: year, Track: name})
		if err != nil {
			return err
		}
		switch {
		case n == 0:
		case score.CheckTrack(opts.Rules, score.ChallengeTracks[name]) != nil:
			unruled = append(unruled, name)
		default:
			tracks = append(tracks, &trackScore{track: name, results: n})
		}
	}
	if len(none) > 0 {
		fmt.Fprintf(io.err, "smtarena: no results of %d in the %s: skipped\n", year, namedTracks(none))
	}
	if len(unruled) > 0 {
		fmt.Fprintf(io.err, "smtarena: the %d rules have no %s: their results are skipped\n", opts.Rules, namedTracks(unruled))
	}
	if len(tracks) == 0 {
		return fmt.Errorf("%w: no results of %d in %s to score by the %d rules (import some with smtarena import, or give --year)", errNoResults, year, opts.DB, opts.Rules)
	}
	rows := 0
	for _, ts := range tracks {
		rows += ts.results
	}
	defer limitScoreMemory(rows)()
	// The options of each track (the first error of these ends it all:
	// they are the user's flags, not the data).
	for _, ts := range tracks {
		to := opts
		to.Track = ts.track
		if ts.so, err = scoreOptions(&to); err != nil {
			return fmt.Errorf("%s track: %w", ts.track, err)
		}
	}
	in, err := readScoreInputs(opts, tracks[0].so)
	if err != nil {
		return err
	}
	// The tracks are scored at once as far as their rows fit (rowBudget),
	// the biggest first; each writes its pages once scored, while the next
	// ones are read and scored. The rows of the tracks that start together
	// are made before any of them runs (newRows says why).
	budget := newRowBudget(tracks, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for batch := range budget.schedule() {
		ns := make([]int, len(batch))
		for i, ts := range batch {
			ns[i] = ts.results
		}
		for i, rows := range newRows(ns...) {
			batch[i].rows = rows
		}
		for _, ts := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				to := opts
				to.Track = ts.track
				if to.Out != "" {
					to.Out = filepath.Join(opts.Out, ts.track)
				}
				ts.fail = scoreTrack(ctx, st, to, ts, in, func() { budget.release(ts) }, streams{io.in, &ts.out, &ts.err})
			}()
		}
	}
	wg.Wait()
	return printTracks(io, opts, tracks)
}

// scoreTrack scores one track of --track all, calls scored (its rows are
// no longer held), and writes its output. A track without the division
// asked for (--division) is skipped.
func scoreTrack(ctx context.Context, st store.Store, opts ScoreOptions, ts *trackScore, in *scoreInputs, scored func(), io streams) error {
	rep, _, _, err := scoreStoredWith(ctx, st, opts, ts.so, false, in, ts.rows, io)
	ts.rows = nil
	scored()
	if err != nil {
		return err
	}
	if opts.Division != "" && !keepDivision(rep, opts.Division) {
		return errNoDivision
	}
	return writeScore(io, opts, rep)
}

// rowBudget says which tracks are scored at once. A track's rows are all
// live from the reading of its results to the end of its scoring, so big
// tracks at once take the memory of each: tracks start while the results
// of those being scored, with theirs, are at most twice the largest
// track's, and no more than slots (GOMAXPROCS) at a time. The peak memory
// is then at most about that of the largest track twice over (a score.Row
// is 152 bytes: the 2024 unsat-core and incremental tracks' rows take 31
// MB together, where the unsat-core track's alone took 45 MB when rows
// were 320 bytes and the tracks came one after the other).
type rowBudget struct {
	mu            sync.Mutex
	cond          sync.Cond
	pending       []*trackScore // biggest first
	limit, slots  int
	largest       int // the largest track's results
	used, running int
}

func newRowBudget(tracks []*trackScore, slots int) *rowBudget {
	b := &rowBudget{pending: slices.Clone(tracks), slots: max(slots, 1)}
	b.cond.L = &b.mu
	slices.SortStableFunc(b.pending, func(x, y *trackScore) int { return y.results - x.results })
	b.largest = b.pending[0].results
	b.limit = 2 * b.largest
	return b
}

// schedule returns the tracks that may start, as they may, until all have:
// first all that fit at once, then those that fit as others end.
func (b *rowBudget) schedule() func(yield func([]*trackScore) bool) {
	return func(yield func([]*trackScore) bool) {
		for {
			b.mu.Lock()
			var batch []*trackScore
			for len(b.pending) > 0 {
				for i := 0; i < len(b.pending); {
					if ts := b.pending[i]; b.fits(ts) {
						batch = append(batch, ts)
						b.pending = slices.Delete(b.pending, i, i+1)
						b.used += ts.results
						b.running++
						continue
					}
					i++
				}
				if len(batch) > 0 {
					break
				}
				b.cond.Wait()
			}
			b.mu.Unlock()
			if len(batch) == 0 || !yield(batch) {
				return
			}
		}
	}
}

// fits says whether a track may start now (b.mu held).
func (b *rowBudget) fits(ts *trackScore) bool {
	return b.running == 0 || (b.running < b.slots && b.used+ts.results <= b.limit)
}

// release says a track's rows are no longer held. Before a big track's
// place goes to tracks waiting, its rows are collected: the next rows then
// take their pages rather than fresh ones (each fresh page costs a fault,
// and the peak grows).
func (b *rowBudget) release(ts *trackScore) {
	b.mu.Lock()
	waiting := len(b.pending) > 0
	b.mu.Unlock()
	if waiting && ts.results > b.largest/4 {
		runtime.GC()
	}
	b.mu.Lock()
	b.used -= ts.results
	b.running--
	b.cond.Broadcast()
	b.mu.Unlock()
}

// errNoDivision says a track of --track all has no division --division.
var errNoDivision = errors.New("no such division")

// printTracks prints the output of the tracks scored, in their order:
// their messages to stderr, each after the name of its track; to stdout,
// the lines that say where pages went, or the tracks' scores, each headed
// by its name (table, csv, yaml: a line "# track: T"; json and web-json:
// one object, the track's output under its name). It returns the errors
// of the tracks that failed, each named.
func printTracks(io streams, opts ScoreOptions, tracks []*trackScore) error {
	var errs []error
	var noDiv, noneOf []string
	for _, ts := range tracks {
		for _, l := range strings.SplitAfter(ts.err.String(), "\n") {
			if l == "" {
				continue
			}
			if rest, ok := strings.CutPrefix(l, "smtarena: "); ok {
				l = "smtarena: " + ts.track + " track: " + rest
			}
			fmt.Fprint(io.err, l)
		}
		switch {
		case errors.Is(ts.fail, errNoDivision):
			noDiv = append(noDiv, ts.track)
		case errors.Is(ts.fail, errNoResults): // none of --competition
			noneOf = append(noneOf, ts.track)
		case ts.fail != nil:
			errs = append(errs, fmt.Errorf("%s track: %w", ts.track, ts.fail))
		}
	}
	if len(noneOf) > 0 {
		fmt.Fprintf(io.err, "smtarena: no results of %s in the %s: skipped\n", opts.Competition, namedTracks(noneOf))
	}
	if len(noneOf) == len(tracks) {
		return fmt.Errorf("%w of %s in %s", errNoResults, opts.Competition, opts.DB)
	}
	if len(noDiv) > 0 {
		fmt.Fprintf(io.err, "smtarena: no division %s in the %s: skipped\n", opts.Division, namedTracks(noDiv))
	}
	if len(noDiv) > 0 && len(noDiv)+len(noneOf) == len(tracks) {
		return fmt.Errorf("no division %s in the results of any track", opts.Division)
	}
	asObject := opts.Out == "" && (opts.Format == "json" || opts.Format == "web-json")
	first := true
	for _, ts := range tracks {
		if ts.fail != nil {
			continue
		}
		switch {
		case opts.Out != "" && (opts.Format == "yaml" || opts.Format == "web-json"):
			// "wrote N pages to DIR/TRACK"
		case asObject:
			sep := ",\n"
			if first {
				sep = "{\n"
			}
			fmt.Fprintf(io.out, "%s%q: ", sep, ts.track)
		default:
			if !first {
				fmt.Fprintln(io.out)
			}
			fmt.Fprintf(io.out, "# track: %s\n", ts.track)
		}
		if _, err := io.out.Write(ts.out.Bytes()); err != nil {
			return err
		}
		first = false
	}
	if asObject && !first {
		fmt.Fprintln(io.out, "}")
	}
	return errors.Join(errs...)
}

// namedTracks names tracks in a sentence: "the cloud track", "the cloud and
// parallel tracks", "the proof, cloud and parallel tracks".
func namedTracks(names []string) string {
	switch len(names) {
	case 1:
		return names[0] + " track"
	case 2:
		return names[0] + " and " + names[1] + " tracks"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " tracks"
}
