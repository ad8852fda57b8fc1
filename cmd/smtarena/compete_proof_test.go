package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// TestCompeteProof runs the proof exhibition track on the shared QF_UF
// benchmarks: z3 (commands in the competition file) and cvc5 (a package
// with bin/smtcomp_solver and bin/smtcomp_checker) give proofs, which the
// test checker (examples/proof-checker.sh) confirms with the other solver,
// checks to be one s-expression and calls holey with steps=N; a third
// entrant's checker says valid to everything, and the soundness probe on
// two satisfiable benchmarks flags it.
func TestCompeteProof(t *testing.T) {
	needRootForRuns(t)
	bench := testenv.Shared(t, "benchmarks")
	for _, s := range []string{"z3", "cvc5"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
	// The shared QF_UF benchmarks but the sidekick family, whose proofs
	// take megabytes and seconds.
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	src := filepath.Join(bench, "non-incremental", "QF_UF")
	fams, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range fams {
		if fam.Name() == "sidekick" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(src, fam.Name(), "*.smt2"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			to := filepath.Join(lib, "non-incremental", "QF_UF", fam.Name(), filepath.Base(f))
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(to, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	checker := filepath.Join(testenv.Root(), "examples", "proof-checker.sh")
	pkg := filepath.Join(dir, "cvc5-package", "bin")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"smtcomp_solver":  "#!/bin/sh\nexec cvc5 \"$1\"\n",
		"smtcomp_checker": fmt.Sprintf("#!/bin/sh\nexec %s \"$1\" \"$2\" z3\n", checker),
	} {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	def := filepath.Join(dir, "proof.toml")
	os.WriteFile(def, []byte(fmt.Sprintf(`name = "proof"
rules = 2022
library = [%q]
workdir = "work"
[seed]
value = 5
[tracks.proof]
cpu_limit = "10s"
wall_limit = "20s"
memory_mb = 2048
logics = ["QF_UF"]
probe = 2
[[solvers]]
name = "z3"
team = "Microsoft Research"
tracks = ["proof"]
logics = ["QF_.*"]
command = ["z3", "{file}"]
checker_command = [%q, "{file}", "{output}", "cvc5"]
[[solvers]]
name = "cvc5"
team = "Stanford and Iowa"
tracks = ["proof"]
logics = ["QF_.*"]
package = "cvc5-package"
[[solvers]]
name = "z3-yes"
team = "Yes-men"
tracks = ["proof"]
logics = ["QF_.*"]
proof_command = ["z3", "{file}"]
command = ["false"]
checker_command = ["sh", "-c", "echo valid; echo steps=1"]
`, lib, checker)), 0o644)
	code, out, errs := runCLI(t, "", "compete", "--quiet", def)
	if code != 0 {
		t.Fatalf("compete: %d\n%s\n%s", code, out, errs)
	}
	t.Logf("\n%s", out)
	rs, err := openCompeteStore(t, def).Results(context.Background(), store.ResultFilter{Track: "proof"})
	if err != nil {
		t.Fatal(err)
	}
	type extra struct {
		Verdict    string      `json:"verdict"`
		Wrong      bool        `json:"wrong"`
		Probe      bool        `json:"probe"`
		Unsound    bool        `json:"unsound_checker"`
		Stats      [][2]string `json:"stats"`
		ProofFile  string      `json:"proof_file"`
		ProofBytes int64       `json:"proof_bytes"`
		Answer     string      `json:"solver_answer"`
	}
	holey := map[string]int{}
	probes, pairs := map[string]int{}, map[string]int{}
	for _, r := range rs {
		var x extra
		if err := json.Unmarshal([]byte(r.Extra), &x); err != nil {
			t.Fatal(err)
		}
		if x.Probe {
			probes[r.Solver]++
			if r.Expected != "sat" || x.Unsound != (r.Solver == "z3-yes") {
				t.Errorf("probe %s on %s: expected %s, checker said %q, unsound %v", r.Solver, r.BenchmarkPath, r.Expected, x.Verdict, x.Unsound)
			}
			continue
		}
		pairs[r.Solver]++
		if x.Wrong {
			t.Errorf("%s on %s: erroneous (%s)", r.Solver, r.BenchmarkPath, r.Extra)
		}
		if r.Solver == "z3-yes" {
			continue
		}
		if x.Verdict == "holey" {
			holey[r.Solver]++
			steps := 0
			for _, kv := range x.Stats {
				if kv[0] == "steps" {
					steps, _ = strconv.Atoi(kv[1])
				}
			}
			if steps < 1 || x.Answer != "unsat" || r.Answer != "unsat" || x.ProofBytes < 20 {
				t.Errorf("%s on %s: steps %d, answer %q/%q, proof of %d bytes", r.Solver, r.BenchmarkPath, steps, x.Answer, r.Answer, x.ProofBytes)
			}
			if st, err := os.Stat(x.ProofFile); err != nil || st.Size() == 0 {
				t.Errorf("%s on %s: proof not kept: %v", r.Solver, r.BenchmarkPath, err)
			}
		}
	}
	// Nine unsat QF_UF benchmarks outside sidekick pass lint; each proof
	// takes milliseconds.
	for _, s := range []string{"z3", "cvc5"} {
		if holey[s] < 8 || holey[s] != pairs[s] {
			t.Errorf("%s: %d of %d proofs called holey, want all, at least 8", s, holey[s], pairs[s])
		}
	}
	for _, s := range []string{"z3", "cvc5", "z3-yes"} {
		if probes[s] != 2 {
			t.Errorf("%s: %d probe pairs, want 2", s, probes[s])
		}
	}
	// The table: a column per statistic, the probe's verdict per checker.
	for _, want := range []string{"proof track (exhibition, no score), division QF_Equality", "steps", "erroneous",
		"2/2 valid      UNSOUND", "0/2 valid  not flagged"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	row := fmt.Sprintf(`(?m)^\s+z3\s+%d\s+0\s+%d\s+0\s+0\s`, pairs["z3"], holey["z3"])
	if !regexp.MustCompile(row).MatchString(out) {
		t.Errorf("z3's row: want %d pairs, no valid, %d holey, no invalid, no sat", pairs["z3"], holey["z3"])
	}
}

// TestCompeteProofResume kills compete with SIGKILL during proof pairs
// (solver and checker runs), then lets it finish: every pair is recorded
// exactly once, and every kept proof is whole.
func TestCompeteProofResume(t *testing.T) {
	needRootForRuns(t)
	if testing.Short() {
		t.Skip("kills and resumes a run")
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib", "non-incremental", "QF_UF", "tiny")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		src := fmt.Sprintf("(set-info :smt-lib-version 2.6)\n(set-logic QF_UF)\n(set-info :status unsat)\n(declare-fun p%d () Bool)\n(assert (and p%d (not p%d)))\n(check-sat)\n(exit)\n", i, i, i)
		if err := os.WriteFile(filepath.Join(lib, fmt.Sprintf("u%03d.smt2", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The solver writes a proof of 100 KiB (kept compressed); the checker
	// counts its lines.
	solver := func(name string) string {
		return fmt.Sprintf(`[[solvers]]
name = %q
tracks = ["proof"]
logics = ["QF_UF"]
command = ["sh", "-c", "echo unsat; echo '('; i=0; while [ $i -lt 4000 ]; do echo ' (step 1234567890123)'; i=$((i+1)); done; echo ')'", "s", "{file}"]
checker_command = ["sh", "-c", "echo holey; echo lines=$(wc -l < \"$2\")", "c", "{file}", "{output}"]
`, name)
	}
	def := filepath.Join(dir, "c.toml")
	os.WriteFile(def, []byte(`name = "proofresume"
rules = 2022
library = ["lib"]
workdir = "work"
[seed]
value = 3
[tracks.proof]
wall_limit = "10s"
`+solver("a")+solver("b")), 0o644)
	exe, _ := os.Executable()
	for cycle := 0; cycle < 6; cycle++ {
		killCompeteAfter(t, exe, def, time.Duration(300+cycle*97%300)*time.Millisecond)
	}
	st := openCompeteStore(t, def)
	before, err := st.Results(context.Background(), store.ResultFilter{Track: "proof"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of 80 pairs recorded before the last run", len(before))
	code, out, errs := runCLI(t, "", "compete", "--quiet", def)
	if code != 0 {
		t.Fatalf("final run: %d %s %s", code, out, errs)
	}
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "proof"})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, r := range rs {
		keys[r.SourceKey] = true
		var x struct {
			Verdict    string      `json:"verdict"`
			Stats      [][2]string `json:"stats"`
			ProofFile  string      `json:"proof_file"`
			Compressed bool        `json:"proof_compressed"`
		}
		json.Unmarshal([]byte(r.Extra), &x)
		if x.Verdict != "holey" || len(x.Stats) != 1 || x.Stats[0] != [2]string{"lines", "4003"} || !x.Compressed {
			t.Errorf("%s on %s: %s", r.Solver, r.BenchmarkPath, r.Extra)
			continue
		}
		if _, err := os.Stat(x.ProofFile); err != nil {
			t.Errorf("proof of %s on %s: %v", r.Solver, r.BenchmarkPath, err)
		}
	}
	if len(rs) != 80 || len(keys) != 80 {
		t.Errorf("%d results for %d distinct pairs, want 80 each", len(rs), len(keys))
	}
}
