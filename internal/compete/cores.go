package compete

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/executor"
	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/track"
	"github.com/smtarena/smtarena/internal/validate"
)

// ValidationTrack is the track of the unsat-core track's validation pairs
// and their results: one validating solver on one distinct core.
const ValidationTrack = "unsat-core-validation"

// ValidationKey is the name the validation pairs and the cores of a
// competition are filed under in the store.
func ValidationKey(competition string) string {
	return competition + "/" + string(benchmark.UnsatCore) + "/validation"
}

// judgeCore reads an unsat-core run's output against the file the solver
// was given, writes the validation file of its core, and adds the
// judgement (and the file's hash) to the result's extra columns.
func (r *runner) judgeCore(p store.Pair, output []byte, extra map[string]any) error {
	input, err := os.ReadFile(p.Input)
	if err != nil {
		return err
	}
	named, err := validate.Assertions(p.Input, input)
	if err != nil {
		// The benchmark's fault, not the solver's: the result is kept
		// without a core, and says why.
		extra["core_error"] = err.Error()
		return nil
	}
	j := validate.Judge(validate.ReadResponse(output), named)
	if j.Answer == "sat" {
		extra["wrong"] = true // 2018 and 2022 §5.4: sat is erroneous
	}
	b, _ := json.Marshal(j)
	var fields map[string]any
	_ = json.Unmarshal(b, &fields)
	for k, v := range fields {
		extra[k] = v
	}
	if !j.Validated() {
		return nil
	}
	data, err := validate.File(input, p.Input, j.Names)
	if err != nil {
		return err
	}
	_, hash, err := validate.WriteFile(r.p.validationDir(), data)
	if err != nil {
		return err
	}
	extra["core_hash"] = hash
	return nil
}

func (p *Prepared) validationDir() string {
	return filepath.Join(p.Def.Path(p.Def.WorkDir), "validation")
}

// CoreFacts is what an unsat-core result's extra columns hold of its core.
type CoreFacts struct {
	validate.Judgement
	Hash string `json:"core_hash"`
}

// ReadCoreFacts reads the core of an unsat-core result written by compete;
// ok is false for results without one (imported ones).
func ReadCoreFacts(extra string) (f CoreFacts, ok bool) {
	if !strings.Contains(extra, `"core_state"`) {
		return f, false
	}
	if err := json.Unmarshal([]byte(extra), &f); err != nil {
		return f, false
	}
	return f, true
}

// validation runs the unsat-core track's validation: it plans a pair per
// distinct core and validating solver, runs them, and records each core's
// verdict. Every step is idempotent, so a killed run resumes here.
func (p *Prepared) validation(ctx context.Context, opts Options, workers int) error {
	if _, err := p.planValidation(ctx); err != nil {
		return fmt.Errorf("plan validation: %w", err)
	}
	tc := p.Def.Tracks[string(benchmark.UnsatCore)]
	limit := tc.ValidationLimit.Duration
	if limit <= 0 {
		limit = validate.DefaultLimit
	}
	v := &validator{p: p, limit: limit, memory: tc.MemoryMB << 20, cores: max(tc.Cores, 1)}
	job := executor.Job{Store: p.Store, Competition: ValidationKey(p.Def.Name), Workers: workers, RunPair: v.run,
		OnDone: opts.OnPair, MemoryPerPair: tc.MemoryMB << 20}
	if err := opts.Executor.Run(ctx, job); err != nil {
		return err
	}
	return p.decideCores(ctx)
}

