package score

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/strarena"
)

// Row is one solver's run on one benchmark: what scoring needs of a result.
//
// A track's rows are held all at once (141,661 of them for 2024's
// unsat-core track), so a Row keeps only what most rows have; the
// source's own identifiers and the model validator's verdict, which most
// rows lack, are behind one pointer (Source, nil for a row that has none
// of them; issue 13: the memory of a year's rows, and fewer pointers for
// the collector to scan). Read them by the methods of the same names
// (r.Model(), r.Pair(), ...), which give "" or false where Source is nil.
type Row struct {
	// Solver identifies the solver as the Registry knows it (a StarExec
	// solver id, or a name); unknown keys are their own names.
	Solver string
	// Benchmark is the library path: (non-)incremental/LOGIC/family/.../file.
	Benchmark string
	// Status is how the run ended: complete, timeout, timeout (wallclock),
	// memout, or anything else (an abnormal end).
	Status   string
	Answer   string // sat, unsat, or anything else (no answer)
	Expected string // sat, unsat, or anything else (unknown status)
	// Result is the smtcomp tool's answer word (2024 on: sat, Timeout,
	// IncrementalError, UnsatCoreNotValidated, ModelUnsat, ...) where the
	// import kept it; its official computation tells them apart.
	Result string
	CPU    float64
	Wall   float64
	// Source is what the few rows that have it say beyond the fields of
	// Row (nil: nothing); write it through EditSource.
	Source *RowSource

	// Incremental track: correct and wrong check-sat answers, and the
	// number of check-sat commands of the benchmark (N).
	CorrectAnswers, WrongAnswers, CheckSats int32
	// Unsat-core track: N minus the size of the returned core, and whether
	// the core was refuted by the validating solvers. Formats that give
	// the core's size instead leave Reduction to whoever knows N.
	Reduction int32
	CoreSize  int32
	// Asserts is the benchmark's number of assertions where known (the
	// smtcomp tool's correct score is Asserts - CoreSize, not clamped).
	Asserts       int32
	CoreErroneous bool
	// CoreIllFormed: the post-processor could not parse the core
	// (StarExec's parsable-unsat-core = false).
	CoreIllFormed bool
	// CoreParsable: parsable-unsat-core says true (2015-2018's program
	// takes anything else, "-" included, for an unparsable core).
	CoreParsable bool
}

// RowSource is the part of a Row that most rows lack: the source's own
// identifiers of a run (its solver name, configuration, job and pair) and
// the model validator's verdict.
type RowSource struct {
	// Name is the source's solver name where Solver is its id (the
	// export's solver column): the official computation of 2015-2018
	// grouped runs by it (official2015.go).
	Name string
	// Model-validation track: the validator's verdict, VALID, INVALID or
	// UNKNOWN ("" when there was none), and from 2020 its error and
	// exception columns (model_validator_error, model_validator_exception),
	// which the official script reads.
	Model, ModelError, ModelException string
	// ModelReason is the reason of smtarena's validator for its verdict
	// (model_reason: bad-model, no-output, parse-error, ...).
	ModelReason string

	// Job is the file of a multi-file export the row came from (the
	// importer's Extra "job file", e.g. Job_info_2019.csv of 2020), and
	// Pair the source's pair id: the official computation of a year keeps
	// or patches rows by them (official2020.go, Patch).
	Job, Pair string
	// ConfigName is the source's configuration name (StarExec's
	// "configuration" column): 2023's fix-results lists name runs by it.
	ConfigName string
	// Config is the source's configuration id (StarExec's "configuration
	// id"): from 2022 the official script names and ranks solvers by it.
	Config string
	// Rerun: the row comes from a rerun of timed-out pairs (2017's
	// Main_Track_Rerun_Timeouts; the importer's Extra "rerun file").
	Rerun bool
}

// EditSource returns the row's Source to write, made where it is nil.
// A row copied by value shares its Source with the original: give the
// copy one of its own first (r.Source = r.Source.Clone()) where the
// original is still in use.
func (r *Row) EditSource() *RowSource {
	if r.Source == nil {
		r.Source = new(RowSource)
	}
	return r.Source
}

