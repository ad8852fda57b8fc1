package compete

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/crand"
	"github.com/smtarena/smtarena/internal/executor"
	"github.com/smtarena/smtarena/internal/library"
	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/track"
)

// Options tune a competition run.
type Options struct {
	// Executor runs the pairs (cmd/ picks it: the local pool today).
	Executor executor.Executor
	// Workers overrides the number of pairs run at once.
	Workers int
	// OnPair is called after each completed pair.
	OnPair func(store.Pair, store.Result)
	Log    *slog.Logger
	// Hostfile lists the nodes of a cloud-track pair's allocation (the
	// Slurm worker writes it); its solver gets the path in
	// SMTARENA_HOSTFILE and for {hostfile} in its command.
	Hostfile string
	// ModelValidator is the command that judges a model-validation pair's
	// output, given BENCHMARK RESPONSE, printing a JSON verdict (cmd/ sets
	// `smtarena validate-model --json`); it runs in the sandbox. Without
	// it the output is judged in this process. ModelValidatorEnv is extra
	// environment for it.
	ModelValidator, ModelValidatorEnv []string
	// Tracks, when set, limits Run to these tracks (a Slurm worker's);
	// the others stay in the definition, for what looks at them (the
	// validators of unsat cores).
	Tracks []benchmark.Track
}

// Prepared is a competition made ready to run: its seed, and its pairs
// planned in the store.
type Prepared struct {
	Def   *config.Competition
	Seed  uint32
	Store store.Store
	// Planned counts the pairs per track.
	Planned map[benchmark.Track]int
	// Lint lists the selected benchmarks that break their track's input
	// rules (see LintReport).
	Lint []LintReport
}

// Key is the name pairs of a track are filed under in the store.
func Key(def *config.Competition, t benchmark.Track) string { return def.Name + "/" + string(t) }

// Prepare indexes the library, selects, prepares the solvers' inputs and
// plans every pair. Each step is idempotent, so a prepared competition is
// prepared again at no cost when the run resumes.
func Prepare(ctx context.Context, def *config.Competition, st store.Store, log *slog.Logger) (*Prepared, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	p := &Prepared{Def: def, Store: st, Planned: map[benchmark.Track]int{}}
	if def.Seed.Value != nil {
		p.Seed = *def.Seed.Value
	} else {
		t, err := crand.CompetitionSeed(def.Rules, def.Seed.Entrants, def.Seed.NYSE)
		if err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		p.Seed = t.Seed
	}
	var roots []string
	for _, r := range def.Library {
		roots = append(roots, def.Path(r))
	}
	if len(roots) > 0 {
		stats, err := library.Index(ctx, st, roots, library.IndexOptions{})
		var fe *library.FileError
		if err != nil && !errors.As(err, &fe) {
			return nil, fmt.Errorf("index: %w", err)
		}
		if err != nil {
			log.Warn("some benchmarks could not be indexed and are left out", "errors", stats.Errors, "first", err)
		}
		log.Info("indexed", "files", stats.Files, "unchanged", stats.Skipped)
	}
	for _, t := range def.TrackNames() {
		n, err := p.planTrack(ctx, t, log)
		if err != nil {
			return nil, fmt.Errorf("%s track: %w", t, err)
		}
		p.Planned[t] = n
	}
	return p, nil
}

// eligible lists the indexed benchmarks a track may use.
func (p *Prepared) eligible(ctx context.Context, t benchmark.Track) ([]benchmark.Benchmark, error) {
	inc := t == benchmark.Incremental
	bs, err := p.Store.Benchmarks(ctx, store.Filter{Incremental: &inc})
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, l := range p.Def.Tracks[string(t)].Logics {
		want[l] = true
	}
	if len(want) == 0 && t == benchmark.ModelValidation {
		// 2022 §6: only the logics of the track's divisions (§5.5; no
		// arrays or datatypes).
		if table, err := config.Table(p.Def.Rules, t); err == nil {
			for _, ls := range table {
				for _, l := range ls {
					want[l] = true
				}
			}
		}
	}
	var out []benchmark.Benchmark
	for _, b := range bs {
		if len(want) == 0 || want[b.Logic] {
			out = append(out, b)
		}
	}
	return out, nil
}

