package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// coreBenchmarks are shared unsat benchmarks with several assertions that
// z3, cvc4 and cvc5 solve in well under a second.
var coreBenchmarks = []string{
	"QF_LRA/opensmt-base/distinct_unsat.smt2",
	"QF_UFLIA/cvc5-regress0-arith-integers/ackermann1.smt2",
	"QF_LIRA/yices2-mcsat-lia/lira_00.smt2",
	"QF_AUFLIA/fusion-seeds/smt3580158146100843999.smt2",
	"QF_BV/fusion-seeds/commute04.sf.smt2",
	"QF_LIA/20220307-SMPT/SmallOperatingSystem-PT-MT0064DC0032__RF-10.smt2",
}

// coreLibrary copies the shared benchmarks named into dir as a library.
func coreLibrary(t *testing.T, dir string, names []string) {
	t.Helper()
	src := filepath.Join(testenv.Shared(t, "benchmarks"), "non-incremental")
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, "non-incremental", n)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func needSolvers(t *testing.T, names ...string) {
	t.Helper()
	for _, s := range names {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
}

// Wrappers of z3 that spoil its core: drop takes a minimal core and drops
// its first name (every proper subset of a minimal core is satisfiable);
// dup repeats the core's first name and adds a name no assertion has.
const (
	dropWrapper = `out=$(z3 smt.core.minimize=true "$1"); printf '%s\n' "$out" | head -n 1; printf '%s\n' "$out" | sed -n 2p | sed -E 's/^\( *[^ )]+ */(/'`
	dupWrapper  = `out=$(z3 "$1"); printf '%s\n' "$out" | head -n 1; printf '%s\n' "$out" | sed -n 2p | sed -E 's/^\(([^ )]+)/(\1 \1 bogus/'`
)

// coreCompetition writes a competition with the single-query track (whose
// sound solvers validate) and the unsat-core track: z3 and cvc5 enter
// both, cvc4 only the single-query track (and liar, always sat), and the
// two z3 wrappers only the unsat-core track (not competitive).
func coreCompetition(t *testing.T, dir, extra string) string {
	t.Helper()
	def := filepath.Join(dir, "c.toml")
	// lint = "warn": one of the shared unsat benchmarks taken breaks the
	// single-query input rules, and the counts below include it.
	err := os.WriteFile(def, []byte(`name = "cores"
rules = 2022
lint = "warn"
library = ["lib"]
[seed]
value = 11
[tracks.single-query]
wall_limit = "20s"
memory_mb = 2048
[tracks.unsat-core]
wall_limit = "20s"
memory_mb = 2048
validation_limit = "20s"
`+extra+`
[[solvers]]
name = "z3"
tracks = ["single-query", "unsat-core"]
logics = ["QF_.*"]
command = ["z3", "{file}"]
[[solvers]]
name = "cvc5"
tracks = ["single-query", "unsat-core"]
logics = ["QF_.*"]
command = ["cvc5", "{file}"]
[[solvers]]
name = "cvc4"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["cvc4", "{file}"]
[[solvers]]
# wrong on every unsat benchmark: not sound, so it validates nothing
name = "liar"
competitive = false
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["sh", "-c", "echo sat", "liar", "{file}"]
[[solvers]]
name = "drop"
competitive = false
tracks = ["unsat-core"]
logics = ["QF_.*"]
command = ["sh", "-c", `+tomlString(dropWrapper)+`, "drop", "{file}"]
[[solvers]]
name = "dup"
competitive = false
tracks = ["unsat-core"]
logics = ["QF_.*"]
command = ["sh", "-c", `+tomlString(dupWrapper)+`, "dup", "{file}"]
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestCompeteUnsatCore runs the unsat-core track end to end with real
// solvers on shared unsat benchmarks: z3's and cvc5's cores are validated
// by the sound single-query solvers (z3, cvc5, cvc4), identical cores
// once; a core with a needed assertion dropped is refuted; a core with a
// repeated and an invented name is reported, ill-formed by the rules and
// counted by the official reading.
func TestCompeteUnsatCore(t *testing.T) {
	needRootForRuns(t)
	needSolvers(t, "z3", "cvc5", "cvc4")
	dir := t.TempDir()
	coreLibrary(t, filepath.Join(dir, "lib"), coreBenchmarks)
	def := coreCompetition(t, dir, "")
	code, out, errs := runCLI(t, "", "compete", "--quiet", def)
	if code != 0 {
		t.Fatalf("compete: %d\n%s\n%s", code, out, errs)
	}
	t.Log(out)
	cdef, err := config.Load(def)
	if err != nil {
		t.Fatal(err)
	}
	st := openCompeteStore(t, def)
	ctx := context.Background()
	all, err := compete.Summaries(ctx, cdef, st)
	if err != nil {
		t.Fatal(err)
	}
	liarWrong := 0
	for _, s := range all {
		if s.Solver == "liar" {
			liarWrong += s.Wrong
		}
	}
	if liarWrong != len(coreBenchmarks) {
		t.Errorf("liar: %d wrong single-query answers, want %d", liarWrong, len(coreBenchmarks))
	}
	sums, err := compete.CoreSummaries(ctx, cdef, st)
	if err != nil {
		t.Fatal(err)
	}
	total := map[string]compete.CoreSummary{}
	for _, s := range sums {
		x := total[s.Solver]
		x.Pairs += s.Pairs
		x.Unsat += s.Unsat
		x.Validated += s.Validated
		x.Refuted += s.Refuted
		x.Pending += s.Pending
		x.IllFormed += s.IllFormed
		x.Reported += s.Reported
		x.Reduction += s.Reduction
		total[s.Solver] = x
	}
	n := len(coreBenchmarks)
	for _, s := range []string{"z3", "cvc5"} {
		if x := total[s]; x.Pairs != n || x.Unsat != n || x.Validated != n || x.Refuted != 0 || x.Pending != 0 {
			t.Errorf("%s: %+v, want all %d cores validated", s, x, n)
		}
	}
	if x := total["drop"]; x.Unsat != n || x.Refuted != n {
		t.Errorf("drop: %+v, want all %d cores refuted", x, n)
	}
	if x := total["dup"]; x.Unsat != n || x.Reported != n || x.IllFormed != n || x.Reduction != 0 {
		t.Errorf("dup: %+v, want all %d cores reported and ill-formed", x, n)
	}
	// Identical cores were validated once: fewer cores than core answers.
	cores, err := st.Cores(ctx, compete.ValidationKey("cores"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cores) >= 4*n || len(cores) < n {
		t.Errorf("%d distinct cores of %d answers", len(cores), 4*n)
	}
	for _, c := range cores {
		var d compete.CoreDetail
		if err := json.Unmarshal([]byte(c.Detail), &d); err != nil || len(d.Runs) != 3 || c.Verdict == "" {
			t.Errorf("core %s: verdict %q, detail %s", c.Hash, c.Verdict, c.Detail)
		}
		for _, r := range d.Runs {
			if r.Validator == "liar" {
				t.Errorf("core %s validated by a solver with wrong single-query answers", c.Hash)
			}
		}
	}
	for _, want := range []string{"unsat-core track, division", "validation runs"} {
		if !strings.Contains(out, want) {
			t.Errorf("compete output lacks %q", want)
		}
	}
	// Scored by the rules and by the official reading: dup's cores score
	// nothing by the rules (ill-formed), their size by the official one.
	_, rules, errs := runCLI(t, "", "score", "--config", def, "--track", "unsat-core", "--format", "csv")
	_, official, errs2 := runCLI(t, "", "score", "--config", def, "--track", "unsat-core", "--format", "csv", "--compat", "official")
	t.Logf("rules:\n%s\n%s\nofficial:\n%s\n%s", rules, errs, official, errs2)
	if rules == "" || official == "" || rules == official {
		t.Errorf("the two readings score the same")
	}
}

// TestValidateCoreCLI: validate-core on z3's and cvc5's cores of shared
// unsat benchmarks, each validated by the other solvers; a core with a
// needed assertion dropped is refuted; a repeated and an invented name are
// reported, ill-formed by the rules and counted by --compat official.
func TestValidateCoreCLI(t *testing.T) {
	needRootForRuns(t)
	needSolvers(t, "z3", "cvc5", "cvc4")
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	coreLibrary(t, lib, coreBenchmarks[:3])
	for _, b := range coreBenchmarks[:3] {
		named := filepath.Join(dir, filepath.Base(b))
		code, out, errs := runCLI(t, "", "scramble", "--track", "unsat-core", "--seed", "3", filepath.Join(lib, "non-incremental", b))
		if code != 0 {
			t.Fatalf("scramble: %s", errs)
		}
		os.WriteFile(named, []byte(out), 0o644)
		for _, solver := range [][]string{{"z3"}, {"cvc5"}} {
			ans, err := exec.Command(solver[0], named).Output()
			if err != nil {
				t.Fatalf("%s: %v", solver[0], err)
			}
			resp := named + "." + solver[0]
			os.WriteFile(resp, ans, 0o644)
			others := []string{"--", "cvc4", "--lang", "smt2"}
			if solver[0] == "z3" {
				others = append(others, "--", "cvc5")
			} else {
				others = append(others, "--", "z3")
			}
			code, out, errs := runCLI(t, "", append([]string{"validate-core", "--limit", "20", named, resp}, others...)...)
			if code != 0 || !strings.Contains(out, "verdict: validated (2 unsat, 0 sat, 0 other; rule 2018)") {
				t.Errorf("%s's core of %s: %d\n%s%s", solver[0], b, code, out, errs)
			}
		}
		// A minimal core less its first name is satisfiable.
		dropped, err := exec.Command("sh", "-c", dropWrapper, "drop", named).Output()
		if err != nil {
			t.Fatal(err)
		}
		resp := named + ".drop"
		os.WriteFile(resp, dropped, 0o644)
		code, out, _ = runCLI(t, "", "validate-core", "--limit", "20", named, resp, "--", "z3", "--", "cvc5")
		if code != 1 || !strings.Contains(out, "verdict: refuted (0 unsat, 2 sat") || !strings.Contains(out, "score: erroneous") {
			t.Errorf("dropped core of %s: %d\n%s", b, code, out)
		}
		dup, err := exec.Command("sh", "-c", dupWrapper, "dup", named).Output()
		if err != nil {
			t.Fatal(err)
		}
		resp = named + ".dup"
		os.WriteFile(resp, dup, 0o644)
		code, out, _ = runCLI(t, "", "validate-core", "--limit", "20", named, resp, "--", "z3")
		if code != 1 || !strings.Contains(out, "reported: names given more than once") || !strings.Contains(out, "reported: names that are no assertion's: bogus") ||
			!strings.Contains(out, "score: ill-formed core") {
			t.Errorf("dup core of %s by the rules: %d\n%s", b, code, out)
		}
		code, out, _ = runCLI(t, "", "validate-core", "--limit", "20", "--compat", "official", named, resp, "--", "z3")
		if code != 0 || !strings.Contains(out, "verdict: validated") || !strings.Contains(out, "score: reduction") {
			t.Errorf("dup core of %s, official reading: %d\n%s", b, code, out)
		}
	}
	// The report as JSON, the validation file kept.
	b := coreBenchmarks[0]
	named := filepath.Join(dir, filepath.Base(b))
	keep := filepath.Join(dir, "validation.smt2")
	code, out, errs := runCLI(t, "", "validate-core", "--json", "--out", keep, "--rule", "2026", named, named+".z3", "--", "cvc5")
	var rep struct {
		Judgement struct {
			Answer string   `json:"answer"`
			Core   []string `json:"core"`
		}
		Runs    []struct{ Validator, Answer string }
		Verdict struct {
			Rule      string
			Validated bool
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Judgement.Answer != "unsat" || len(rep.Judgement.Core) == 0 ||
		len(rep.Runs) != 1 || rep.Runs[0].Validator != "cvc5" || rep.Verdict.Rule != "2026" || !rep.Verdict.Validated {
		t.Errorf("--json: %d %v\n%s%s", code, err, out, errs)
	}
	if data, err := os.ReadFile(keep); err != nil || !strings.HasPrefix(string(data), ";; parsed ") {
		t.Errorf("--out: %v %.40q", err, data)
	}
	// A validator that cannot be started says why.
	code, out, _ = runCLI(t, "", "validate-core", named, named+".z3", "--", "no-such-validator")
	if code != 0 || !strings.Contains(out, "validator no-such-validator: unknown (error, ") || !strings.Contains(out, `"no-such-validator": executable file not found`) {
		t.Errorf("a validator that cannot start: %d\n%s", code, out)
	}
	// Usage errors name the problem.
	for _, args := range [][]string{
		{"validate-core", "a", "b"},
		{"validate-core", "a", "b", "--", "z3", "--", "--", "cvc5"},
		{"validate-core", "--rule", "2030", "a", "b", "--", "z3"},
		{"validate-core", "no-such.smt2", "b", "--", "z3"},
	} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// TestCompeteResumeValidation kills compete with SIGKILL again and again,
// also while it runs validation pairs, then lets it finish: every solver
// pair and every validation pair is recorded exactly once, and every core
// has its verdict.
func TestCompeteResumeValidation(t *testing.T) {
	needRootForRuns(t)
	if testing.Short() {
		t.Skip("hundreds of pairs")
	}
	dir := t.TempDir()
	d := filepath.Join(dir, "lib", "non-incremental", "QF_LIA", "tiny")
	os.MkdirAll(d, 0o755)
	const n = 60
	for i := 0; i < n; i++ {
		// Scrambling renames the symbols: the constants keep the files
		// (and so the cores' validation files) apart.
		src := fmt.Sprintf("(set-logic QF_LIA)\n(set-info :status unsat)\n(declare-fun x () Int)\n(declare-fun p () Bool)\n(assert (> x %d))\n(assert (< x %d))\n(assert p)\n(check-sat)\n", i, i)
		os.WriteFile(filepath.Join(d, fmt.Sprintf("b%03d.smt2", i)), []byte(src), 0o644)
	}
	// a gives every name as its core, b the first two: two distinct cores
	// per benchmark, each checked by three validators.
	core := `echo unsat; printf '('; sed -n 's/.*:named \([^ )]*\)).*/\1/p' "$1" | head -n %d | tr '\n' ' '; echo ')'`
	def := filepath.Join(dir, "c.toml")
	os.WriteFile(def, []byte(`name = "resume"
rules = 2018
library = ["lib"]
[seed]
value = 3
[tracks.unsat-core]
wall_limit = "10s"
validation_limit = "10s"
validators = ["v1", "v2", "v3"]
[[solvers]]
name = "a"
tracks = ["unsat-core"]
logics = ["QF_LIA"]
command = ["sh", "-c", `+tomlString(fmt.Sprintf(core, 3))+`, "a", "{file}"]
[[solvers]]
name = "b"
tracks = ["unsat-core"]
logics = ["QF_LIA"]
command = ["sh", "-c", `+tomlString(fmt.Sprintf(core, 2))+`, "b", "{file}"]
[[solvers]]
name = "v1"
logics = ["QF_LIA"]
command = ["sh", "-c", "sleep 0.05; echo unsat", "v", "{file}"]
[[solvers]]
name = "v2"
logics = ["QF_LIA"]
command = ["sh", "-c", "sleep 0.05; echo unsat", "v", "{file}"]
[[solvers]]
name = "v3"
logics = ["QF_LIA"]
command = ["sh", "-c", "sleep 0.05; echo sat", "v", "{file}"]
`), 0o644)
	exe, _ := os.Executable()
	ctx := context.Background()
	duringValidation := 0
	for cycle := 0; cycle < 60 && duringValidation < 5; cycle++ {
		killCompeteAfter(t, exe, def, time.Duration(250+cycle*53%400)*time.Millisecond)
		st, err := store.Open(ctx, filepath.Join(dir, "resume-work", "smtarena.db"))
		if err != nil {
			continue // killed before the store existed
		}
		counts, _ := st.PairCounts(ctx, compete.ValidationKey("resume"))
		st.Close()
		m := counts[compete.ValidationTrack]
		if m[store.PairDone] > 0 && m[store.PairPending]+m[store.PairRunning] > 0 {
			duringValidation++
		}
	}
	if duringValidation == 0 {
		t.Error("no kill landed during the validation runs")
	}
	code, out, errs := runCLI(t, "", "compete", "--quiet", def)
	if code != 0 {
		t.Fatalf("final run: %d %s %s", code, out, errs)
	}
	st := openCompeteStore(t, def)
	for track, want := range map[string]int{"unsat-core": 2 * n, compete.ValidationTrack: 3 * 2 * n} {
		rs, err := st.Results(ctx, store.ResultFilter{Track: track})
		if err != nil {
			t.Fatal(err)
		}
		keys := map[string]bool{}
		for _, r := range rs {
			keys[r.SourceKey] = true
		}
		if len(rs) != want || len(keys) != want {
			t.Errorf("%s: %d results for %d distinct pairs, want %d each", track, len(rs), len(keys), want)
		}
	}
	cores, err := st.Cores(ctx, compete.ValidationKey("resume"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cores) != 2*n {
		t.Errorf("%d cores, want %d", len(cores), 2*n)
	}
	for _, c := range cores {
		if c.Verdict != "validated" {
			t.Errorf("core %d: verdict %q (%s)", c.ID, c.Verdict, c.Detail)
		}
	}
	t.Logf("%d kills landed during validation runs", duringValidation)
}

// TestCompeteDecisionRule: validators that tie (one sat, one unsat, one
// timing out) leave a core standing under the 2018 rule and refute it
// under the 2026 rule, and the scores follow.
func TestCompeteDecisionRule(t *testing.T) {
	needRootForRuns(t)
	for _, rule := range []string{"2018", "2026"} {
		dir := t.TempDir()
		writeLibrary(t, filepath.Join(dir, "lib"), 4)
		def := filepath.Join(dir, "c.toml")
		os.WriteFile(def, []byte(`name = "rule"
rules = 2018
library = ["lib"]
[seed]
value = 3
[tracks.unsat-core]
wall_limit = "10s"
validation_limit = "1s"
validators = ["yes", "no", "slow"]
decision = "`+rule+`"
[[solvers]]
name = "a"
tracks = ["unsat-core"]
logics = ["QF_UF"]
command = ["sh", "-c", "echo unsat; echo '()'", "a", "{file}"]
[[solvers]]
name = "yes"
logics = ["QF_UF"]
command = ["sh", "-c", "echo unsat", "v", "{file}"]
[[solvers]]
name = "no"
logics = ["QF_UF"]
command = ["sh", "-c", "echo sat", "v", "{file}"]
[[solvers]]
name = "slow"
logics = ["QF_UF"]
command = ["sh", "-c", "sleep 5", "v", "{file}"]
`), 0o644)
		code, out, errs := runCLI(t, "", "compete", "--quiet", def)
		if code != 0 {
			t.Fatalf("compete: %d\n%s\n%s", code, out, errs)
		}
		st := openCompeteStore(t, def)
		cores, err := st.Cores(context.Background(), compete.ValidationKey("rule"))
		if err != nil || len(cores) == 0 {
			t.Fatalf("cores: %v %d", err, len(cores))
		}
		want := map[string]string{"2018": "validated", "2026": "refuted"}[rule]
		for _, c := range cores {
			var d compete.CoreDetail
			json.Unmarshal([]byte(c.Detail), &d)
			if c.Verdict != want || d.Sat != 1 || d.Unsat != 1 || d.Other != 1 || string(d.Rule) != rule {
				t.Errorf("rule %s: core %s %s", rule, c.Verdict, c.Detail)
			}
		}
		_, csv, errs := runCLI(t, "", "score", "--config", def, "--track", "unsat-core", "--format", "csv")
		wantErr := map[string]string{"2018": ",0,", "2026": ",2,"}[rule] // the error column of a's line
		if !strings.Contains(csv, ",a,yes,") || !regexp.MustCompile(`,a,yes,(true|false)`+wantErr).MatchString(csv) {
			t.Errorf("rule %s: score\n%s\n%s", rule, csv, errs)
		}
	}
}

// TestCompeteValidatorsByLogic: a logic's own list of validators is taken
// over the track's list.
func TestCompeteValidatorsByLogic(t *testing.T) {
	needRootForRuns(t)
	dir := t.TempDir()
	writeLibrary(t, filepath.Join(dir, "lib"), 4)
	def := filepath.Join(dir, "c.toml")
	os.WriteFile(def, []byte(`name = "bylogic"
rules = 2018
library = ["lib"]
[seed]
value = 3
[tracks.unsat-core]
wall_limit = "10s"
validation_limit = "5s"
validators = ["no"]
validators_by_logic = { QF_UF = ["yes"] }
[[solvers]]
name = "a"
tracks = ["unsat-core"]
logics = ["QF_UF"]
command = ["sh", "-c", "echo unsat; echo '()'", "a", "{file}"]
[[solvers]]
name = "yes"
logics = ["QF_UF"]
command = ["sh", "-c", "echo unsat", "v", "{file}"]
[[solvers]]
name = "no"
logics = ["QF_UF"]
command = ["sh", "-c", "echo sat", "v", "{file}"]
`), 0o644)
	if code, out, errs := runCLI(t, "", "compete", "--quiet", def); code != 0 {
		t.Fatalf("compete: %d\n%s\n%s", code, out, errs)
	}
	cores, err := openCompeteStore(t, def).Cores(context.Background(), compete.ValidationKey("bylogic"))
	if err != nil || len(cores) == 0 {
		t.Fatalf("cores: %v %d", err, len(cores))
	}
	for _, c := range cores {
		var d compete.CoreDetail
		json.Unmarshal([]byte(c.Detail), &d)
		if c.Verdict != "validated" || len(d.Runs) != 1 || d.Runs[0].Validator != "yes" {
			t.Errorf("core %s: %s %s", c.Hash, c.Verdict, c.Detail)
		}
	}
}
