package official

import (
	"context"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// BenchmarkInputFloor2024 measures what any import of the 2024 results
// must spend before it stores a row: decompressing the four results files
// and the benchmark list, and reading their JSON with the importer's own
// tokenizer (every value skipped, nothing kept). Each is timed on one core
// and, the files shared out over two goroutines, as wall time on both.
// Issue 13 asks for import and scoring in at most 2 s per million result
// rows; this is the floor under that figure on this machine.
func BenchmarkInputFloor2024(b *testing.B) {
	dir := filepath.Join(testenv.Shared(b, "official-results/2024"), "data")
	files := []string{"results-cloud-2024.json.gz", "results-parallel-2024.json.gz", "results-inc-2024.json.gz",
		"results-uc-2024.json.gz", "benchmarks-2024.json.gz"}
	for i, f := range files {
		files[i] = filepath.Join(dir, f)
	}
	rows := 0
	for _, f := range files[:4] {
		rows += decodeCount(b, f, "results")
	}
	gunzip := func(path string) int64 {
		r, _, closeFile, err := openDecompressed(path)
		if err != nil {
			b.Fatal(err)
		}
		defer closeFile()
		n, err := io.Copy(io.Discard, r)
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	tokenize := func(path string) int64 {
		r, _, closeFile, err := openDecompressed(path)
		if err != nil {
			b.Fatal(err)
		}
		defer closeFile()
		d := newJSONReader(r)
		if err := d.skipValue(0); err != nil {
			b.Fatal(err)
		}
		return d.offset()
	}
	// both runs each over the files on two goroutines, the largest first.
	both := func(each func(string) int64) {
		order := []string{files[4], files[3], files[2], files[0], files[1]}
		next := make(chan string, len(order))
		for _, f := range order {
			next <- f
		}
		close(next)
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for f := range next {
					each(f)
				}
			})
		}
		wg.Wait()
	}
	var gz, tok, gz2, tok2 time.Duration
	var size int64
	for b.Loop() {
		size = 0
		start := time.Now()
		for _, f := range files {
			size += gunzip(f)
		}
		gz += time.Since(start)
		start = time.Now()
		for _, f := range files {
			tokenize(f)
		}
		tok += time.Since(start)
		start = time.Now()
		both(gunzip)
		gz2 += time.Since(start)
		start = time.Now()
		both(tokenize)
		tok2 += time.Since(start)
	}
	n := float64(b.N)
	perM := func(d time.Duration) float64 { return d.Seconds() / n * 1e6 / float64(rows) }
	b.ReportMetric(perM(tok2), "s/Mrow-floor")
	b.Logf("%d result rows, %d MB of JSON: gunzip %.3f s (%.2f s per million rows), gunzip and tokenize %.3f s (%.2f s/M) on one core; on two: %.3f s (%.2f s/M) and %.3f s (%.2f s/M); the target for import and scoring is 2 s/M",
		rows, size>>20, gz.Seconds()/n, perM(gz), tok.Seconds()/n, perM(tok), gz2.Seconds()/n, perM(gz2), tok2.Seconds()/n, perM(tok2))
}

// BenchmarkImportResults2024 imports the four 2024 results files into a
// fresh SQLite store, as `smtarena import` does: the import part of issue
// 13's figure alone (BenchmarkImportScore2024 in cmd/smtarena has the
// whole), with the process's CPU time beside the wall time.
func BenchmarkImportResults2024(b *testing.B) {
	dir := filepath.Join(testenv.Shared(b, "official-results/2024"), "data")
	var files []string
	for _, f := range []string{"results-cloud-2024.json.gz", "results-parallel-2024.json.gz", "results-inc-2024.json.gz", "results-uc-2024.json.gz"} {
		files = append(files, filepath.Join(dir, f))
	}
	ctx := context.Background()
	var wall, cpu time.Duration
	rows := 0
	for b.Loop() {
		st, err := store.OpenSQLite(ctx, filepath.Join(b.TempDir(), "s.db"))
		if err != nil {
			b.Fatal(err)
		}
		start, c := time.Now(), testenv.CPUTime()
		rows = 0
		for _, f := range files {
			s, err := Import(ctx, st, "smtcomp-json", f, Options{})
			if err != nil {
				b.Fatal(err)
			}
			rows += s.Added
		}
		wall += time.Since(start)
		cpu += testenv.CPUTime() - c
		st.Close()
	}
	n := time.Duration(b.N)
	b.ReportMetric((wall/n).Seconds()*1e6/float64(rows), "s/Mrow")
	b.Logf("%d result rows imported: wall %v, CPU %v (%.2f s and %.2f s per million rows)", rows,
		(wall / n).Round(time.Millisecond), (cpu / n).Round(time.Millisecond),
		(wall/n).Seconds()*1e6/float64(rows), (cpu/n).Seconds()*1e6/float64(rows))
}
