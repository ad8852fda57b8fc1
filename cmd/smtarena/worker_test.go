package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestWorkerSaysWhatItDid: a worker started before compete planned anything
// says so and fails, rather than returning at once in silence; one that
// finds every pair done says how many it ran. (Two solvers of two teams:
// 2022 runs no division that one team enters.)
func TestWorkerSaysWhatItDid(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib", "non-incremental", "QF_UF", "tiny")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "(set-info :smt-lib-version 2.6)\n(set-logic QF_UF)\n(set-info :status sat)\n(declare-fun p () Bool)\n(assert p)\n(check-sat)\n(exit)\n"
	if err := os.WriteFile(filepath.Join(lib, "a.smt2"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(def, []byte(`name = "wk"
rules = 2022
library = ["lib"]
workdir = "work"
[seed]
value = 3
[tracks.single-query]
cpu_limit = "5s"
wall_limit = "10s"
memory_mb = 1024
[[solvers]]
name = "z3"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["z3", "{file}"]
[[solvers]]
name = "cvc5"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["cvc5", "{file}"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "", "worker", def)
	if code != 2 || !strings.Contains(errs, `no pairs of competition "wk" are planned`) || !strings.Contains(errs, "has it run") {
		t.Errorf("worker before compete: exit %d, %q", code, errs)
	}

	needRootForRuns(t)
	for _, s := range []string{"z3", "cvc5"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
	if code, _, errs := runCLI(t, "", "compete", "-q", def); code != 0 {
		t.Fatalf("compete: %d %s", code, errs)
	}
	code, _, errs = runCLI(t, "", "worker", "--node", "n1", "--track", "single-query", def)
	if code != 0 || !strings.Contains(errs, "n1: 0 pairs run here; every pair of the single-query track is done") {
		t.Errorf("worker after compete: exit %d, %q", code, errs)
	}
}
