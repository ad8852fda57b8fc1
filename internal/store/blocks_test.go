package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func sampleBlock() []byte {
	b := newBlockBuilder(2024, "unsat-core")
	for i := range 50 {
		r := Result{Competition: "SMT-COMP 2024", Year: 2024, Track: "unsat-core", Solver: fmt.Sprint("s", i%4),
			BenchmarkPath: fmt.Sprintf("non-incremental/QF_UF/%d.smt2", i/4), Status: "complete", Answer: "unsat", CPU: float64(i)}
		r.SourceKey = strings.Join([]string{"json", "2024", r.Track, r.Solver, "", r.BenchmarkPath, ""}, "\x1f")
		if i%7 == 0 {
			r.SourceKey = fmt.Sprint("other:", i)
		}
		b.add(&r)
	}
	return b.encode(nil)
}

// Every cut of a block, and every byte of it changed, gives an error or a
// block, never a panic; the cuts give errors.
func TestBlockCorrupt(t *testing.T) {
	data := sampleBlock()
	if _, err := decodeBlock(data); err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := decodeBlock(data[:n]); !errors.Is(err, errCorrupt) {
			t.Fatalf("block cut at %d of %d bytes: %v", n, len(data), err)
		}
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0xa5
		if d, err := decodeBlock(bad); err == nil {
			_ = d.each(2024, "unsat-core", 0, true, func(*Result) error { return nil })
		}
	}
}

func FuzzDecodeBlock(f *testing.F) {
	f.Add(sampleBlock())
	f.Add([]byte(blockMagic + "\x02\x01\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := decodeBlock(data)
		if err != nil {
			return
		}
		n := 0
		_ = d.each(2024, "t", 0, true, func(*Result) error { n++; return nil })
		if n != d.n {
			t.Fatalf("%d rows read of %d", n, d.n)
		}
	})
}

// A block damaged in the database is an error naming it, and the results
// before it were listed.
func TestCorruptBlockInStore(t *testing.T) {
	ctx := context.Background()
	st := tempSQLite(t)
	for _, track := range []string{"cloud", "parallel"} {
		r := Result{Year: 2022, Track: track, Solver: "z3", BenchmarkPath: "non-incremental/QF_UF/a.smt2", SourceKey: track}
		if n, err := st.AddResults(ctx, []Result{r}); err != nil || n != 1 {
			t.Fatal(n, err)
		}
	}
	if _, err := st.db.ExecContext(ctx, `UPDATE result_blocks SET data = substr(data, 1, 9) WHERE track = 'parallel'`); err != nil {
		t.Fatal(err)
	}
	var seen []string
	err := st.EachResult(ctx, ResultFilter{}, func(r *Result) error { seen = append(seen, r.Track); return nil })
	if err == nil || !strings.Contains(err.Error(), "block 2 (2022, parallel)") || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("error: %v", err)
	}
	if len(seen) != 1 || seen[0] != "cloud" {
		t.Errorf("listed before the error: %v", seen)
	}
	if _, err := st.CountResults(ctx, ResultFilter{Solver: "z3"}); err == nil {
		t.Error("counting through a corrupt block gave no error")
	}
}

// Results of a kilobyte (StarExec's other columns) end a block at about
// blockBytes, and come back whole and in order.
func TestBlockEndsBySize(t *testing.T) {
	ctx := context.Background()
	st := tempSQLite(t)
	pad := strings.Repeat("x", 1000)
	var rs []Result
	for i := range blockBytes/1000 + 100 {
		rs = append(rs, Result{Year: 2020, Track: "unsat-core", Solver: "z3", BenchmarkPath: fmt.Sprintf("non-incremental/QF_UF/%d.smt2", i),
			Extra: fmt.Sprintf(`{"pad":"%s","n":%d}`, pad, i), SourceKey: fmt.Sprint("starexec:", i)})
	}
	if n, err := st.AddResults(ctx, rs); err != nil || n != len(rs) {
		t.Fatal(n, err)
	}
	var blocks int
	if err := st.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM result_blocks`).Scan(&blocks); err != nil || blocks != 2 {
		t.Errorf("%d blocks (%v), want 2", blocks, err)
	}
	got, err := st.Results(ctx, ResultFilter{})
	if err != nil || len(got) != len(rs) {
		t.Fatalf("%d results, %v", len(got), err)
	}
	for i := range rs {
		if got[i].Extra != rs[i].Extra || got[i].SourceKey != rs[i].SourceKey {
			t.Fatalf("result %d differs", i)
		}
	}
}

// tempSQLite opens a fresh SQLite store, closed when the test ends.
func tempSQLite(t *testing.T) *SQLite {
	t.Helper()
	st, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
