package official

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// BenchmarkImportBenchmarkList2024 imports the 2024 benchmark list
// (482,964 entries) into a fresh SQLite store, then again (every entry
// already there), and prints the wall and CPU time of each; the input
// floor under them (gunzip and tokenize) is BenchmarkInputFloor2024's.
func BenchmarkImportBenchmarkList2024(b *testing.B) {
	src := filepath.Join(testenv.Shared(b, "official-results/2024"), "data", "benchmarks-2024.json.gz")
	ctx := context.Background()
	var wall, cpu, wall2, cpu2 time.Duration
	rows := 0
	for range b.N {
		b.StopTimer()
		st, err := store.OpenSQLite(ctx, filepath.Join(b.TempDir(), "s.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, c := time.Now(), testenv.CPUTime()
		s, err := ImportBenchmarksJSON(ctx, st, src)
		if err != nil || s.Added != s.Rows {
			b.Fatalf("%+v %v", s, err)
		}
		wall += time.Since(start)
		cpu += testenv.CPUTime() - c
		rows = s.Rows
		start, c = time.Now(), testenv.CPUTime()
		s, err = ImportBenchmarksJSON(ctx, st, src)
		if err != nil || s.Skipped != s.Rows {
			b.Fatalf("again: %+v %v", s, err)
		}
		wall2 += time.Since(start)
		cpu2 += testenv.CPUTime() - c
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64((cpu / n).Milliseconds()), "cpu-ms/import")
	b.Logf("benchmark list (%d entries) into an empty store: %v (CPU %v); again, all there: %v (CPU %v)",
		rows, (wall / n).Round(time.Millisecond), (cpu / n).Round(time.Millisecond),
		(wall2 / n).Round(time.Millisecond), (cpu2 / n).Round(time.Millisecond))
}
