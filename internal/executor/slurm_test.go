package executor

import (
	"context"
	"os/exec"
	"strings"
	"testing"
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
