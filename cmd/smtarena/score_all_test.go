package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// TestScoreAll2024 scores the 2024 data (the four results files and the
// benchmark list) with `--track all` and with one `--track T` per track,
// through the command line: the pages written are the same files, byte for
// byte; to stdout each track's output comes in the order of the tracks
// under its name; --division keeps the division where a track has it.
func TestScoreAll2024(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2024")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	results, list := data2024(dir)
	if code, out, errs := runCLI(t, "", append(append([]string{"import", "--db", db}, results...), list)...); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	scoreArgs := func(track string, more ...string) []string {
		return append([]string{"score", "--db", db, "--rules", "2024", "--track", track, "--compat", "official",
			"--defs", filepath.Join(dir, "submissions/smtcomp/defs.py"), "--submissions", filepath.Join(dir, "submissions/submissions")}, more...)
	}
	tracks := []string{"incremental", "unsat-core", "parallel", "cloud"} // the order of benchmark.Tracks

	// Pages: four runs into sep/TRACK, one into all.
	sep, all := filepath.Join(tmp, "sep"), filepath.Join(tmp, "all")
	var wantOut string
	for _, track := range tracks {
		code, out, errs := runCLI(t, "", scoreArgs(track, "--format", "web-json", "--out", filepath.Join(sep, track))...)
		if code != 0 {
			t.Fatalf("score --track %s: %d %s", track, code, errs)
		}
		wantOut += out
	}
	code, out, errs := runCLI(t, "", scoreArgs("all", "--format", "web-json", "--out", all)...)
	if code != 0 {
		t.Fatalf("score --track all: %d %s", code, errs)
	}
	if strings.ReplaceAll(out, all, sep) != wantOut {
		t.Errorf("score --track all says\n%swant\n%s", out, wantOut)
	}
	if want := "smtarena: no results of 2024 in the single-query, model-validation and proof tracks: skipped\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	if n := sameTree(t, sep, all); n != 186 {
		t.Errorf("%d pages, want the 186 of the four tracks", n)
	}

	// To stdout: each track under its name, as --track T prints it.
	for _, format := range []string{"table", "json"} {
		var want bytes.Buffer
		for i, track := range tracks {
			code, out, errs := runCLI(t, "", scoreArgs(track, "--format", format)...)
			if code != 0 {
				t.Fatalf("score --track %s --format %s: %d %s", track, format, code, errs)
			}
			switch {
			case format == "json" && i == 0:
				want.WriteString("{\n\"" + track + "\": ")
			case format == "json":
				want.WriteString(",\n\"" + track + "\": ")
			case i > 0:
				want.WriteString("\n# track: " + track + "\n")
			default:
				want.WriteString("# track: " + track + "\n")
			}
			want.WriteString(out)
		}
		if format == "json" {
			want.WriteString("}\n")
		}
		code, out, errs := runCLI(t, "", scoreArgs("all", "--format", format)...)
		if code != 0 {
			t.Fatalf("score --track all --format %s: %d %s", format, code, errs)
		}
		if out != want.String() {
			t.Errorf("score --track all --format %s: stdout differs from the four tracks' (%d bytes, want %d)", format, len(out), want.Len())
		}
		if format == "json" {
			var byTrack map[string]json.RawMessage
			if err := json.Unmarshal([]byte(out), &byTrack); err != nil || len(byTrack) != 4 {
				t.Errorf("json of --track all: %d tracks, %v", len(byTrack), err)
			}
		}
	}

	// --division: in the tracks that have it.
	code, out, errs = runCLI(t, "", scoreArgs("all", "--division", "QF_NonLinearRealArith", "--format", "csv")...)
	if code != 0 || !strings.Contains(errs, "no division QF_NonLinearRealArith in the incremental track: skipped") ||
		strings.Count(out, "# track: ") != 3 || strings.Contains(out, "QF_LinearIntArith") {
		t.Errorf("--division QF_NonLinearRealArith: %d\n%s\n%s", code, errs, out)
	}
	code, _, errs = runCLI(t, "", scoreArgs("all", "--division", "QF_None")...)
	if code == 0 || !strings.Contains(errs, "no division QF_None in the results of any track") {
		t.Errorf("--division QF_None: %d %s", code, errs)
	}
	// None of the competition asked for: named, and an error.
	code, _, errs = runCLI(t, "", scoreArgs("all", "--competition", "SMT-COMP 2023")...)
	if code == 0 || !strings.Contains(errs, "no results of SMT-COMP 2023 in the incremental, unsat-core, parallel and cloud tracks: skipped") ||
		!strings.Contains(errs, "no results of SMT-COMP 2023 in "+db) {
		t.Errorf("--competition SMT-COMP 2023: %d %s", code, errs)
	}
	// No results of the year: an error, and nothing written.
	code, _, errs = runCLI(t, "", scoreArgs("all", "--year", "2023", "--format", "web-json", "--out", filepath.Join(tmp, "none"))...)
	if code == 0 || !strings.Contains(errs, "no results of 2023 in "+db) {
		t.Errorf("--year 2023: %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(tmp, "none")); err == nil {
		t.Errorf("--year 2023 wrote pages")
	}
}

