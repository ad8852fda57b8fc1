package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

const good = `name = "c"
rules = 2022
library = ["lib"]
[seed]
entrants = [1, 2]
nyse = "15123.45"
[tracks.single-query]
cpu_limit = "20s"
wall_limit = 30
[[solvers]]
name = "z3"
tracks = ["single-query"]
logics = ["QF_.*IA", "QF_UF"]
command = ["z3", "{file}"]
`

func load(t *testing.T, src string) (*Competition, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(p)
}

func TestLoad(t *testing.T) {
	c, err := load(t, good)
	if err != nil {
		t.Fatal(err)
	}
	tr := c.Tracks["single-query"]
	if tr.CPULimit.Seconds() != 20 || tr.WallLimit.Seconds() != 30 || c.WorkDir != "c-work" || !strings.HasSuffix(c.Path("lib"), "/lib") {
		t.Errorf("%+v", c)
	}
	s := &c.Solvers[0]
	if !s.Supports(benchmark.SingleQuery, "QF_LIA") || !s.Supports(benchmark.SingleQuery, "QF_UF") || s.Supports(benchmark.SingleQuery, "QF_UFLRA") ||
		s.Supports(benchmark.Incremental, "QF_LIA") || !s.IsCompetitive() {
		t.Error("Supports")
	}
}

func TestLoadErrors(t *testing.T) {
	for src, want := range map[string]string{
		strings.Replace(good, "rules = 2022", "rules = 2019", 1):                       "rules = 2019: want 2006, 2014, 2018 or 2022",
		strings.Replace(good, "[tracks.single-query]", "[tracks.sprint]", 1):           "[tracks.sprint]: unknown track",
		strings.Replace(good, `command = ["z3", "{file}"]`, "", 1):                     "solver z3: give command or package",
		strings.Replace(good, `logics = ["QF_.*IA", "QF_UF"]`, `logics = ["QF_("]`, 1): "logic pattern",
		strings.Replace(good, `name = "z3"`, "name = \"z3\"\ntype = \"portfolio\"", 1): "portfolio solver may enter only",
		"bogus = 1\n" + good:      "unknown keys: bogus",
		"name = \"c\"\nrules = [": "c.toml:2:",
		strings.Replace(good, `cpu_limit = "20s"`, `cpu_limit = "soon"`, 1): "c.toml",
	} {
		if _, err := load(t, src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
}

// TestPackage checks a StarExec-style package: the scripts of the tracks
// the solver enters in this competition must be there and executable.
func TestPackage(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "pkg", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(bin, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	src := strings.Replace(good, `command = ["z3", "{file}"]`, "package = \"pkg\"\nconfigurations = [\"default\", \"fast\"]", 1)
	src = strings.Replace(src, `tracks = ["single-query"]`, `tracks = ["single-query", "incremental"]`, 1)
	p := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	write("starexec_run_default", 0o755)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "solver z3: package: ") || !strings.Contains(err.Error(), "starexec_run_fast") {
		t.Errorf("missing configuration: %v", err)
	}
	write("starexec_run_fast", 0o644)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "starexec_run_fast is not executable") {
		t.Errorf("script not executable: %v", err)
	}
	write("starexec_run_fast", 0o755)
	// The incremental track is not run, so its script is not needed.
	if _, err := Load(p); err != nil {
		t.Errorf("complete package: %v", err)
	}
	src += "[tracks.incremental]\ncpu_limit = 10\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "smtcomp_run_incremental") {
		t.Errorf("no incremental script: %v", err)
	}
	write("smtcomp_run_incremental", 0o755)
	if _, err := Load(p); err != nil {
		t.Errorf("complete package: %v", err)
	}
}