// planTrack selects the track's benchmarks, writes the solvers' inputs and
// plans the pairs.
func (p *Prepared) planTrack(ctx context.Context, t benchmark.Track, log *slog.Logger) (int, error) {
	def := p.Def
	bs, err := p.eligible(ctx, t)
	if err != nil {
		return 0, err
	}
	selected, keep, err := p.selectBenchmarks(ctx, t, bs, log)
	if err != nil {
		return 0, err
	}
	// Which solvers enter which logic, and the divisions.
	logicSet := map[string]bool{}
	for _, b := range selected {
		logicSet[b.Logic] = true
	}
	var logics []string
	for l := range logicSet {
		logics = append(logics, l)
	}
	sort.Strings(logics)
	// Logics outside the rules year's table are divisions of their own.
	divisions, _, err := config.Divisions(def.Rules, t, logics)
	if err != nil {
		return 0, err
	}
	divOf := map[string]string{}
	for d, ls := range divisions {
		for _, l := range ls {
			divOf[l] = d
		}
	}
	runLogic, skipped := runLogics(def, t, divisions)
	for _, sk := range skipped {
		log.Info("not run", "track", t, "division", sk.Division, "logic", sk.Logic, "why", sk.Reason)
	}
	inputs := filepath.Join(def.Path(def.WorkDir), "inputs", string(t))
	if err := os.MkdirAll(inputs, 0o755); err != nil {
		return 0, err
	}
	key := Key(def, t)
	var pairs []store.Pair
	seq := int64(0)
	lintOpts, linted := lintOptions(def, t)
	if !linted {
		log.Info("benchmarks not linted: lint has no input rules for this year and track", "track", t, "rules", def.Rules)
	}
	var lintReports []LintReport
	lintCache := loadLintCache(def, t)
	probes, err := p.probeBenchmarks(ctx, t, runLogic, divOf)
	if err != nil {
		return 0, err
	}
	for bi, b := range append(selected[:len(selected):len(selected)], probes...) {
		if !runLogic[b.Logic] {
			continue
		}
		if linted {
			errs, err := p.lintBenchmark(lintOpts, lintCache, b, bi >= len(selected))
			if err != nil {
				return 0, err
			}
			if len(errs) > 0 {
				r := LintReport{Track: t, Path: b.Path, Excluded: def.Lint == config.LintExclude, Errors: errs}
				lintReports = append(lintReports, r)
				log.Warn("benchmark breaks the track's input rules", "track", t, "benchmark", b.Path, "left_out", r.Excluded, "first", errs[0].String())
				if r.Excluded {
					continue
				}
			}
		}
		input, expected, err := p.prepareInput(t, b, keep[b.ID], inputs)
		var ie *inputError
		if errors.As(err, &ie) {
			log.Warn("benchmark left out: its input cannot be prepared", "track", t, "benchmark", b.Path, "error", ie)
			continue
		}
		if err != nil {
			return 0, err
		}
		// Round robin: each benchmark starts with the next solver, so no
		// solver is always first (or last) on a machine.
		n := len(def.Solvers)
		for k := 0; k < n; k++ {
			s := &def.Solvers[(bi+k)%n]
			if !solverInDivision(s, t, divisions[divOf[b.Logic]]) {
				continue
			}
			in := input
			if !s.Supports(t, b.Logic) {
				in = "" // scored as unknown in zero time
			}
			for _, cfgName := range configurations(s, t) {
				pairs = append(pairs, store.Pair{Competition: key, Track: string(t), Division: divOf[b.Logic], Logic: b.Logic,
					Solver: s.Name, Configuration: cfgName, BenchmarkID: b.ID, BenchmarkPath: b.Path, Input: in,
					Expected: expected, Seq: seq})
				seq++
			}
		}
	}
	p.Lint = append(p.Lint, lintReports...)
	if err := writeLintReport(def, t, lintReports); err != nil {
		return 0, err
	}
	if err := lintCache.save(); err != nil {
		return 0, err
	}
	if _, err := p.Store.PlanPairs(ctx, pairs); err != nil {
		return 0, err
	}
	log.Info("planned", "track", t, "benchmarks", len(selected), "pairs", len(pairs))
	return len(pairs), nil
}

