package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/smtarena/smtarena/internal/benchmark"
)

// Competition is a competition's definition, as competition.toml writes it.
type Competition struct {
	Name  string `toml:"name"`
	Rules int    `toml:"rules"`
	// Library lists the benchmark roots (directories or archives) to index.
	Library []string `toml:"library"`
	// WorkDir holds scrambled benchmarks and run directories; default
	// "<name>-work" beside the file.
	WorkDir string           `toml:"workdir"`
	Seed    Seed             `toml:"seed"`
	Tracks  map[string]Track `toml:"tracks"`
	Solvers []Solver         `toml:"solvers"`
	// Jobs is how many pairs run at once (default: CPUs / cores per job).
	Jobs int `toml:"jobs"`
	// Lint is what compete does with a selected benchmark that breaks
	// its track's input rules (internal/lint): "exclude" (the default)
	// leaves it out, "warn" runs it; both report it.
	Lint string `toml:"lint"`
	// Executor says where pairs run (executor.go).
	Executor Executor `toml:"executor"`

	dir string // where the file is: relative paths are relative to it
}

// The values of Competition.Lint.
const (
	LintExclude = "exclude"
	LintWarn    = "warn"
)

// Seed is either fixed or derived as the rules say.
type Seed struct {
	Value    *uint32  `toml:"value"`
	Entrants []uint32 `toml:"entrants"`
	NYSE     string   `toml:"nyse"`
}

// Track holds one track's settings.
type Track struct {
	CPULimit  Duration `toml:"cpu_limit"`
	WallLimit Duration `toml:"wall_limit"`
	MemoryMB  int64    `toml:"memory_mb"`
	Cores     int      `toml:"cores"`
	// Logics restricts the track to these logics (default: all indexed).
	Logics []string `toml:"logics"`
	// Protocol is the termination protocol: "2022" or "2005".
	Protocol string `toml:"protocol"`
	// Count is how many benchmarks the parallel and cloud tracks take
	// (2022: 400, the hardest by the organisers' estimate).
	Count int `toml:"count"`

	// Unsat-core track: the wall-clock limit of each validation run
	// (default 300 s, as the rules anticipate; the official runs of
	// 2021-2023 used 120 s); the validating solvers, by name (default:
	// those sound in this competition's single-query track for the
	// core's division); the decision rule, "2018" (refuted when more
	// validators say sat than unsat; 2018-2022) or "2026" (validated
	// only when more say unsat than sat); and whether identical cores
	// are validated once (default true).
	ValidationLimit Duration `toml:"validation_limit"`
	Validators      []string `toml:"validators"`
	Decision        string   `toml:"decision"`
	ShareCores      *bool    `toml:"share_cores"`
	// ValidatorsByLogic lists the validating solvers of a logic, as the
	// official post-processor of 2021-2023 did; a logic listed here takes
	// its list instead of Validators (or the default).
	ValidatorsByLogic map[string][]string `toml:"validators_by_logic"`
	// OutputMB bounds a solver's output (default 64; the proof track's
	// default is 1024, proofs being large).
	OutputMB int64 `toml:"output_mb"`
	// Probe (proof track): how many satisfiable benchmarks per division
	// each solver and checker are also run on, to catch a checker that
	// says valid there (0: none).
	Probe int `toml:"probe"`
	// Nodes is how many nodes one pair of the cloud track gets (the
	// Slurm executor's allocation per worker; default 1).
	Nodes int `toml:"nodes"`
}

