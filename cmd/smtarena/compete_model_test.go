package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestCompeteModelValidation runs the model-validation track with z3 and a
// solver whose models are wrong: every pair's output is validated in the
// sandbox by `smtarena validate-model`, the tables show the verdicts, the
// score counts INVALID as an error, and show-model prints a pair again.
func TestCompeteModelValidation(t *testing.T) {
	needRootForRuns(t)
	if _, err := exec.LookPath("z3"); err != nil {
		testenv.Skipf(t, "needs z3: %v", err)
	}
	// The validator runs as this test binary re-executed as smtarena
	// (modelValidatorCommand sets SMTARENA_TEST_MAIN for it).
	dir := t.TempDir()
	d := filepath.Join(dir, "lib", "non-incremental", "QF_LIA", "tiny")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		src := fmt.Sprintf("(set-info :smt-lib-version 2.6)\n(set-logic QF_LIA)\n(set-info :status sat)\n(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (> x %d))\n(assert (= (+ x y) 100))\n(check-sat)\n(exit)\n", i)
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("b%d.smt2", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A sat QF_ABV benchmark: arrays are not in the 2022 track (§6).
	da := filepath.Join(dir, "lib", "non-incremental", "QF_ABV", "tiny")
	os.MkdirAll(da, 0o755)
	os.WriteFile(filepath.Join(da, "a.smt2"), []byte("(set-info :smt-lib-version 2.6)\n(set-logic QF_ABV)\n(set-info :status sat)\n(declare-fun a () (Array (_ BitVec 4) (_ BitVec 4)))\n(assert (= (select a #x0) #x1))\n(check-sat)\n(exit)\n"), 0o644)
	def := filepath.Join(dir, "c.toml")
	os.WriteFile(def, []byte(`name = "mv"
rules = 2022
library = ["lib"]
[seed]
value = 3
[tracks.model-validation]
cpu_limit = "10s"
wall_limit = "20s"
memory_mb = 1024
validation_limit = "30s"
[[solvers]]
name = "z3"
tracks = ["model-validation"]
logics = ["QF_.*"]
command = ["z3", "{file}"]
[[solvers]]
name = "liar"
tracks = ["model-validation"]
logics = ["QF_.*"]
# A model of the (scrambled) declared names, every value 0: (= (+ x y) 100) is false.
command = ["sh", "-c", "printf 'sat\\n('; for v in $(sed -n 's/^(declare-fun \\([^ ]*\\) () Int)$/\\1/p' \"$1\"); do printf '(define-fun %s () Int 0)' $v; done; printf '%70000s)\\n' ''", "liar", "{file}"]
`), 0o644)
	code, out, errs := runCLI(t, "", "compete", "--quiet", def)
	if code != 0 {
		t.Fatalf("compete: %d\n%s\n%s", code, out, errs)
	}
	if strings.Contains(out, "QF_ABV") {
		t.Errorf("a QF_ABV benchmark was run in the 2022 model-validation track:\n%s", out)
	}
	for _, want := range []string{"8 pairs planned", "model-validation verdicts, division QF_LinearIntArith", "z3      4      VALID: 4", "liar    4      INVALID bad-model: 4"} {
		if !strings.Contains(out, want) {
			t.Errorf("compete output lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = runCLI(t, "", "score", "--config", def, "--track", "model-validation", "--format", "csv")
	if code != 0 || !regexp.MustCompile(`QF_LinearIntArith,,parallel,1,z3,yes,(true|false),0,4,`).MatchString(out) ||
		!regexp.MustCompile(`QF_LinearIntArith,,parallel,2,liar,yes,(true|false),4,0,`).MatchString(out) {
		t.Errorf("score: %d %s\n%s", code, errs, out)
	}
	// score shows the verdicts and reasons per division and solver
	code, out, errs = runCLI(t, "", "score", "--config", def, "--track", "model-validation")
	if code != 0 || !regexp.MustCompile(`z3\s+4\s+4\s+0\s+0\s+VALID: 4`).MatchString(out) ||
		!regexp.MustCompile(`liar\s+4\s+0\s+4\s+0\s+INVALID bad-model: 4`).MatchString(out) {
		t.Errorf("score table lacks the verdicts: %d %s\n%s", code, errs, out)
	}
	// Every pair's output is kept once, the liar's (over 64 KiB) gzipped,
	// and show-model prints it whole.
	kept, _ := filepath.Glob(filepath.Join(dir, "mv-work", "outputs", "model-validation", "*"))
	gz := 0
	for _, k := range kept {
		if strings.HasSuffix(k, ".gz") {
			gz++
		}
	}
	if len(kept) != 8 || gz != 4 {
		t.Errorf("kept outputs: %d files, %d gzipped; want 8 and 4: %v", len(kept), gz, kept)
	}
	for id := 1; id <= 8; id++ {
		code, out, errs = runCLI(t, "", "show-model", def, strconv.Itoa(id))
		if code != 0 || !strings.Contains(out, "verdict ") || !strings.Contains(out, "--- output") || !strings.Contains(out, "define-fun x") {
			t.Errorf("show-model %d: %d %s\n%.300s", id, code, errs, out)
		}
		if strings.Contains(out, "INVALID") && !strings.Contains(out, strings.Repeat(" ", 70000)+")") {
			t.Errorf("show-model %d: the liar's output is not whole", id)
		}
	}
	if code, out, _ := runCLI(t, "", "show-model", def, "1"); code != 0 || !regexp.MustCompile(`(?m)^verdict (VALID|INVALID bad-model) \(`).MatchString(out) {
		t.Errorf("show-model 1: the verdict line: %d\n%.300s", code, out)
	}
	// A pair of another track is not this one's: the message says where
	// the track's pairs are.
	if code, _, errs := runCLI(t, "", "show-model", def, "999"); code != 2 || !strings.Contains(errs, filepath.Join("outputs", "model-validation")) {
		t.Errorf("show-model of no such pair: %d %s", code, errs)
	}
}