// configurations lists the configurations a solver runs in a track: the
// proof track runs smtcomp_solver, which has none.
func configurations(s *config.Solver, t benchmark.Track) []string {
	if len(s.Configurations) == 0 || t == benchmark.Proof {
		return []string{"default"}
	}
	return s.Configurations
}

// solverInDivision reports whether the solver enters the division: it
// supports at least one of its logics.
func solverInDivision(s *config.Solver, t benchmark.Track, logics []string) bool {
	for _, l := range logics {
		if s.Supports(t, l) {
			return true
		}
	}
	return false
}

// selectBenchmarks draws the track's benchmarks with the seed, in the order
// the pairs will run.
func (p *Prepared) selectBenchmarks(ctx context.Context, t benchmark.Track, bs []benchmark.Benchmark, log *slog.Logger) ([]benchmark.Benchmark, map[int64]int, error) {
	// A selection made by an earlier (interrupted) run stands: results
	// recorded since must not change what is run.
	if saved, err := p.Store.Selection(ctx, Key(p.Def, t)); err == nil {
		byID := map[int64]benchmark.Benchmark{}
		for _, b := range bs {
			byID[b.ID] = b
		}
		var sel []benchmark.Benchmark
		keep := map[int64]int{}
		for _, it := range saved.Items {
			if b, ok := byID[it.BenchmarkID]; ok {
				sel = append(sel, b)
				if it.KeepCheckSats > 0 {
					keep[b.ID] = it.KeepCheckSats
				}
			}
		}
		return p.runOrder(sel), keep, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, nil, err
	}
	sel, keep, err := selectFor(ctx, p, t, bs, log)
	if err != nil {
		return nil, nil, err
	}
	items := make([]store.SelectionItem, len(sel))
	for i, b := range sel {
		items[i] = store.SelectionItem{BenchmarkID: b.ID, KeepCheckSats: keep[b.ID]}
	}
	if _, err := p.Store.SaveSelection(ctx, store.Selection{Name: Key(p.Def, t), Rules: p.Def.Rules, Track: string(t), Seed: p.Seed, Items: items}); err != nil {
		return nil, nil, err
	}
	return p.runOrder(sel), keep, nil
}

// runOrder is the order pairs run in: a seeded shuffle (Fisher-Yates from
// the top, one random() draw per position) of the selection sorted by path.
func (p *Prepared) runOrder(sel []benchmark.Benchmark) []benchmark.Benchmark {
	sort.Slice(sel, func(i, j int) bool { return sel[i].Path < sel[j].Path })
	r := crand.New(p.Seed)
	for i := len(sel) - 1; i > 0; i-- {
		j := int(r.Random()) % (i + 1)
		sel[i], sel[j] = sel[j], sel[i]
	}
	return sel
}

// expectedOf returns the expected answer(s) of a benchmark: its status, or
// for an incremental script the per-check-sat statuses (from its
// annotations, or the sibling .expected file).
func expectedOf(b benchmark.Benchmark, src string) string {
	if !b.Incremental {
		return string(b.Status)
	}
	known := 0
	for _, s := range b.Statuses {
		if s == benchmark.Sat || s == benchmark.Unsat {
			known++
		}
	}
	if known > 0 && len(b.Statuses) == b.CheckSats {
		parts := make([]string, len(b.Statuses))
		for i, s := range b.Statuses {
			parts[i] = string(s)
		}
		return strings.Join(parts, " ")
	}
	if exp, err := os.ReadFile(src + ".expected"); err == nil {
		return strings.Join(strings.Fields(string(exp)), " ")
	}
	return strings.TrimSpace(strings.Repeat("unknown ", b.CheckSats))
}

