package executor

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// TestSlurmRefusesSQLite: workers on other machines cannot share an SQLite
// file; the executor says so before submitting anything.
func TestSlurmRefusesSQLite(t *testing.T) {
	_, st := setup(t, 2)
	s := &Slurm{Worker: func(Job) WorkerSpec { return WorkerSpec{Args: []string{"true"}} }, Dir: t.TempDir()}
	err := s.Run(context.Background(), Job{Store: st, Competition: "c"})
	if err == nil || !strings.Contains(err.Error(), "needs a PostgreSQL store") {
		t.Errorf("slurm over SQLite: %v", err)
	}
}

// TestShellQuote: the worker's batch script passes every argument as is.
func TestShellQuote(t *testing.T) {
	for _, a := range []string{"plain", "with space", "it's", "$HOME", "", "a\"b", "x;rm -rf /", "postgres://u@h/db?sslmode=disable"} {
		out, err := exec.Command("sh", "-c", "printf %s "+shellQuote(a)).Output()
		if err != nil || string(out) != a {
			t.Errorf("%q: the shell gives %q (%v)", a, out, err)
		}
	}
	a, b := JobName("c/single-query"), JobName("c/cloud")
	if a == b || !strings.HasPrefix(a, "smtarena-") || len(a) != len("smtarena-")+10 {
		t.Errorf("job names %q and %q: want smtarena- and 10 hex digits, one per competition key", a, b)
	}
}

// TestSlurmWorkersFail: workers that end at once without running a pair
// (a binary missing on the nodes, a store they cannot reach) are not
// submitted forever: the coordinator stops with the last one's output.
func TestSlurmWorkersFail(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "needs root to run a Slurm cluster")
	}
	testenv.Slurm(t, 1)
	dsn := testenv.Postgres(t)
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	plan(t, st, 2)
	s := &Slurm{Dir: t.TempDir(), Poll: 200 * time.Millisecond,
		Worker: func(Job) WorkerSpec {
			return WorkerSpec{Args: []string{"sh", "-c", "echo cannot reach the store >&2; exit 1"}}
		}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err = s.Run(ctx, Job{Store: st, Competition: "c"})
	if err == nil || !strings.Contains(err.Error(), "ended without completing a pair") || !strings.Contains(err.Error(), "cannot reach the store") {
		t.Errorf("failing workers: %v", err)
	}
}
