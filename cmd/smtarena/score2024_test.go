package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/score/pagecheck"
	"github.com/smtarena/smtarena/internal/testenv"
)

// data2024 is the 2024 data of the shared official results (dir): the
// results files of the four tracks, in the order the tests import them,
// and the benchmark list.
func data2024(dir string) (results []string, list string) {
	for _, f := range []string{"results-cloud-2024.json.gz", "results-parallel-2024.json.gz", "results-inc-2024.json.gz", "results-uc-2024.json.gz"} {
		results = append(results, filepath.Join(dir, "data", f))
	}
	return results, filepath.Join(dir, "data/benchmarks-2024.json.gz")
}

// TestScore2024Parallel runs the README's 2024 steps on the parallel
// track: import the cloud and parallel results and (the part of) the
// benchmark list they need, score with defs.py and the submissions, write
// the website's JSON records. QF_IDL's record is the published page's
// (pages/qf_idl-parallel: 196 benchmarks, the parallel tracks' selections
// together; SMTS 2 errors, 37 correct, 39 solved).
func TestScore2024Parallel(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2024")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	res := []string{filepath.Join(dir, "data/results-cloud-2024.json.gz"), filepath.Join(dir, "data/results-parallel-2024.json.gz")}
	if code, out, errs := runCLI(t, "", append([]string{"import", "--db", db, "smtcomp-json"}, res...)...); code != 0 || !strings.Contains(out, "800 rows, 800 added") {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	// A benchmark list of the logics of these tracks (the whole one takes
	// seconds to import).
	f, err := os.Open(filepath.Join(dir, "data/benchmarks-2024.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(f)
	var doc struct {
		NonIncremental []json.RawMessage `json:"non_incremental"`
	}
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var keep []json.RawMessage
	for _, b := range doc.NonIncremental {
		if strings.Contains(string(b), `"QF_IDL"`) {
			keep = append(keep, b)
		}
	}
	data, _ := json.Marshal(map[string]any{"non_incremental": keep})
	list := filepath.Join(tmp, "benchmarks-2024.json")
	os.WriteFile(list, data, 0o644)
	if code, _, errs := runCLI(t, "", "import", "--db", db, "benchmarks-json", list); code != 0 {
		t.Fatalf("import benchmarks: %d %s", code, errs)
	}
	out := filepath.Join(tmp, "web")
	code, stdout, errs := runCLI(t, "", "score", "--db", db, "--rules", "2024", "--track", "parallel", "--compat", "official",
		"--defs", filepath.Join(dir, "submissions/smtcomp/defs.py"), "--submissions", filepath.Join(dir, "submissions/submissions"),
		"--format", "web-json", "--out", out, "--date", "2024-07-08")
	if code != 0 || stdout != "wrote 18 pages to "+out+"\n" {
		t.Fatalf("score: %d %q %s", code, stdout, errs)
	}
	raw, err := os.ReadFile(filepath.Join(out, "qf_idl-parallel.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		NBenchmarks int    `json:"n_benchmarks"`
		MemLimit    int    `json:"mem_limit"`
		WinnerPar   string `json:"winner_par"`
		Parallel    []struct {
			Name                             string
			ErrorScore, CorrectScore, Solved int
			Unsolved                         int
		}
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.NBenchmarks != 196 || rec.MemLimit != 20480 || rec.WinnerPar != "SMTS" || len(rec.Parallel) != 2 ||
		rec.Parallel[0].Name != "SMTS" || rec.Parallel[0].ErrorScore != 2 || rec.Parallel[0].CorrectScore != 37 || rec.Parallel[0].Solved != 39 || rec.Parallel[0].Unsolved != 157 {
		t.Errorf("qf_idl-parallel: %s", raw)
	}
}

// TestReproduce2024CLI is TestReproduce2024 (internal/score) through the
// command line and the store: the four 2024 results files and the
// benchmark list imported by one `smtarena import` (results in blocks, the
// list beside them), each track scored from the store as `smtarena score
// --compat official` scores it, and every published page of the
// incremental, unsat-core, cloud and parallel tracks compared field by
// field.
func TestReproduce2024CLI(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2024")
	db := filepath.Join(t.TempDir(), "s.db")
	results, list := data2024(dir)
	args := append(append([]string{"import", "--db", db}, results...), list)
	if code, out, errs := runCLI(t, "", args...); code != 0 || !strings.Contains(out, "141661 rows, 141661 added") || !strings.Contains(out, "482964 rows, 482964 added") {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	ctx := context.Background()
	quiet := streams{strings.NewReader(""), io.Discard, io.Discard}
	for _, track := range []string{"incremental", "unsat-core", "cloud", "parallel"} {
		t.Run(track, func(t *testing.T) {
			opts := ScoreOptions{DB: db, Rules: 2024, Year: 2024, Track: track, Compat: "official",
				Defs: filepath.Join(dir, "submissions/smtcomp/defs.py"), Submissions: filepath.Join(dir, "submissions/submissions")}
			so, err := scoreOptions(&opts)
			if err != nil {
				t.Fatal(err)
			}
			st, err := openStoreToRead(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			rep, _, _, err := scoreStored(ctx, st, opts, so, false, quiet)
			if err != nil {
				t.Fatal(err)
			}
			pages, err := pagecheck.Check2024(dir, rep, track)
			if err != nil {
				t.Fatal(err)
			}
			ok, checked := pagecheck.Report(t, pages, nil)
			if checked == 0 {
				t.Fatalf("no published page of %s", track)
			}
			t.Logf("%s: %d of %d published pages reproduced", track, ok, checked)
		})
	}
}

// BenchmarkImportScore2024 measures issue 13's figure on the 2024 data:
// importing the four results files (205,138 rows) and the benchmark list
// (482,964 entries: scoring the incremental and unsat-core tracks needs
// their check-sats and assertions) into a fresh SQLite store, then scoring
// every track as the official pages were (every division and logic page,
// biggest lead, largest contribution, summary, written as web-json files).
// It prints the time, CPU time and peak memory of each phase, two ways:
//   - the whole job, as a user runs it: one `smtarena import` of the five
//     files (the list is read beside the results), then one `score
//     --track all`; per million rows read (688,102);
//   - the results alone, the list imported before into another store (not
//     timed): importing the results and scoring them, per million result
//     rows.
//
// Each is measured in this process (runImport, runScore: the commands'
// code without a process's start and its fresh memory) and as processes
// of the smtarena binary, built first: wall time, CPU time and peak RSS
// of each command, as a user sees them. The peak RSS in this process is
// the phase's own only roughly: memory that SQLite's allocator took in
// earlier phases is not returned to the system, and counts again; the
// processes' peaks are exact.
//
// The target is at most 2 s and 1 GB per million rows.
func BenchmarkImportScore2024(b *testing.B) {
	dir := testenv.Shared(b, "official-results/2024")
	ctx := context.Background()
	results, list := data2024(dir)
	rows := 0
	for _, f := range results {
		rows += countJSONResults(b, f)
	}
	const listRows = 482964
	quiet := streams{strings.NewReader(""), io.Discard, io.Discard}
	// phase times, CPU times (of the process: both cores) and peak RSS
	type phase struct {
		wall, cpu time.Duration
		peak      int
	}
	var all, scoring, alone, aloneScoring phase
	var files time.Duration // creating 186 files of 4 KB where the pages go
	timed := func(p *phase, f func() error) {
		b.Helper()
		resetPeakRSS() // the heap the phase before left is returned to the system: a command of its own for a user
		start, c := time.Now(), testenv.CPUTime()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		p.wall += time.Since(start)
		p.cpu += testenv.CPUTime() - c
		p.peak = max(p.peak, peakRSS())
	}
	score := func(db, out string) error { // every track in one command: smtarena score --track all
		return runScore(ctx, ScoreOptions{DB: db, Rules: 2024, Year: 2024, Track: allTracks, Compat: "official", Format: "web-json",
			Out: out, Date: "2024-07-08", Defs: filepath.Join(dir, "submissions/smtcomp/defs.py"),
			Submissions: filepath.Join(dir, "submissions/submissions")}, quiet)
	}
	// The binary, for the commands as processes.
	bin := filepath.Join(b.TempDir(), "smtarena")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	var pAll, pScoring, pAlone, pAloneScoring phase
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	command := func(p *phase, args ...string) { // a command measured by this binary as a process of its own (measureCommand)
		b.Helper()
		cmd := exec.Command(self, append([]string{bin}, args...)...)
		cmd.Env = append(os.Environ(), "SMTARENA_TEST_MEASURE=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		var wall, cpu, kb int64
		if err == nil {
			_, err = fmt.Sscan(string(out), &wall, &cpu, &kb)
		}
		if err != nil {
			b.Fatalf("smtarena %s: %v\n%s", strings.Join(args, " "), err, errb.String())
		}
		p.wall += time.Duration(wall)
		p.cpu += time.Duration(cpu)
		p.peak = max(p.peak, int(kb/1000))
	}
	scoreArgs := func(db, out string) []string {
		return []string{"score", "--db", db, "--rules", "2024", "--year", "2024", "--track", "all", "--compat", "official",
			"--format", "web-json", "--out", out, "--date", "2024-07-08", "--defs", filepath.Join(dir, "submissions/smtcomp/defs.py"),
			"--submissions", filepath.Join(dir, "submissions/submissions")}
	}
	for range b.N {
		tmp := b.TempDir()
		files += createFiles(b, filepath.Join(tmp, "probe"), 186)
		db := filepath.Join(tmp, "s.db")
		timed(&all, func() error {
			return runImport(ctx, ImportOptions{DB: db}, append(slices.Clone(results), list), quiet) // formats told by the names
		})
		timed(&scoring, func() error { return score(db, filepath.Join(tmp, "all")) })
		db2 := filepath.Join(tmp, "s2.db")
		if err := runImport(ctx, ImportOptions{DB: db2}, []string{"benchmarks-json", list}, quiet); err != nil {
			b.Fatal(err)
		}
		timed(&alone, func() error {
			return runImport(ctx, ImportOptions{DB: db2}, append([]string{"smtcomp-json"}, results...), quiet)
		})
		timed(&aloneScoring, func() error { return score(db2, filepath.Join(tmp, "alone")) })
		// The same as processes.
		db3, db4 := filepath.Join(tmp, "p.db"), filepath.Join(tmp, "p2.db")
		command(&pAll, append(append([]string{"import", "--db", db3}, results...), list)...)
		command(&pScoring, scoreArgs(db3, filepath.Join(tmp, "pall"))...)
		if err := runImport(ctx, ImportOptions{DB: db4}, []string{"benchmarks-json", list}, quiet); err != nil {
			b.Fatal(err)
		}
		command(&pAlone, append([]string{"import", "--db", db4, "smtcomp-json"}, results...)...)
		command(&pAloneScoring, scoreArgs(db4, filepath.Join(tmp, "palone"))...)
	}
	n := time.Duration(b.N)
	ms := func(d time.Duration) time.Duration { return (d / n).Round(time.Millisecond) }
	perM := func(d time.Duration, of int) float64 { return (d / n).Seconds() * 1e6 / float64(of) }
	job, res := all.wall+scoring.wall, alone.wall+aloneScoring.wall
	b.ReportMetric(perM(job, rows+listRows), "s/Mrow-job")
	b.ReportMetric(perM(res, rows), "s/Mresult")
	b.Logf("the whole job: import of the 4 results files and the list in one command %v (CPU %v, peak RSS %d MB), scoring the 4 tracks with every page %v (CPU %v, peak %d MB); %v for %d rows read = %.2f s per million rows (target 2); peak RSS %d MB per million rows",
		ms(all.wall), ms(all.cpu), all.peak, ms(scoring.wall), ms(scoring.cpu), scoring.peak, ms(job), rows+listRows, perM(job, rows+listRows),
		max(all.peak, scoring.peak)*1000000/(rows+listRows))
	b.Logf("the results alone (the list imported before): import %v (CPU %v, peak RSS %d MB), scoring %v (CPU %v, peak %d MB); %v for %d result rows = %.2f s per million result rows (target 2); peak RSS %d MB per million result rows",
		ms(alone.wall), ms(alone.cpu), alone.peak, ms(aloneScoring.wall), ms(aloneScoring.cpu), aloneScoring.peak, ms(res), rows, perM(res, rows),
		max(alone.peak, aloneScoring.peak)*1000000/rows)
	pJob, pRes := pAll.wall+pScoring.wall, pAlone.wall+pAloneScoring.wall
	b.ReportMetric(perM(pJob, rows+listRows), "s/Mrow-job-processes")
	b.ReportMetric(perM(pRes, rows), "s/Mresult-processes")
	b.Logf("as processes, the whole job: smtarena import %v (CPU %v, peak RSS %d MB), smtarena score --track all %v (CPU %v, peak RSS %d MB); %.2f s per million rows read; peak RSS %d MB per million rows",
		ms(pAll.wall), ms(pAll.cpu), pAll.peak, ms(pScoring.wall), ms(pScoring.cpu), pScoring.peak, perM(pJob, rows+listRows),
		max(pAll.peak, pScoring.peak)*1000000/(rows+listRows))
	b.Logf("as processes, the results alone: smtarena import %v (CPU %v, peak RSS %d MB), smtarena score --track all %v (CPU %v, peak RSS %d MB); %.2f s per million result rows; peak RSS %d MB per million result rows",
		ms(pAlone.wall), ms(pAlone.cpu), pAlone.peak, ms(pAloneScoring.wall), ms(pAloneScoring.cpu), pAloneScoring.peak, perM(pRes, rows),
		max(pAlone.peak, pAloneScoring.peak)*1000000/rows)
	b.Logf("the file system: 186 files of 4 KB (as many as the pages) created in %v where the pages go (%s); an ext4 without a journal, as here, passes over the inodes deleted in the last minutes when it makes a file: in a directory where tests have deleted many, a page costs about a millisecond",
		ms(files), filepath.Dir(b.TempDir()))
}

// createFiles creates n files of 4 KB in a new directory dir, and returns
// how long it took.
func createFiles(b *testing.B, dir string, n int) time.Duration {
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	data := make([]byte, 4096)
	start := time.Now()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+".json"), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}

func countJSONResults(b *testing.B, path string) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	var doc struct{ Results []json.RawMessage }
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		b.Fatal(err)
	}
	return len(doc.Results)
}

// resetPeakRSS starts the peak resident set (VmHWM) anew from the
// current one (Linux: /proc/self/clear_refs), so that each phase's peak is
// its own; the peak of the whole run is then the largest of them.
func resetPeakRSS() {
	runtime.GC()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS is the process's peak resident set (VmHWM) in MB, 0 if unknown.
func peakRSS() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb / 1000
		}
	}
	return 0
}

// score2024DB is a store holding the 2024 results and benchmark list,
// imported once per test process (BenchmarkScore2024's runs share it).
var score2024DB struct {
	once sync.Once
	path string
	err  error
}

// BenchmarkScore2024 is the scoring phase of BenchmarkImportScore2024
// alone: the four tracks scored with every page from a store imported
// once, so that a profile (-cpuprofile) shows the scoring's costs; it
// prints the time and CPU time of `score --track all`.
func BenchmarkScore2024(b *testing.B) {
	dir := testenv.Shared(b, "official-results/2024")
	ctx := context.Background()
	quiet := streams{strings.NewReader(""), io.Discard, io.Discard}
	score2024DB.once.Do(func() {
		tmp, err := os.MkdirTemp("", "score2024")
		if err != nil {
			score2024DB.err = err
			return
		}
		db := filepath.Join(tmp, "s.db")
		results, list := data2024(dir)
		if err := runImport(ctx, ImportOptions{DB: db}, append([]string{"smtcomp-json"}, results...), quiet); err != nil {
			score2024DB.err = err
			return
		}
		score2024DB.err = runImport(ctx, ImportOptions{DB: db}, []string{"benchmarks-json", list}, quiet)
		score2024DB.path = db
	})
	if score2024DB.err != nil {
		b.Fatal(score2024DB.err)
	}
	b.ResetTimer()
	start, c := time.Now(), testenv.CPUTime()
	for range b.N {
		// New pages each time, as in BenchmarkImportScore2024 (ext4
		// flushes a file truncated and written again when it is closed).
		err := runScore(ctx, ScoreOptions{DB: score2024DB.path, Rules: 2024, Year: 2024, Track: allTracks, Compat: "official", Format: "web-json",
			Out: b.TempDir(), Date: "2024-07-08", Defs: filepath.Join(dir, "submissions/smtcomp/defs.py"),
			Submissions: filepath.Join(dir, "submissions/submissions")}, quiet)
		if err != nil {
			b.Fatal(err)
		}
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64(time.Since(start)/n)/1e6, "ms-wall")
	b.ReportMetric(float64((testenv.CPUTime()-c)/n)/1e6, "ms-cpu")
}