// Summary counts a solver's results in a division.
type Summary struct {
	Track, Division, Solver                                      string
	Pairs, Solved, Sat, Unsat, Unknown, Timeout, Memout, Aborted int
	Wrong                                                        int
	CPU, Wall                                                    float64
	// Competitive: the division has winners (see Competitive).
	Competitive bool
}

// Summaries reads the results of a competition's pairs into per-division,
// per-solver counts, sorted by track, division and solved (descending).
func Summaries(ctx context.Context, def *config.Competition, st store.Store) ([]Summary, error) {
	by := map[[3]string]*Summary{}
	divLogics := map[[2]string][]string{}
	for _, t := range def.TrackNames() {
		if t == benchmark.Proof {
			continue // no score: see ProofTables
		}
		ps, err := st.Pairs(ctx, Key(def, t))
		if err != nil {
			return nil, err
		}
		rs, err := st.Results(ctx, store.ResultFilter{Track: string(t)})
		if err != nil {
			return nil, err
		}
		res := map[string]store.Result{}
		for _, r := range rs {
			res[r.SourceKey] = r
		}
		for _, p := range ps {
			dk := [2]string{string(t), p.Division}
			if ls := divLogics[dk]; len(ls) == 0 || ls[len(ls)-1] != p.Logic {
				divLogics[dk] = append(ls, p.Logic)
			}
			k := [3]string{string(t), p.Division, p.Solver}
			s := by[k]
			if s == nil {
				s = &Summary{Track: string(t), Division: p.Division, Solver: p.Solver}
				by[k] = s
			}
			s.Pairs++
			r, ok := res[fmt.Sprintf("pair:%d", p.ID)]
			if !ok {
				continue
			}
			var extra struct {
				Wrong  bool `json:"wrong"`
				Solved int  `json:"solved"`
				Sat    int  `json:"sat"`
				Unsat  int  `json:"unsat"`
				Wrongs int  `json:"wrong_answers"`
			}
			_ = json.Unmarshal([]byte(r.Extra), &extra)
			s.CPU += r.CPU
			s.Wall += r.Wall
			switch r.Status {
			case "timeout":
				s.Timeout++
			case "memout":
				s.Memout++
			case "abort", "error":
				s.Aborted++
			}
			if t == benchmark.Incremental {
				// Counted in answers, not pairs, as the track scores them.
				s.Solved += extra.Solved
				s.Sat += extra.Sat
				s.Unsat += extra.Unsat
				if extra.Wrongs > 0 {
					s.Wrong++
				}
				continue
			}
			switch {
			case extra.Wrong:
				s.Wrong++
			case r.Answer == "sat":
				s.Sat++
				s.Solved++
			case r.Answer == "unsat":
				s.Unsat++
				s.Solved++
			default:
				s.Unknown++
			}
		}
	}
	out := make([]Summary, 0, len(by))
	for _, s := range by {
		s.Competitive = Competitive(def, benchmark.Track(s.Track), divLogics[[2]string{s.Track, s.Division}])
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Track != b.Track {
			return a.Track < b.Track
		}
		if a.Division != b.Division {
			return a.Division < b.Division
		}
		if a.Wrong != b.Wrong {
			return a.Wrong < b.Wrong
		}
		if a.Solved != b.Solved {
			return a.Solved > b.Solved
		}
		return a.Wall < b.Wall
	})
	return out, nil
}