// Clone returns a copy of s (nil for nil).
func (s *RowSource) Clone() *RowSource {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

// String shows the fields of s (rows printed with %+v show what their
// Source says, not where it is).
func (s *RowSource) String() string {
	if s == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%+v", *s)
}

// src is what the row's Source says, the zero RowSource where it is nil
// (only to read).
func (r *Row) src() *RowSource {
	if r.Source == nil {
		return &noSource
	}
	return r.Source
}

// noSource is src's zero RowSource: never written.
var noSource RowSource

// Name is Source.Name ("" without a Source).
func (r *Row) Name() string { return r.src().Name }

// Model is Source.Model ("" without a Source).
func (r *Row) Model() string { return r.src().Model }

// ModelError is Source.ModelError ("" without a Source).
func (r *Row) ModelError() string { return r.src().ModelError }

// ModelException is Source.ModelException ("" without a Source).
func (r *Row) ModelException() string { return r.src().ModelException }

// ModelReason is Source.ModelReason ("" without a Source).
func (r *Row) ModelReason() string { return r.src().ModelReason }

// Job is Source.Job ("" without a Source).
func (r *Row) Job() string { return r.src().Job }

// Pair is Source.Pair ("" without a Source).
func (r *Row) Pair() string { return r.src().Pair }

// ConfigName is Source.ConfigName ("" without a Source).
func (r *Row) ConfigName() string { return r.src().ConfigName }

// Config is Source.Config ("" without a Source).
func (r *Row) Config() string { return r.src().Config }

// Rerun is Source.Rerun (false without a Source).
func (r *Row) Rerun() bool { return r.src().Rerun }

// The Extra keys RowOf reads.
const (
	xSolverID = iota
	xCorrectAnswers
	xWrongAnswers
	xNumCheckSat
	xSolved
	xWrongAnswersRun
	xCheckSats
	xReduction
	xCoreSize
	xErroneous
	xParsableCore
	xResult
	xModelStatus
	xModelReason
	xModelError
	xModelException
	xJob
	xPair
	xConfigID
	xRerun
	nExtraKeys
)

var extraKeys = [nExtraKeys]string{
	xSolverID: "solver id", xCorrectAnswers: "correct-answers", xWrongAnswers: "wrong-answers", xNumCheckSat: "num_check_sat",
	xSolved: "solved", xWrongAnswersRun: "wrong_answers", xCheckSats: "check_sats", xReduction: "reduction", xCoreSize: "core-size",
	xErroneous: "result-is-erroneous", xParsableCore: "parsable-unsat-core", xResult: "result", xModelStatus: "model_validator_status",
	xModelReason: "model_reason", xModelError: "model_validator_error", xModelException: "model_validator_exception",
	xJob: "job file", xPair: "pair id", xConfigID: "configuration id", xRerun: "rerun file",
}

// extraSlot is where a member of an Extra object goes: the key it spells
// (alt: in the other spelling, underscores for spaces or the other way
// round, which counts where the key itself is missing).
type extraSlot struct {
	key int
	alt bool
}

// extraSlotOf says where a member of an Extra object goes, if anywhere:
// by a table indexed by a hash of the key's length and ends, and the map
// where two spellings share a place (a row has several members, and a year
// has many rows).
func extraSlotOf(k string) (extraSlot, bool) {
	if k == "" {
		return extraSlot{}, false
	}
	e := &extraTable[extraHash(k)]
	switch {
	case e.shared:
		sl, ok := extraSlots[k]
		return sl, ok
	case e.used && e.name == k:
		return e.slot, true
	}
	return extraSlot{}, false
}

func extraHash(k string) int { return (len(k)*31 + int(k[0])*7 + int(k[len(k)-1])) & 255 }

var extraTable = func() (t [256]struct {
	name         string
	slot         extraSlot
	used, shared bool
}) {
	for name, sl := range extraSlots {
		e := &t[extraHash(name)]
		if e.used {
			e.shared = true
		}
		e.name, e.slot, e.used = name, sl, true
	}
	return t
}()

// extraSlots maps each spelling RowOf reads to its key.
var extraSlots = func() map[string]extraSlot {
	m := map[string]extraSlot{}
	for k, name := range extraKeys {
		alt := strings.ReplaceAll(name, " ", "_")
		if alt == name {
			alt = strings.ReplaceAll(name, "_", " ")
		}
		if alt != name {
			m[alt] = extraSlot{key: k, alt: true}
		}
	}
	for k, name := range extraKeys {
		m[name] = extraSlot{key: k}
	}
	return m
}()

// RowOf builds a Row from a stored result's fields; extra is the JSON
// object of the track's other columns as the importers keep them
// (correct-answers, wrong-answers, reduction, core-size,
// result-is-erroneous, model_validator_status, solver id, num_check_sat)
// or smtarena's runs write them (solved, wrong_answers, check_sats). The solver id, when
// there is one, becomes Row.Solver, since registrations name solvers by id.
func RowOf(solver, path, status, answer, expected string, cpu, wall float64, extra string) (Row, error) {
	var r Row
	err := ReadRow(&r, solver, path, status, answer, expected, cpu, wall, extra)
	return r, err
}

// ReadRow is RowOf into a zero Row (a year's rows are many, and large:
// they are built where they are kept).
func ReadRow(r *Row, solver, path, status, answer, expected string, cpu, wall float64, extra string) error {
	return readRow(r, solver, path, status, answer, expected, cpu, wall, extra, nil)
}

// readRow is ReadRow; with an arena, what the row keeps of extra is
// copied into it (see RowReader.Read).
func readRow(r *Row, solver, path, status, answer, expected string, cpu, wall float64, extra string, a *strarena.Arena) error {
	r.Solver, r.Benchmark, r.Status, r.Answer, r.Expected, r.CPU, r.Wall = solver, path, status, answer, expected, cpu, wall
	if extra == "" || extra == "{}" {
		return nil
	}
	var x extraRow
	if err := x.read(extra); err != nil {
		return fmt.Errorf("%s: extra columns: %w", path, err)
	}
	if a != nil {
		x.detach(a)
	}
	x.apply(r, solver)
	return nil
}

// RowReader reads rows as ReadRow does, keeping what it read of each
// Extra object: a track's results have few distinct ones (2024's
// unsat-core track: 1338 for 141,661 results), each read once.
type RowReader struct {
	seen         map[string]*extraRow
	hits, misses int
	arena        strarena.Arena // the strings of the Extra objects not kept in seen
}

// detach makes the strings of e copies of their own.
func (e *extraRow) detach(a *strarena.Arena) {
	for _, p := range [...]*string{&e.solverID, &e.result, &e.model, &e.reason, &e.modelError, &e.modelException, &e.job, &e.pair, &e.config} {
		*p = a.Clone(*p)
	}
}

// maxSeen bounds the Extra objects a RowReader keeps; when they are many
// and seldom seen again (a pair id in each), it stops looking.
const maxSeen = 4096

// Read is ReadRow, but what the row keeps of extra does not point into it
// (a store's results may be substrings of blocks of megabytes: a row
// that pointed into one would keep it all).
func (rr *RowReader) Read(r *Row, solver, path, status, answer, expected string, cpu, wall float64, extra string) error {
	if extra == "" || extra == "{}" || (len(rr.seen) >= maxSeen && rr.hits < rr.misses) {
		return readRow(r, solver, path, status, answer, expected, cpu, wall, extra, &rr.arena)
	}
	r.Solver, r.Benchmark, r.Status, r.Answer, r.Expected, r.CPU, r.Wall = solver, path, status, answer, expected, cpu, wall
	x, ok := rr.seen[extra]
	if ok {
		rr.hits++
	} else {
		rr.misses++
		// Its own copy: what is read of it points into it.
		extra = strings.Clone(extra)
		x = &extraRow{}
		if err := x.read(extra); err != nil {
			return fmt.Errorf("%s: extra columns: %w", path, err)
		}
		if rr.seen == nil {
			rr.seen = map[string]*extraRow{}
		}
		if len(rr.seen) < maxSeen {
			rr.seen[extra] = x
		}
	}
	x.apply(r, solver)
	return nil
}

// extraRow is what a row takes from its Extra object.
type extraRow struct {
	solverID                                          string
	correct, wrong, checkSats, reduction, coreSize    int32
	solved, wrongRun                                  int32
	hasSolved, hasWrongRun                            int
	erroneous, illFormed, parsable, rerun             bool
	result, model, reason, modelError, modelException string
	job, pair, config                                 string
}

// read reads an Extra object.
func (e *extraRow) read(extra string) error {
	var fields [12]extraField
	x, ok := parseExtra(extra, fields[:0])
	if !ok {
		var m map[string]any
		if err := json.Unmarshal([]byte(extra), &m); err != nil {
			return err
		}
		x = extraOfMap(m)
	}
	// Where each key's value is in x, plus one (the last, if given
	// twice, as in a map), and that of its other spelling.
	var at, altAt [nExtraKeys]int32
	for i := range x {
		sl, ok := extraSlotOf(x[i].key)
		switch {
		case !ok:
		case sl.alt:
			altAt[sl.key] = int32(i + 1)
		default:
			at[sl.key] = int32(i + 1)
		}
	}
	has := func(k int) bool { return at[k] > 0 }
	str := func(k int) string {
		if i := at[k]; i > 0 {
			return x[i-1].v.String()
		}
		if i := altAt[k]; i > 0 {
			return x[i-1].v.String()
		}
		return ""
	}
	num := func(k int) int32 {
		s := str(k)
		if s == "" {
			return 0
		}
		if n, ok := smallInt(s); ok {
			return clampInt32(float64(n))
		}
		n, _ := strconv.ParseFloat(s, 64)
		return clampInt32(n)
	}
	e.solverID = str(xSolverID)
	e.correct, e.wrong = num(xCorrectAnswers), num(xWrongAnswers)
	e.checkSats = num(xNumCheckSat)
	if has(xSolved) {
		e.hasSolved, e.solved = 1, num(xSolved)
	}
	if has(xWrongAnswersRun) {
		e.hasWrongRun, e.wrongRun = 1, num(xWrongAnswersRun)
	}
	if n := num(xCheckSats); n > 0 && e.checkSats <= 0 {
		e.checkSats = n
	}
	e.reduction, e.coreSize = num(xReduction), num(xCoreSize)
	switch strings.ToLower(str(xErroneous)) {
	case "1", "true", "yes":
		e.erroneous = true
	}
	switch strings.ToLower(str(xParsableCore)) {
	case "0", "false", "no":
		e.illFormed = true
	case "1", "true", "yes":
		e.parsable = true
	}
	e.result = str(xResult)
	e.model = strings.ToUpper(str(xModelStatus))
	if e.model == "-" {
		e.model = ""
	}
	e.reason = str(xModelReason)
	e.modelError, e.modelException = str(xModelError), str(xModelException)
	if !has(xModelException) && e.modelError != "" {
		e.modelException = noException
	}
	e.job, e.pair, e.config = str(xJob), str(xPair), str(xConfigID)
	e.rerun = has(xRerun)
	return nil
}

// clampInt32 is n without its fraction, within the range of an int32 (a
// Row's counts; no benchmark has 2^31 check-sats or assertions).
func clampInt32(n float64) int32 {
	switch {
	case n >= math.MaxInt32:
		return math.MaxInt32
	case n <= math.MinInt32:
		return math.MinInt32
	case n != n: // NaN
		return 0
	}
	return int32(n)
}

// apply sets a row's fields from its Extra object.
func (e *extraRow) apply(r *Row, solver string) {
	src := RowSource{
		Name:  r.Name(),
		Model: e.model, ModelReason: e.reason, ModelError: e.modelError, ModelException: e.modelException,
		Job: e.job, Pair: e.pair, Config: e.config, Rerun: e.rerun,
	}
	if r.Source != nil {
		src.ConfigName = r.Source.ConfigName
	}
	if e.solverID != "" {
		src.Name, r.Solver = solver, e.solverID
	}
	r.CorrectAnswers, r.WrongAnswers = e.correct, e.wrong
	if e.checkSats > 0 {
		r.CheckSats = e.checkSats
	}
	// smtarena's own incremental runs (internal/compete)
	if e.hasSolved == 1 && r.CorrectAnswers == 0 {
		r.CorrectAnswers = e.solved
	}
	if e.hasWrongRun == 1 && r.WrongAnswers == 0 {
		r.WrongAnswers = e.wrongRun
	}
	r.Reduction, r.CoreSize = e.reduction, e.coreSize
	r.CoreErroneous, r.CoreIllFormed, r.CoreParsable = e.erroneous, e.illFormed, e.parsable
	r.Result = e.result
	// Most rows have no Source: none is made for them.
	switch {
	case src != RowSource{}:
		s := new(RowSource)
		*s = src
		r.Source = s
	case r.Source != nil:
		r.Source = nil
	}
}

// SourceName is the solver as the source's solver column names it.
func (r *Row) SourceName() string {
	if n := r.Name(); n != "" {
		return n
	}
	return r.Solver
}

// Solver is what a registration says about a solver.
type Solver struct {
	Name        string // the name results are published under
	Competitive bool
	// Team names the submission this solver is a variant of; two solvers
	// of one team do not make a division competitive. Empty: its own name.
	Team       string
	New        bool // a new entrant (2014, 2018 best new entrant; 2022 new entrants)
	OpenSource bool // 2014's open-source recognition
}

// Registry maps solver keys (ids or names) to solvers. A nil Registry
// makes every solver competitive under its own name.
type Registry map[string]Solver

// ParseRegistration reads SMT-COMP's registration table
// (solvers_divisions_final.csv of 2019 and later): every id column (Solver
// ID, the wrapped solver ids per track, the configuration ids) maps to the
// solver's name; "Competing" says whether it is competitive; "Variant Of"
// names its team's main solver.
func ParseRegistration(r io.Reader) (Registry, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("registration: header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"Solver Name", "Competing"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("registration: no %q column", need)
		}
	}
	var recs [][]string
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("registration: %w", err)
		}
		recs = append(recs, rec)
	}
	get := func(rec []string, c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	nameOfID := map[string]string{}
	for _, rec := range recs {
		if id := get(rec, "Solver ID"); id != "" {
			nameOfID[id] = get(rec, "Solver Name")
		}
	}
	reg := Registry{}
	for _, rec := range recs {
		name := get(rec, "Solver Name")
		s := Solver{Name: name, Competitive: strings.EqualFold(get(rec, "Competing"), "yes"), Team: name}
		if v := get(rec, "Variant Of"); v != "" {
			// "23711" (an id) or "CVC4, 23420" (a name and an id).
			first := strings.TrimSpace(strings.Split(v, ",")[0])
			if n, ok := nameOfID[first]; ok {
				s.Team = n
			} else if _, err := strconv.Atoi(first); err != nil {
				s.Team = first
			}
		}
		for _, c := range head {
			c = strings.TrimSpace(c)
			if c == "Solver ID" || strings.HasPrefix(c, "Wrapped Solver ID") || strings.HasPrefix(c, "Config ID") {
				if id := get(rec, c); id != "" {
					reg[id] = s
				}
			}
		}
		reg[name] = s
	}
	return reg, nil
}

// MergeTeams reads canon_solvers.json ({"team's solver": ["variant", ...]})
// and sets the Team of every variant.
func (reg Registry) MergeTeams(r io.Reader) error {
	var canon map[string][]string
	if err := json.NewDecoder(r).Decode(&canon); err != nil {
		return fmt.Errorf("solver teams: %w", err)
	}
	team := map[string]string{}
	for main, vs := range canon {
		team[main] = main
		for _, v := range vs {
			team[v] = main
		}
	}
	for k, s := range reg {
		if t, ok := team[s.Name]; ok {
			s.Team = t
			reg[k] = s
		}
	}
	return nil
}

func (reg Registry) lookup(key string) Solver {
	if s, ok := reg[key]; ok {
		if s.Team == "" {
			s.Team = s.Name
		}
		return s
	}
	return Solver{Name: key, Competitive: true, Team: key}
}