// Solver is one entrant (or an organisers' reference solver).
type Solver struct {
	Name        string `toml:"name"`
	Team        string `toml:"team"`
	Version     string `toml:"version"`
	Competitive *bool  `toml:"competitive"`
	// Type: standalone, wrapper, derived or portfolio (portfolios only in
	// the parallel and cloud tracks).
	Type   string   `toml:"type"`
	Tracks []string `toml:"tracks"`
	// Logics are names or regular expressions (anchored) of the logics the
	// solver supports.
	Logics []string `toml:"logics"`
	// Command runs it on a benchmark: {file} is replaced by the path of
	// the scrambled file; without {file}, the path is the last argument.
	Command []string `toml:"command"`
	// IncrementalCommand reads commands on stdin (incremental track).
	IncrementalCommand []string `toml:"incremental_command"`
	// ProofCommand runs the solver in the proof track ({file} as in
	// Command; default: Command), and CheckerCommand its proof checker:
	// {file} is the benchmark and {output} the file holding the solver's
	// output; without them both are appended, in that order (2022 §5.8's
	// smtcomp_solver and smtcomp_checker). A program given by a relative
	// path with a slash is relative to the competition file.
	ProofCommand   []string `toml:"proof_command"`
	CheckerCommand []string `toml:"checker_command"`
	// Package is a StarExec-style directory: bin/starexec_run_<config>,
	// bin/smtcomp_run_incremental, and for the proof track
	// bin/smtcomp_solver and bin/smtcomp_checker.
	Package        string   `toml:"package"`
	Configurations []string `toml:"configurations"`

	logicRE []*regexp.Regexp
}

// Duration reads "20s", "20m" or a number of seconds.
type Duration struct{ time.Duration }

// UnmarshalTOML accepts a duration string or seconds.
func (d *Duration) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case string:
		dd, err := time.ParseDuration(x)
		if err != nil {
			return err
		}
		d.Duration = dd
	case int64:
		d.Duration = time.Duration(x) * time.Second
	case float64:
		d.Duration = time.Duration(x * float64(time.Second))
	default:
		return fmt.Errorf("want a duration such as \"20s\" or a number of seconds, got %v", v)
	}
	return nil
}

// IsCompetitive reports whether the solver competes (default true).
func (s *Solver) IsCompetitive() bool { return s.Competitive == nil || *s.Competitive }

// Supports reports whether the solver enters a track with a logic.
func (s *Solver) Supports(track benchmark.Track, logic string) bool {
	in := false
	for _, t := range s.Tracks {
		if tr, err := benchmark.ParseTrack(t); err == nil && tr == track {
			in = true
		}
	}
	if !in {
		return false
	}
	for _, re := range s.logicRE {
		if re.MatchString(logic) {
			return true
		}
	}
	return false
}

// Dir is the directory the definition's relative paths are relative to.
func (c *Competition) Dir() string { return c.dir }

// Path resolves a path of the definition.
func (c *Competition) Path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.dir, p)
}

// TrackNames lists the tracks the competition runs, in the rules' order.
func (c *Competition) TrackNames() []benchmark.Track {
	var out []benchmark.Track
	for _, t := range benchmark.Tracks {
		if _, ok := c.Tracks[string(t)]; ok {
			out = append(out, t)
		}
	}
	return out
}