// Run runs every planned pair of every track, track by track, and returns
// when all are recorded (or the context ends: run again to resume).
func Run(ctx context.Context, p *Prepared, opts Options) error {
	if opts.Executor == nil {
		return errors.New("compete: no executor")
	}
	for _, t := range p.Def.TrackNames() {
		if len(opts.Tracks) > 0 && !slices.Contains(opts.Tracks, t) {
			continue
		}
		tc := p.Def.Tracks[string(t)]
		cores := tc.Cores
		if t == benchmark.Parallel || t == benchmark.Cloud {
			cores = runtime.NumCPU()
		}
		if cores <= 0 {
			cores = 1
		}
		workers := opts.Workers
		if workers <= 0 {
			workers = p.Def.Jobs
		}
		if workers <= 0 {
			workers = max(1, runtime.NumCPU()/cores)
		}
		r := &runner{p: p, track: t, cfg: tc, cores: cores, modelValidator: opts.ModelValidator, modelValidatorEnv: opts.ModelValidatorEnv}
		if t == benchmark.Cloud {
			r.hostfile = opts.Hostfile
		}
		job := executor.Job{Store: p.Store, Competition: Key(p.Def, t), Workers: workers, RunPair: r.run, OnDone: opts.OnPair,
			MemoryPerPair: tc.MemoryMB << 20}
		if err := opts.Executor.Run(ctx, job); err != nil {
			return err
		}
		if t == benchmark.UnsatCore {
			if err := p.validation(ctx, opts, workers); err != nil {
				return fmt.Errorf("unsat-core validation: %w", err)
			}
		}
	}
	return nil
}

// runner runs the pairs of one track.
type runner struct {
	p        *Prepared
	track    benchmark.Track
	cfg      config.Track
	cores    int
	hostfile string // the cloud track's nodes, see Options.Hostfile
	// modelValidator and modelValidatorEnv: Options.ModelValidator(Env).
	modelValidator, modelValidatorEnv []string
}

func (r *runner) solver(name string) *config.Solver {
	for i := range r.p.Def.Solvers {
		if r.p.Def.Solvers[i].Name == name {
			return &r.p.Def.Solvers[i]
		}
	}
	return nil
}

func (r *runner) limits(slot int) sandbox.Limits {
	l := sandbox.Limits{CPU: r.cfg.CPULimit.Duration, Wall: r.cfg.WallLimit.Duration, MemoryBytes: r.cfg.MemoryMB << 20,
		OutputBytes: r.cfg.OutputMB << 20}
	if l.OutputBytes == 0 {
		l.OutputBytes = 64 << 20
		if r.track == benchmark.Proof {
			l.OutputBytes = 1 << 30
		}
	}
	n := runtime.NumCPU()
	for i := 0; i < r.cores; i++ {
		l.Cores = append(l.Cores, (slot*r.cores+i)%n)
	}
	return l
}

func (r *runner) result(p store.Pair, extra map[string]any) store.Result {
	if extra == nil {
		extra = map[string]any{}
	}
	extra["division"], extra["logic"] = p.Division, p.Logic
	b, _ := json.Marshal(extra)
	return store.Result{Competition: r.p.Def.Name, Year: r.p.Def.Rules, Track: p.Track, Solver: p.Solver,
		Configuration: p.Configuration, BenchmarkPath: p.BenchmarkPath, Expected: p.Expected, Extra: string(b)}
}