func TestParseSubmission(t *testing.T) {
	src := `{
  "name": "cvc5",
  "contributors": ["Haniel Barbosa", {"name": "Clark Barrett", "website": "x"}],
  "contacts": ["Daniel Larraz <d@x>"],
  "archive": {"url": "https://example.org/cvc5.zip", "h": {"sha256": "ce"}},
  "website": "https://cvc5.github.io/",
  "system_description": "https://example.org/cvc5.pdf",
  "command": ["bin/starexec_run_sq"],
  "solver_type": "Standalone",
  "participations": [
    {"tracks": ["SingleQuery"], "logics": "QF_.*"},
    {"tracks": ["Incremental"], "logics": ["QF_LIA"], "command": ["bin/smtcomp_run_incremental"]},
    {"tracks": ["UnsatCore"], "divisions": ["QF_Equality"]}
  ],
  "seed": 44
}`
	s, seed, err := ParseSubmission("cvc5.json", []byte(src), "/opt/cvc5")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "cvc5" || s.Team != "Haniel Barbosa, Clark Barrett" || seed != "44" || s.Type != "standalone" ||
		strings.Join(s.Command, " ") != "/opt/cvc5/bin/starexec_run_sq" ||
		strings.Join(s.IncrementalCommand, " ") != "/opt/cvc5/bin/smtcomp_run_incremental" ||
		strings.Join(s.Tracks, ",") != "incremental,single-query,unsat-core" ||
		strings.Join(s.Logics, ",") != "QF_.*,QF_AX,QF_LIA,QF_UF" {
		t.Errorf("%+v seed %s", s, seed)
	}
	out, err := SolverTOML(s, seed)
	if err != nil || !strings.Contains(out, "[[solvers]]") || !strings.Contains(out, `name = "cvc5"`) {
		t.Errorf("%v\n%s", err, out)
	}
	// The entry reads back as a definition's solver.
	def := "name = \"c\"\nrules = 2022\n[seed]\nvalue = 1\n[tracks.single-query]\ncpu_limit = 10\n" + out
	c, err := load(t, def)
	if err != nil || !c.Solvers[0].Supports(benchmark.SingleQuery, "QF_LRA") || !c.Solvers[0].Supports(benchmark.UnsatCore, "QF_AX") {
		t.Errorf("round trip: %v", err)
	}
	for bad, want := range map[string]string{
		`{"name": "x"}`: "no participations",
		`{"name": "x", "command": ["a"], "participations": [{"tracks": ["Sprint"]}]}`:                                  "unknown track",
		`{"name": "x", "command": ["a"], "participations": [{"tracks": ["SingleQuery"], "logics": 3}]}`:                "regular expression or a list",
		`{"name": "x", "command": ["a"], "seed": -1, "participations": [{"tracks": ["SingleQuery"], "logics": ".*"}]}`: "seed",
		`{"name": `: "cvc5.json",
	} {
		if _, _, err := ParseSubmission("cvc5.json", []byte(bad), ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want %q, got %v", bad, want, err)
		}
	}
}

// TestValidationSettings: the unsat-core track's validation settings are
// read, checked, and refused on other tracks.
func TestValidationSettings(t *testing.T) {
	uc := good + `[tracks.unsat-core]
wall_limit = 30
validation_limit = "120s"
validators = ["z3"]
decision = "2026"
share_cores = false
`
	c, err := load(t, uc)
	if err != nil {
		t.Fatal(err)
	}
	tr := c.Tracks["unsat-core"]
	if tr.ValidationLimit.Seconds() != 120 || len(tr.Validators) != 1 || tr.Decision != "2026" || tr.ShareCores == nil || *tr.ShareCores {
		t.Errorf("%+v", tr)
	}
	if !c.Solvers[0].SupportsLogic("QF_UF") || c.Solvers[0].SupportsLogic("QF_BV") {
		t.Error("SupportsLogic")
	}
	for src, want := range map[string]string{
		strings.Replace(uc, `decision = "2026"`, `decision = "majority"`, 1):                                 `decision "majority": want "2018"`,
		strings.Replace(uc, `validators = ["z3"]`, `validators = ["yices"]`, 1):                              `validator "yices" is not one of the [[solvers]]`,
		strings.Replace(uc, `validators = ["z3"]`, `validators_by_logic = { QF_BV = ["z3", "mathsat"] }`, 1): `validator "mathsat" is not one of the [[solvers]]`,
		strings.Replace(uc, `validation_limit = "120s"`, `validation_limit = -1`, 1):                         "validation_limit must be positive",
		strings.Replace(good, `wall_limit = 30`, "wall_limit = 30\ndecision = \"2018\"", 1):                  "settings of the unsat-core track",
	} {
		if _, err := load(t, src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
}