// validators returns, per logic, the validating solvers: those the track
// lists for the logic (validators_by_logic) or for all (validators), or
// those sound in the competition's single-query track for the logic's
// division there (no wrong answer, at least one result).
func (p *Prepared) validators(ctx context.Context, logics []string) (map[string][]*config.Solver, error) {
	def := p.Def
	out := map[string][]*config.Solver{}
	tc := def.Tracks[string(benchmark.UnsatCore)]
	var rest []string // logics without a list
	for _, l := range logics {
		names, ok := tc.ValidatorsByLogic[l]
		if !ok {
			names = tc.Validators
		}
		if len(names) == 0 && !ok {
			rest = append(rest, l)
			continue
		}
		for _, n := range names {
			for i := range def.Solvers {
				if def.Solvers[i].Name == n && def.Solvers[i].SupportsLogic(l) {
					out[l] = append(out[l], &def.Solvers[i])
				}
			}
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	logics = rest
	if _, ok := def.Tracks[string(benchmark.SingleQuery)]; !ok {
		return nil, fmt.Errorf("no validating solvers for %s: list them in [tracks.unsat-core] validators (or validators_by_logic), or run the single-query track, whose sound solvers validate", strings.Join(rest, ", "))
	}
	divisions, _, err := config.Divisions(def.Rules, benchmark.SingleQuery, logics)
	if err != nil {
		return nil, err
	}
	divOf := map[string]string{}
	for d, ls := range divisions {
		for _, l := range ls {
			divOf[l] = d
		}
	}
	pairs, err := p.Store.Pairs(ctx, Key(def, benchmark.SingleQuery))
	if err != nil {
		return nil, err
	}
	rs, err := p.Store.Results(ctx, store.ResultFilter{Track: string(benchmark.SingleQuery)})
	if err != nil {
		return nil, err
	}
	res := map[string]store.Result{}
	for _, r := range rs {
		res[r.SourceKey] = r
	}
	ran, wrong := map[[2]string]bool{}, map[[2]string]bool{}
	for _, pr := range pairs {
		r, ok := res[fmt.Sprintf("pair:%d", pr.ID)]
		if !ok || pr.Input == "" {
			continue
		}
		k := [2]string{pr.Division, pr.Solver}
		ran[k] = true
		var x struct {
			Wrong bool `json:"wrong"`
		}
		_ = json.Unmarshal([]byte(r.Extra), &x)
		wrong[k] = wrong[k] || x.Wrong
	}
	for _, l := range logics {
		for i := range def.Solvers {
			s := &def.Solvers[i]
			k := [2]string{divOf[l], s.Name}
			if ran[k] && !wrong[k] && s.Supports(benchmark.SingleQuery, l) {
				out[l] = append(out[l], s)
			}
		}
	}
	return out, nil
}

// planValidation records the distinct cores of the track's results and
// plans their validation pairs; it returns how many pairs are new.
func (p *Prepared) planValidation(ctx context.Context) (int, error) {
	def := p.Def
	key, vkey := Key(def, benchmark.UnsatCore), ValidationKey(def.Name)
	pairs, err := p.Store.Pairs(ctx, key)
	if err != nil {
		return 0, err
	}
	rs, err := p.Store.Results(ctx, store.ResultFilter{Track: string(benchmark.UnsatCore)})
	if err != nil {
		return 0, err
	}
	res := map[string]store.Result{}
	for _, r := range rs {
		res[r.SourceKey] = r
	}
	share := def.Tracks[string(benchmark.UnsatCore)].ShareCores == nil || *def.Tracks[string(benchmark.UnsatCore)].ShareCores
	type core struct {
		c        store.Core
		division string
	}
	var cores []core
	seen := map[string]bool{}
	logicSet := map[string]bool{}
	for _, pr := range pairs {
		r, ok := res[fmt.Sprintf("pair:%d", pr.ID)]
		if !ok {
			continue
		}
		f, ok := ReadCoreFacts(r.Extra)
		if !ok || f.Hash == "" {
			continue
		}
		id := f.Hash
		if !share {
			// Each solver's core validated on its own (the figure's
			// "without sharing").
			id += "-" + strconv.FormatInt(pr.ID, 10)
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		logicSet[pr.Logic] = true
		cores = append(cores, core{division: pr.Division, c: store.Core{Competition: vkey, Hash: id, BenchmarkPath: pr.BenchmarkPath,
			Logic: pr.Logic, Input: filepath.Join(p.validationDir(), f.Hash+".smt2"), Names: strings.Join(f.Names, " ")}})
	}
	if len(cores) == 0 {
		return 0, nil
	}
	sort.SliceStable(cores, func(i, j int) bool { return cores[i].c.BenchmarkPath < cores[j].c.BenchmarkPath })
	var logics []string
	for l := range logicSet {
		logics = append(logics, l)
	}
	sort.Strings(logics)
	vs, err := p.validators(ctx, logics)
	if err != nil {
		return 0, err
	}
	var planned []store.Pair
	seq := int64(0)
	for _, c := range cores {
		id, err := p.Store.AddCore(ctx, c.c)
		if err != nil {
			return 0, err
		}
		for _, s := range vs[c.c.Logic] {
			planned = append(planned, store.Pair{Competition: vkey, Track: ValidationTrack, Division: c.division, Logic: c.c.Logic,
				Solver: s.Name, Configuration: configurations(s, benchmark.SingleQuery)[0], BenchmarkID: id, BenchmarkPath: c.c.BenchmarkPath,
				Input: c.c.Input, Expected: string(benchmark.Unsat), Seq: seq})
			seq++
		}
	}
	return p.Store.PlanPairs(ctx, planned)
}

// validator runs validation pairs.
type validator struct {
	p      *Prepared
	limit  time.Duration
	memory int64
	cores  int
}

func (v *validator) run(ctx context.Context, slot int, pr store.Pair) (store.Result, error) {
	var s *config.Solver
	for i := range v.p.Def.Solvers {
		if v.p.Def.Solvers[i].Name == pr.Solver {
			s = &v.p.Def.Solvers[i]
		}
	}
	if s == nil {
		return store.Result{}, fmt.Errorf("validator %s is no longer in the definition", pr.Solver)
	}
	ts := track.Solver{Command: s.Command, Package: v.p.Def.Path(s.Package), Config: pr.Configuration}
	if s.Package == "" {
		ts.Package = ""
	}
	argv, _ := ts.SingleQueryArgs(pr.Input, sandbox.Protocol2022)
	limits := sandbox.Limits{Wall: v.limit, MemoryBytes: v.memory, OutputBytes: 1 << 20}
	rr := (&runner{p: v.p, cores: v.cores}).limits(slot)
	limits.Cores = rr.Cores
	run, err := validate.RunValidator(ctx, pr.Solver, argv, limits)
	if err != nil {
		return store.Result{}, err
	}
	b, _ := json.Marshal(map[string]any{"division": pr.Division, "logic": pr.Logic, "core_id": pr.BenchmarkID, "error": run.Error})
	return store.Result{Competition: v.p.Def.Name, Year: v.p.Def.Rules, Track: ValidationTrack, Solver: pr.Solver,
		Configuration: pr.Configuration, BenchmarkPath: pr.BenchmarkPath, Status: run.Status, Answer: run.Answer,
		Expected: pr.Expected, CPU: run.CPU, Wall: run.Wall, Extra: string(b)}, nil
}

// CoreDetail is a core's recorded decision: the rule's verdict and every
// validator's answer and time.
type CoreDetail struct {
	validate.Verdict
	Runs []validate.Run `json:"runs"`
}

// decideCores records the verdict of every core whose validation pairs
// are all done, by the track's decision rule.
func (p *Prepared) decideCores(ctx context.Context) error {
	vkey := ValidationKey(p.Def.Name)
	rule, err := validate.ParseRule(p.Def.Tracks[string(benchmark.UnsatCore)].Decision)
	if err != nil {
		return err
	}
	cores, err := p.Store.Cores(ctx, vkey)
	if err != nil {
		return err
	}
	pairs, err := p.Store.Pairs(ctx, vkey)
	if err != nil {
		return err
	}
	rs, err := p.Store.Results(ctx, store.ResultFilter{Track: ValidationTrack})
	if err != nil {
		return err
	}
	res := map[string]store.Result{}
	for _, r := range rs {
		res[r.SourceKey] = r
	}
	byCore := map[int64][]store.Pair{}
	for _, pr := range pairs {
		byCore[pr.BenchmarkID] = append(byCore[pr.BenchmarkID], pr)
	}
	for _, c := range cores {
		d := CoreDetail{Runs: []validate.Run{}}
		done := true
		for _, pr := range byCore[c.ID] {
			r, ok := res[fmt.Sprintf("pair:%d", pr.ID)]
			if !ok {
				done = false
				break
			}
			d.Runs = append(d.Runs, validate.Run{Validator: r.Solver, Answer: r.Answer, Status: r.Status, Wall: r.Wall, CPU: r.CPU})
		}
		if !done {
			continue
		}
		answers := make([]string, len(d.Runs))
		for i, r := range d.Runs {
			answers[i] = r.Answer
		}
		d.Verdict = rule.Decide(answers)
		verdict := "refuted"
		if d.Validated {
			verdict = "validated"
		}
		b, _ := json.Marshal(d)
		if c.Verdict == verdict && c.Detail == string(b) {
			continue
		}
		if err := p.Store.SetCoreVerdict(ctx, c.ID, verdict, string(b)); err != nil {
			return err
		}
	}
	return nil
}

// CoreSummary counts a solver's unsat-core results in a division, read by
// the rules (internal/validate.ReadRules).
type CoreSummary struct {
	Division, Solver string
	Pairs, Unsat     int
	// Validated and Refuted count cores by verdict, Pending those not
	// decided yet; NoCore unsat answers without a core (an error, or
	// nothing); IllFormed cores that are not a list of the benchmark's
	// names; Reported cores with duplicate names or names that are no
	// assertion's.
	Validated, Refuted, Pending, NoCore, IllFormed, Reported int
	Sat                                                      int // erroneous answers
	Reduction                                                int
	ValidationRuns                                           int
	ValidationWall                                           float64
}

// CoreSummaries reads the unsat-core track's results and core verdicts
// into per-division, per-solver counts, sorted by division and reduction.
func CoreSummaries(ctx context.Context, def *config.Competition, st store.Store) ([]CoreSummary, error) {
	if _, ok := def.Tracks[string(benchmark.UnsatCore)]; !ok {
		return nil, nil
	}
	pairs, err := st.Pairs(ctx, Key(def, benchmark.UnsatCore))
	if err != nil {
		return nil, err
	}
	rs, err := st.Results(ctx, store.ResultFilter{Track: string(benchmark.UnsatCore)})
	if err != nil {
		return nil, err
	}
	res := map[string]store.Result{}
	for _, r := range rs {
		res[r.SourceKey] = r
	}
	cores, err := st.Cores(ctx, ValidationKey(def.Name))
	if err != nil {
		return nil, err
	}
	byHash := map[string]store.Core{}
	for _, c := range cores {
		byHash[c.Hash] = c
	}
	by := map[[2]string]*CoreSummary{}
	for _, pr := range pairs {
		k := [2]string{pr.Division, pr.Solver}
		s := by[k]
		if s == nil {
			s = &CoreSummary{Division: pr.Division, Solver: pr.Solver}
			by[k] = s
		}
		s.Pairs++
		r, ok := res[fmt.Sprintf("pair:%d", pr.ID)]
		if !ok {
			continue
		}
		f, ok := ReadCoreFacts(r.Extra)
		if !ok {
			continue
		}
		switch f.Answer {
		case "sat":
			s.Sat++
			continue
		case "unsat":
			s.Unsat++
		default:
			continue
		}
		if len(f.Duplicates)+len(f.Unknown) > 0 {
			s.Reported++
		}
		validated := true
		switch {
		case f.Core == validate.CoreMissing || f.Core == validate.CoreError:
			s.NoCore++
		case f.Core == validate.CoreMalformed || len(f.Unknown) > 0:
			s.IllFormed++
		}
		if f.Validated() {
			c, ok := byHash[f.Hash]
			if !ok {
				c, ok = byHash[f.Hash+"-"+strconv.FormatInt(pr.ID, 10)]
			}
			switch {
			case ok && c.Verdict == "validated":
				s.Validated++
			case ok && c.Verdict == "refuted":
				s.Refuted++
				validated = false
			default:
				s.Pending++
				continue
			}
			var d CoreDetail
			_ = json.Unmarshal([]byte(c.Detail), &d)
			s.ValidationRuns += len(d.Runs)
			for _, run := range d.Runs {
				s.ValidationWall += run.Wall
			}
		}
		s.Reduction += f.Score(validated, validate.ReadRules).Reduction
	}
	out := make([]CoreSummary, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Division != b.Division {
			return a.Division < b.Division
		}
		if a.Sat+a.Refuted != b.Sat+b.Refuted {
			return a.Sat+a.Refuted < b.Sat+b.Refuted
		}
		if a.Reduction != b.Reduction {
			return a.Reduction > b.Reduction
		}
		return a.Solver < b.Solver
	})
	return out, nil
}
