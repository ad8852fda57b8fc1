package config

import (
	"strings"
	"testing"
	"time"
)

// TestExecutorTable: the [executor] table, and its errors.
func TestExecutorTable(t *testing.T) {
	c, err := load(t, good+`[executor]
type = "slurm"
jobs = 4
lease = "90s"
partition = "smt"
sbatch = ["--account=a"]
`)
	if err != nil {
		t.Fatal(err)
	}
	if e := c.Executor; e.Type != "slurm" || e.Jobs != 4 || e.Lease.Duration != 90*time.Second || e.Partition != "smt" || len(e.Sbatch) != 1 {
		t.Errorf("%+v", e)
	}
	for table, want := range map[string]string{
		"[executor]\ntype = \"pbs\"\n":   `[executor] type "pbs": want local or slurm`,
		"[executor]\njobs = -1\n":        "[executor] jobs = -1",
		"[executor]\nlease = \"-5s\"\n":  "[executor] lease = -5s",
		"[executor]\nnodes = 2\n":        "unknown keys: executor.nodes",
		"[executor]\nlease = \"soon\"\n": "c.toml",
	} {
		if _, err := load(t, good+table); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want %q, got %v", table, want, err)
		}
	}
}
