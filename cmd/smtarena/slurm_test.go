package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// slurmSetup starts a two-node Slurm cluster and PostgreSQL for a test,
// and makes the workers that sbatch starts (this test binary) act as
// smtarena.
func slurmSetup(t *testing.T) (*testenv.SlurmCluster, string) {
	t.Helper()
	needRootForRuns(t)
	c := testenv.Slurm(t, 2)
	dsn := testenv.Postgres(t)
	t.Setenv("SMTARENA_TEST_MAIN", "1")
	return c, dsn
}

// answers maps solver and benchmark to the answer of each sat/unsat
// result, and counts the results.
func answers(t *testing.T, st store.Store) (map[string]string, int) {
	t.Helper()
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rs {
		if r.Answer == "sat" || r.Answer == "unsat" {
			out[r.Solver+" "+r.BenchmarkPath] = r.Answer
		}
	}
	return out, len(rs)
}

// TestCompeteSlurm runs a competition of z3, cvc4 and cvc5 on the shared
// benchmarks with the Slurm executor on a two-node cluster over
// PostgreSQL, and with the local executor over SQLite: the same pairs, the
// same answers, each pair recorded once, pairs run on both nodes.
func TestCompeteSlurm(t *testing.T) {
	for _, s := range []string{"z3", "cvc4", "cvc5"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
	lib := testenv.Shared(t, "benchmarks")
	cluster, dsn := slurmSetup(t)
	dir := t.TempDir()
	// The local run gets a work directory of its own: the solvers'
	// inputs there are named by the benchmark ids of its store.
	writeDef := func(name, workdir string) string {
		def := filepath.Join(dir, name)
		if err := os.WriteFile(def, []byte(fmt.Sprintf(`name = "slurm"
rules = 2022
library = [%q]
workdir = %q
[seed]
value = 11
[tracks.single-query]
cpu_limit = "5s"
wall_limit = "8s"
memory_mb = 1024
logics = ["QF_LRA"]
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
[[solvers]]
name = "cvc4"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["cvc4", "{file}"]
`, lib, workdir)), 0o644); err != nil {
			t.Fatal(err)
		}
		return def
	}
	def := writeDef("c.toml", "work")
	localDef := writeDef("local.toml", "work-local")
	// The SQLite store refuses an executor on many machines, clearly.
	code, _, errs := runCLI(t, "", "compete", "--quiet", "--executor", "slurm", def)
	if code == 0 || !strings.Contains(errs, "needs a PostgreSQL store") {
		t.Errorf("slurm over SQLite: exit %d, %s", code, errs)
	}
	start := time.Now()
	code, out, errs := runCLI(t, "", "compete", "--db", dsn, "--executor", "slurm", "--slurm-jobs", "2", "--lease", "5s", def)
	if code != 0 {
		t.Fatalf("compete --executor slurm: exit %d\n%s\n%s\n%s", code, out, errs, cluster.Logs())
	}
	t.Logf("slurm run: %s", time.Since(start).Round(time.Millisecond))
	local := filepath.Join(dir, "local.db")
	if code, out, errs := runCLI(t, "", "compete", "--quiet", "--db", local, localDef); code != 0 {
		t.Fatalf("compete (local): exit %d\n%s\n%s", code, out, errs)
	}
	pg, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	lo, err := store.Open(context.Background(), local)
	if err != nil {
		t.Fatal(err)
	}
	defer lo.Close()
	sa, sn := answers(t, pg)
	la, ln := answers(t, lo)
	if sn != ln || sn == 0 {
		t.Errorf("%d results on Slurm, %d locally", sn, ln)
	}
	if len(sa) < sn/2 {
		t.Errorf("only %d of %d results answered sat or unsat", len(sa), sn)
	}
	for k, a := range sa {
		if b, ok := la[k]; ok && a != b {
			t.Errorf("%s: %s on Slurm, %s locally", k, a, b)
		}
	}
	for k, a := range la {
		if _, ok := sa[k]; !ok {
			// The benchmarks take a fraction of the limits: no run may
			// end in a timeout on one executor and not on the other.
			t.Errorf("%s: %s locally, not answered on Slurm", k, a)
		}
	}
	ps, _ := pg.Pairs(context.Background(), "slurm/single-query")
	if len(ps) != sn {
		t.Errorf("%d pairs, %d results", len(ps), sn)
	}
	// status shows the pairs each node ran.
	code, out, _ = runCLI(t, "", "status", "--db", dsn, def)
	if code != 0 || !strings.Contains(out, " n1 ") || !strings.Contains(out, " n2 ") {
		t.Errorf("status: exit %d, no line per node:\n%s", code, out)
	}
	t.Logf("%d pairs, %d answered sat or unsat\n%s", sn, len(sa), out)
}
