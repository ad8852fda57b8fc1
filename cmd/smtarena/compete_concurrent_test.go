package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
)

// TestCompeteTwoAtOnce starts two compete processes at the same moment on
// a new SQLite store: both migrate it (once), prepare, share the pairs and
// finish; every pair is recorded once. (The second used to fail with
// "migration 1: table benchmarks already exists".)
func TestCompeteTwoAtOnce(t *testing.T) {
	needRootForRuns(t)
	dir := t.TempDir()
	writeLibrary(t, filepath.Join(dir, "lib"), 20)
	def := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(def, []byte(`name = "twice"
rules = 2018
library = ["lib"]
[seed]
value = 2
[tracks.single-query]
wall_limit = "10s"
[[solvers]]
name = "a"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "echo sat", "a", "{file}"]
[[solvers]]
name = "b"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "echo unsat", "b", "{file}"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := 0; i < 2; i++ {
		c := exec.Command(exe, "compete", "--quiet", def)
		c.Env = append(os.Environ(), "SMTARENA_TEST_MAIN=1")
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		cmds, outs = append(cmds, c), append(outs, &out)
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("compete %d: %v\n%s", i+1, err, outs[i])
		}
	}
	st := openCompeteStore(t, def)
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, r := range rs {
		keys[r.SourceKey] = true
	}
	if len(rs) != 40 || len(keys) != 40 {
		t.Errorf("%d results for %d distinct pairs, want 40 each", len(rs), len(keys))
	}
}
