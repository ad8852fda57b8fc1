package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// TestImportKilled: an import killed part way (SIGKILL, at several points
// of its reading, its writing and its commit) leaves the store as it was
// before it, or with everything: never a part, never a store that will
// not open. An import of the 2024 results and benchmark list is written
// with a rollback journal (a fresh store is the importer's alone), the
// results of a second year beside them.
func TestImportKilled(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2024/data")
	files := []string{filepath.Join(dir, "results-inc-2024.json.gz"), filepath.Join(dir, "benchmarks-2024.json.gz")}
	const results, list = 61674, 482964
	ctx := context.Background()
	for _, after := range []time.Duration{300 * time.Millisecond, 1000 * time.Millisecond, 1150 * time.Millisecond, 1300 * time.Millisecond} {
		db := filepath.Join(t.TempDir(), "s.db")
		cmd := exec.Command(os.Args[0], append([]string{"import", "--db", db}, files...)...)
		cmd.Env = append(os.Environ(), "SMTARENA_TEST_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		st, err := store.Open(ctx, db)
		if err != nil {
			t.Fatalf("killed after %v: the store does not open: %v", after, err)
		}
		n, err := st.CountResults(ctx, store.ResultFilter{})
		if err != nil {
			t.Fatal(err)
		}
		bs, err := st.Benchmarks(ctx, store.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		if (n != 0 || len(bs) != 0) && (n != results || len(bs) != list) {
			t.Errorf("killed after %v: %d results and %d benchmarks, want none or all (%d, %d)", after, n, len(bs), results, list)
		}
		t.Logf("killed after %v: %d results, %d benchmarks", after, n, len(bs))
		// Imported again, all is there once.
		code, out, errs := runCLI(t, "", append([]string{"import", "--db", db}, files...)...)
		if code != 0 || !strings.Contains(out, "61674 rows") || !strings.Contains(out, "482964 rows") {
			t.Fatalf("import after the kill: %d %s %s", code, out, errs)
		}
		st, err = store.Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		n, _ = st.CountResults(ctx, store.ResultFilter{})
		bs, _ = st.Benchmarks(ctx, store.Filter{})
		st.Close()
		if n != results || len(bs) != list {
			t.Errorf("killed after %v, imported again: %d results and %d benchmarks, want %d and %d", after, n, len(bs), results, list)
		}
	}
}