// sameTree compares the files under two directories byte for byte and
// returns how many there are.
func sameTree(t *testing.T, want, got string) int {
	t.Helper()
	files := map[string]bool{}
	n := 0
	err := filepath.WalkDir(want, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(want, p)
		files[rel] = true
		n++
		w, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		g, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		if !bytes.Equal(w, g) {
			t.Errorf("%s differs", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(got, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if rel, _ := filepath.Rel(got, p); !files[rel] {
			t.Errorf("%s: written by --track all alone", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestScoreAllErrors: --track all on a store without results is an error
// naming the year and the store; a bad flag is named once.
func TestScoreAllErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	code, out, errs := runCLI(t, "", "score", "--db", db, "--rules", "2024", "--track", "all")
	if code == 0 || out != "" || !strings.Contains(errs, "no results of 2024 in "+db) ||
		!strings.Contains(errs, "no results of 2024 in the single-query, incremental, unsat-core, model-validation, proof, parallel and cloud tracks: skipped") {
		t.Errorf("empty store: %d %q %s", code, out, errs)
	}
	code, _, errs = runCLI(t, "", "score", "--db", db, "--rules", "1999", "--track", "all")
	if code == 0 || !strings.Contains(errs, "1999") {
		t.Errorf("--rules 1999: %d %s", code, errs)
	}
	code, _, errs = runCLI(t, "", "score", "--db", filepath.Join(t.TempDir(), "none.db"), "--rules", "2024", "--track", "all")
	if code == 0 || !strings.Contains(errs, "no store at") {
		t.Errorf("no store: %d %s", code, errs)
	}
}

// TestRowBudgetBatches: the tracks that fit at once come in one batch (their
// rows are made together, before any runs), the biggest first; the others
// come as the running ones end, in batches of what fits then.
func TestRowBudgetBatches(t *testing.T) {
	sizes := []int{60, 140, 1, 2, 130}
	var tracks []*trackScore
	for _, n := range sizes {
		tracks = append(tracks, &trackScore{results: n})
	}
	b := newRowBudget(tracks, 2)
	var got [][]int
	for batch := range b.schedule() {
		var ns []int
		for _, ts := range batch {
			ns = append(ns, ts.results)
		}
		got = append(got, ns)
		for _, ts := range batch {
			b.release(ts) // ends before the next batch is asked for
		}
	}
	// limit 280: 140 and 130 start together (two slots); then 60 and 2;
	// then 1.
	want := [][]int{{140, 130}, {60, 2}, {1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("batches %v, want %v", got, want)
	}
}

// TestLimitScoreMemory: scoring sets a soft memory limit of 0.75 GB per
// million rows (at least 128 MB) and puts the old one back after; a limit
// the environment sets (GOMEMLIMIT) is left alone.
func TestLimitScoreMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	for _, c := range []struct {
		rows int
		want int64
	}{{1_000_000, 750_000_000}, {205_138, 153_853_500}, {100, 128 << 20}} {
		restore := limitScoreMemory(c.rows)
		if got := debug.SetMemoryLimit(-1); got != c.want {
			t.Errorf("%d rows: limit %d, want %d", c.rows, got, c.want)
		}
		restore()
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Errorf("%d rows: limit %d after, want %d back", c.rows, got, before)
		}
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	restore := limitScoreMemory(1_000_000)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set: limit %d, want %d (left alone)", got, before)
	}
	restore()
}