func (r *runner) run(ctx context.Context, slot int, p store.Pair) (store.Result, error) {
	if p.Input == "" {
		// The solver does not support this logic of its division.
		res := r.result(p, map[string]any{"unsupported": true})
		res.Status, res.Answer = "unsupported", "unknown"
		return res, nil
	}
	s := r.solver(p.Solver)
	if s == nil {
		return store.Result{}, fmt.Errorf("solver %s is no longer in the definition", p.Solver)
	}
	ts := track.Solver{Command: s.Command, IncrementalCommand: s.IncrementalCommand, Package: r.p.Def.Path(s.Package), Config: p.Configuration,
		ProofCommand: s.ProofCommand, CheckerCommand: s.CheckerCommand}
	if s.Package == "" {
		ts.Package = ""
	}
	if r.track == benchmark.Incremental {
		return r.runIncremental(ctx, slot, p, ts)
	}
	if r.track == benchmark.Proof {
		return r.runProof(ctx, slot, p, ts)
	}
	protocol := sandbox.Protocol(r.cfg.Protocol)
	args, onStdin := ts.SingleQueryArgs(p.Input, protocol)
	var out bytes.Buffer
	spec := sandbox.Spec{Args: args, Limits: r.limits(slot), Protocol: protocol, Stdout: &out}
	var nodes []string
	var stepLog string
	if r.hostfile != "" {
		spec.Args, spec.Env, nodes = withHostfile(spec.Args, r.hostfile)
		var err error
		if stepLog, err = r.inCluster(&spec, p.ID); err != nil {
			return store.Result{}, err
		}
	}
	if onStdin {
		f, err := os.Open(p.Input)
		if err != nil {
			return store.Result{}, err
		}
		defer f.Close()
		spec.Stdin = f
	}
	sr, err := sandbox.Run(ctx, spec)
	if stepLog != "" {
		cancelSteps(context.WithoutCancel(ctx))
	}
	if ctx.Err() != nil {
		return store.Result{}, ctx.Err()
	}
	if err != nil && sr.Reason != sandbox.Failed {
		return store.Result{}, err
	}
	v := track.JudgeSingleQuery(out.Bytes(), sr.Reason, p.Expected)
	head := out.Bytes()
	if len(head) > 4096 {
		head = head[:4096]
	}
	extra := map[string]any{"reason": sr.Reason, "exit_code": sr.ExitCode, "signal": sr.Signal,
		"wrong": v.Wrong, "output": string(head), "error": sr.Error, "backend": sr.Backend, "cores": spec.Limits.Cores}
	// what was run, and the output's tail when the head is not all of it
	extra["command"] = args
	if n := out.Len(); n > len(head) {
		extra["output_bytes"], extra["output_tail"] = n, string(out.Bytes()[max(len(head), n-4096):])
	}
	recordLimits(extra, spec.Limits)
	outPath, err := r.writeOutput(p, out.Bytes())
	if err != nil {
		return store.Result{}, err
	}
	if r.track == benchmark.ModelValidation {
		// The validator reads the kept output before it is compressed.
		if err := r.validateModel(ctx, slot, p, outPath, out.Bytes(), extra); err != nil {
			return store.Result{}, err
		}
	}
	if err := r.compressOutput(outPath, extra); err != nil {
		return store.Result{}, err
	}
	if r.track == benchmark.UnsatCore {
		if err := r.judgeCore(p, out.Bytes(), extra); err != nil {
			return store.Result{}, err
		}
	}
	if nodes != nil {
		extra["nodes"] = nodes
	}
	if stepLog != "" && len(nodes) > 0 {
		// The time and CPU of every node of the allocation.
		usage, err := stepUsage(stepLog, nodes[0], sr)
		if err != nil {
			return store.Result{}, err
		}
		extra["node_usage"] = usage
		_ = os.Remove(stepLog)
		// The pair's CPU time is the whole allocation's.
		sr.CPU = 0
		for _, u := range usage {
			sr.CPU += sandboxSeconds(u.CPU)
		}
	}
	res := r.result(p, extra)
	res.Status, res.Answer = v.Status, v.Answer
	res.CPU, res.Wall, res.MemoryMB = sr.CPU.Seconds(), sr.Wall.Seconds(), float64(sr.PeakMemoryBytes)/(1<<20)
	return res, nil
}

// withHostfile gives a cloud-track solver the hostfile of its nodes: its
// path for {hostfile} in the command and in SMTARENA_HOSTFILE, with the
// Slurm variables that let it start processes on the other nodes (srun).
// It returns the nodes, recorded with the result.
func withHostfile(args []string, hostfile string) ([]string, []string, []string) {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "{hostfile}", hostfile)
	}
	env := []string{"SMTARENA_HOSTFILE=" + hostfile}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SLURM_") {
			env = append(env, kv)
		}
	}
	b, _ := os.ReadFile(hostfile)
	return out, env, strings.Fields(string(b))
}