// Load reads and checks a competition definition. Errors name the file and
// what is wrong.
func Load(path string) (*Competition, error) {
	var c Competition
	md, err := toml.DecodeFile(path, &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d:%d: %s", path, pe.Position.Line, pe.Position.Col, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("%s: unknown keys: %s", path, strings.Join(keys, ", "))
	}
	abs, _ := filepath.Abs(path)
	c.dir = filepath.Dir(abs)
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

func (c *Competition) check() error {
	if c.Name == "" {
		return errors.New("name is required")
	}
	switch c.Rules {
	case 2006, 2014, 2018, 2022:
	default:
		return fmt.Errorf("rules = %d: want 2006, 2014, 2018 or 2022", c.Rules)
	}
	if c.WorkDir == "" {
		c.WorkDir = c.Name + "-work"
	}
	switch c.Lint {
	case "":
		c.Lint = LintExclude
	case LintExclude, LintWarn:
	default:
		return fmt.Errorf("lint = %q: want %q or %q", c.Lint, LintExclude, LintWarn)
	}
	if len(c.Tracks) == 0 {
		return errors.New("no [tracks.<name>] section")
	}
	allowed := benchmark.TracksOf(c.Rules)
	for name, t := range c.Tracks {
		tr, err := benchmark.ParseTrack(name)
		if err != nil || string(tr) != name {
			return fmt.Errorf("[tracks.%s]: unknown track (want one of %s)", name, benchmark.TrackNames())
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == tr
		}
		if !ok && c.Rules != 2022 {
			return fmt.Errorf("[tracks.%s]: the %d rules have no such track", name, c.Rules)
		}
		if t.CPULimit.Duration <= 0 && t.WallLimit.Duration <= 0 {
			return fmt.Errorf("[tracks.%s]: set cpu_limit or wall_limit", name)
		}
		if t.Protocol != "" && t.Protocol != "2022" && t.Protocol != "2005" {
			return fmt.Errorf("[tracks.%s]: protocol %q: want 2022 or 2005", name, t.Protocol)
		}
		if err := c.checkValidation(name, t); err != nil {
			return err
		}
		if t.Probe != 0 && tr != benchmark.Proof {
			return fmt.Errorf("[tracks.%s]: probe is a setting of the proof track", name)
		}
		if t.Probe < 0 || t.OutputMB < 0 {
			return fmt.Errorf("[tracks.%s]: probe and output_mb must not be negative", name)
		}
	}
	if err := c.Executor.check(); err != nil {
		return err
	}
	if c.Seed.Value == nil && c.Seed.NYSE == "" {
		return errors.New("[seed]: give value, or entrants and nyse")
	}
	if len(c.Solvers) == 0 {
		return errors.New("no [[solvers]]")
	}
	seen := map[string]bool{}
	for i := range c.Solvers {
		s := &c.Solvers[i]
		if s.Name == "" {
			return fmt.Errorf("solver %d: name is required", i+1)
		}
		if seen[s.Name] {
			return fmt.Errorf("solver %s: defined twice", s.Name)
		}
		seen[s.Name] = true
		if len(s.Command) == 0 && s.Package == "" {
			return fmt.Errorf("solver %s: give command or package", s.Name)
		}
		switch s.Type {
		case "", "standalone", "wrapper", "derived":
		case "portfolio":
			for _, t := range s.Tracks {
				if t != string(benchmark.Parallel) && t != string(benchmark.Cloud) {
					return fmt.Errorf("solver %s: a portfolio solver may enter only the parallel and cloud tracks, not %s", s.Name, t)
				}
			}
		default:
			return fmt.Errorf("solver %s: type %q: want standalone, wrapper, derived or portfolio", s.Name, s.Type)
		}
		for _, t := range s.Tracks {
			if _, err := benchmark.ParseTrack(t); err != nil {
				return fmt.Errorf("solver %s: %w", s.Name, err)
			}
		}
		if len(s.Logics) == 0 {
			return fmt.Errorf("solver %s: logics is required (names or regular expressions)", s.Name)
		}
		for _, l := range s.Logics {
			re, err := regexp.Compile("^(?:" + l + ")$")
			if err != nil {
				return fmt.Errorf("solver %s: logic pattern %q: %w", s.Name, l, err)
			}
			s.logicRE = append(s.logicRE, re)
		}
		if err := c.checkProof(s); err != nil {
			return fmt.Errorf("solver %s: %w", s.Name, err)
		}
		if s.Package != "" {
			if err := c.checkPackage(s); err != nil {
				return fmt.Errorf("solver %s: package: %w", s.Name, err)
			}
		}
	}
	return nil
}

// checkValidation checks the unsat-core track's validation settings, which
// no other track has.
func (c *Competition) checkValidation(name string, t Track) error {
	if name != string(benchmark.UnsatCore) {
		// The model-validation track has a validation limit too (the
		// model validator's time, 2022 §5.5).
		limit := t.ValidationLimit.Duration != 0 && name != string(benchmark.ModelValidation)
		if limit || t.Validators != nil || t.ValidatorsByLogic != nil || t.Decision != "" || t.ShareCores != nil {
			return fmt.Errorf("[tracks.%s]: validators, validators_by_logic, decision and share_cores are settings of the unsat-core track, validation_limit of the unsat-core and model-validation tracks", name)
		}
		return nil
	}
	if t.ValidationLimit.Duration < 0 {
		return fmt.Errorf("[tracks.%s]: validation_limit must be positive", name)
	}
	switch t.Decision {
	case "", "2018", "2026":
	default:
		return fmt.Errorf("[tracks.%s]: decision %q: want \"2018\" (refuted when more validators say sat than unsat) or \"2026\" (validated only when more say unsat than sat)", name, t.Decision)
	}
	names := append([]string(nil), t.Validators...)
	for _, vs := range t.ValidatorsByLogic {
		names = append(names, vs...)
	}
	for _, v := range names {
		found := false
		for i := range c.Solvers {
			found = found || c.Solvers[i].Name == v
		}
		if !found {
			return fmt.Errorf("[tracks.%s]: validator %q is not one of the [[solvers]]", name, v)
		}
	}
	return nil
}

// SupportsLogic reports whether the solver takes benchmarks of a logic,
// whatever the track (a validating solver of the unsat-core track).
func (s *Solver) SupportsLogic(logic string) bool {
	for _, re := range s.logicRE {
		if re.MatchString(logic) {
			return true
		}
	}
	return false
}

// checkPackage checks that a solver's package has the scripts the tracks it
// enters run: bin/starexec_run_<configuration> (every track but
// incremental) and bin/smtcomp_run_incremental.
func (c *Competition) checkPackage(s *Solver) error {
	dir := c.Path(s.Package)
	if st, err := os.Stat(dir); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory (bin/starexec_run_<configuration>, bin/smtcomp_run_incremental)", dir)
	}
	var scripts []string
	for _, t := range s.Tracks {
		tr, _ := benchmark.ParseTrack(t)
		if _, ok := c.Tracks[string(tr)]; !ok {
			continue
		}
		if tr == benchmark.Incremental {
			scripts = append(scripts, "smtcomp_run_incremental")
			continue
		}
		if tr == benchmark.Proof {
			scripts = append(scripts, "smtcomp_solver", "smtcomp_checker")
			continue
		}
		cfgs := s.Configurations
		if len(cfgs) == 0 {
			cfgs = []string{"default"}
		}
		for _, cfg := range cfgs {
			scripts = append(scripts, "starexec_run_"+cfg)
		}
	}
	for _, name := range scripts {
		p := filepath.Join(dir, "bin", name)
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if st.IsDir() || st.Mode()&0o111 == 0 {
			return fmt.Errorf("%s is not executable", p)
		}
	}
	return nil
}

// checkProof checks the proof track's commands of a solver that enters it
// (a package has scripts instead) and resolves their relative programs.
func (c *Competition) checkProof(s *Solver) error {
	for _, cmd := range [][]string{s.ProofCommand, s.CheckerCommand} {
		if len(cmd) > 0 && strings.Contains(cmd[0], "/") {
			cmd[0] = c.Path(cmd[0])
		}
	}
	if _, ok := c.Tracks[string(benchmark.Proof)]; !ok || s.Package != "" || !s.enters(benchmark.Proof) {
		return nil
	}
	if len(s.CheckerCommand) == 0 {
		return errors.New("enters the proof track: give checker_command (and proof_command if not command), or a package with bin/smtcomp_solver and bin/smtcomp_checker")
	}
	return nil
}

// enters reports whether the solver lists the track.
func (s *Solver) enters(t benchmark.Track) bool {
	for _, name := range s.Tracks {
		if tr, err := benchmark.ParseTrack(name); err == nil && tr == t {
			return true
		}
	}
	return false
}

var trailingComma = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,(\s*[\]}])`) })

// ParseDivisions reads a divisions table as SMT-COMP publishes it: per
// track key ("track_single_query", ...), either a list of logics (2019:
// one logic per division) or a map from division to logics (2021 on). It
// returns the divisions of one track.
func ParseDivisions(data []byte, track benchmark.Track) (map[string][]string, error) {
	// The published 2019 file has trailing commas, which JSON does not.
	data = trailingComma().ReplaceAll(data, []byte("$1"))
	var table map[string]json.RawMessage
	if err := json.Unmarshal(data, &table); err != nil {
		return nil, fmt.Errorf("divisions: %w", err)
	}
	key := trackKey(track)
	raw, ok := table[key]
	if !ok {
		return nil, fmt.Errorf("divisions: no %s", key)
	}
	m, err := parseTrackTable(raw)
	if err != nil {
		return nil, fmt.Errorf("divisions: %s: %w", key, err)
	}
	return m, nil
}
