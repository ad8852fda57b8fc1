package benchgen_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/benchgen"
	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/lint"
	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/smtarena/smtarena/internal/testenv"
)

var medium = flag.Bool("medium", false, "also run z3 on the medium library and log its times (minutes)")

const z3Path = "/usr/bin/z3"

// z3 runs z3 on src and returns its answers, one per check-sat, and the
// wall time it took.
func z3(t *testing.T, src []byte, timeout time.Duration) ([]string, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, z3Path, "-smt2", "-in")
	cmd.Stdin = bytes.NewReader(src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("z3 took longer than %v", timeout)
	}
	if err != nil {
		t.Fatalf("z3: %v: %s%s", err, out, stderr.Bytes())
	}
	return strings.Fields(string(out)), took
}

func needZ3(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(z3Path); err != nil {
		testenv.Skipf(t, "needs z3 at %s: %v", z3Path, err)
	}
}

// checkInstance writes in and checks it: it parses, is well sorted, is clean
// for lint in its track, and its metadata says what the instance says.
func checkInstance(t *testing.T, in benchgen.Instance) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := in.Write(&buf); err != nil {
		t.Fatal(err)
	}
	src := buf.Bytes()
	s, err := smtlib.Parse(in.Name, src, smtlib.AllErrors)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if _, err := smtlib.Check(s, smtlib.AllErrors); err != nil {
		t.Fatalf("sort check: %v", err)
	}
	track := benchmark.SingleQuery
	if in.Incremental {
		track = benchmark.Incremental
	}
	for _, rules := range lint.Years {
		if res := lint.Source(in.Name, src, lint.Options{Track: track, Rules: rules}); len(res.Findings) > 0 {
			t.Errorf("lint --track %s --rules %d:", track, rules)
			for _, f := range res.Findings {
				t.Errorf("  %s", f)
			}
		}
	}
	m, err := smtlib.ScanMeta(in.Name, src)
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	if m.Logic != in.Logic || m.SMTLIBVersion != "2.6" || m.Source == "" || m.CheckSats != len(in.Statuses) {
		t.Errorf("meta: logic %q, version %q, source %q, %d check-sats; want %s, 2.6, a source, %d",
			m.Logic, m.SMTLIBVersion, m.Source, m.CheckSats, in.Logic, len(in.Statuses))
	}
	if c := benchmark.ParseCategory(m.Category); c != benchmark.Crafted && c != benchmark.Random {
		t.Errorf("category %q", m.Category)
	}
	got := make([]benchmark.Status, len(m.CheckSatStatuses))
	for i, st := range m.CheckSatStatuses {
		got[i] = benchmark.ParseStatus(st)
	}
	if !slices.Equal(got, in.Statuses) {
		t.Errorf("statuses in the file %v, want %v", got, in.Statuses)
	}
	if in.Incremental {
		if m.Pushes == 0 || m.Pushes != m.Pops {
			t.Errorf("%d pushes, %d pops", m.Pushes, m.Pops)
		}
	} else if m.Status != string(in.Statuses[0]) {
		t.Errorf(":status %q, want %s", m.Status, in.Statuses[0])
	}
	return src
}

func wantAnswers(t *testing.T, in benchgen.Instance, answers []string) {
	t.Helper()
	want := make([]string, len(in.Statuses))
	for i, s := range in.Statuses {
		want[i] = string(s)
	}
	if !slices.Equal(answers, want) {
		t.Errorf("z3 answers %v, want %v", answers, want)
	}
}

// TestSmall checks every small instance, and z3's answers against the
// statuses.
func TestSmall(t *testing.T) {
	list, err := benchgen.Instances(1, benchgen.Small)
	if err != nil {
		t.Fatal(err)
	}
	checkCoverage(t, list)
	for _, in := range list {
		t.Run(in.Path(), func(t *testing.T) {
			t.Parallel()
			src := checkInstance(t, in)
			needZ3(t)
			answers, _ := z3(t, src, time.Minute)
			wantAnswers(t, in, answers)
		})
	}
}

// checkCoverage checks that every family has both statuses in each of its
// logics, and that no two instances share a path.
func checkCoverage(t *testing.T, list []benchgen.Instance) {
	t.Helper()
	seen := map[string]bool{}
	statuses := map[string]map[benchmark.Status]bool{}
	for _, in := range list {
		if seen[in.Path()] {
			t.Errorf("two instances at %s", in.Path())
		}
		seen[in.Path()] = true
		key := filepath.Dir(in.Path())
		if statuses[key] == nil {
			statuses[key] = map[benchmark.Status]bool{}
		}
		for _, s := range in.Statuses {
			statuses[key][s] = true
		}
	}
	want := []string{
		"non-incremental/QF_UF/smtarena-pigeonhole", "non-incremental/QF_LIA/smtarena-pigeonhole",
		"non-incremental/QF_LIA/smtarena-planted", "non-incremental/QF_LRA/smtarena-planted",
		"non-incremental/QF_IDL/smtarena-planted", "non-incremental/QF_RDL/smtarena-planted",
		"non-incremental/QF_LIA/smtarena-queens", "non-incremental/QF_BV/smtarena-queens",
		"non-incremental/QF_BV/smtarena-factor",
		"non-incremental/QF_IDL/smtarena-scheduling", "non-incremental/QF_RDL/smtarena-scheduling",
		"incremental/QF_UF/smtarena-pigeonhole", "incremental/QF_LIA/smtarena-planted", "incremental/QF_LRA/smtarena-planted",
	}
	for _, dir := range want {
		dir = filepath.FromSlash(dir)
		if !statuses[dir][benchmark.Sat] || !statuses[dir][benchmark.Unsat] {
			t.Errorf("%s: statuses %v, want sat and unsat", dir, statuses[dir])
		}
	}
	if len(statuses) != len(want) {
		t.Errorf("%d family directories, want %d", len(statuses), len(want))
	}
}

// TestMedium checks the medium library the same way and logs z3's time per
// instance. It takes minutes, so it runs only with -medium.
func TestMedium(t *testing.T) {
	if !*medium {
		t.Skip("the medium library takes z3 minutes; run with -medium")
	}
	needZ3(t)
	list, err := benchgen.Instances(1, benchgen.Medium)
	if err != nil {
		t.Fatal(err)
	}
	checkCoverage(t, list)
	for _, in := range list {
		t.Run(in.Path(), func(t *testing.T) {
			src := checkInstance(t, in)
			answers, took := z3(t, src, 5*time.Minute)
			wantAnswers(t, in, answers)
			t.Logf("z3 %.2fs %s (%d bytes)", took.Seconds(), in.Path(), len(src))
		})
	}
}

// TestDeterministic checks that a seed gives the same bytes, and another
// seed different ones for the random families.
func TestDeterministic(t *testing.T) {
	gen := func(seed uint64) map[string][]byte {
		list, err := benchgen.Instances(seed, benchgen.Small)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for _, in := range list {
			var b bytes.Buffer
			if err := in.Write(&b); err != nil {
				t.Fatal(err)
			}
			out[in.Path()] = b.Bytes()
		}
		return out
	}
	a, b, c := gen(7), gen(7), gen(8)
	differ := 0
	for p, src := range a {
		if !bytes.Equal(src, b[p]) {
			t.Errorf("%s: two runs with seed 7 differ", p)
		}
		if !bytes.Equal(src, c[p]) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("seeds 7 and 8 give the same library")
	}
}

// TestWriteLibrary writes the small library to a directory.
func TestWriteLibrary(t *testing.T) {
	dir := t.TempDir()
	list, err := benchgen.WriteLibrary(dir, 3, benchgen.Small)
	if err != nil {
		t.Fatal(err)
	}
	files := testenv.Files(t, dir, ".smt2")
	if len(files) != len(list) {
		t.Fatalf("%d files for %d instances", len(files), len(list))
	}
	for _, in := range list {
		var b bytes.Buffer
		if err := in.Write(&b); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, in.Path()))
		if err != nil || !bytes.Equal(got, b.Bytes()) {
			t.Errorf("%s: file differs from Write (%v)", in.Path(), err)
		}
	}
	if _, err := benchgen.Instances(1, "large"); err == nil {
		t.Error("size large accepted")
	}
}

// TestOptionErrors checks that the generators reject what they cannot do.
func TestOptionErrors(t *testing.T) {
	var b bytes.Buffer
	for name, err := range map[string]error{
		"pigeonhole no holes": benchgen.Pigeonhole(&b, benchgen.PigeonholeOptions{Encoding: benchgen.PigeonBool, Pigeons: 2}),
		"pigeonhole encoding": benchgen.Pigeonhole(&b, benchgen.PigeonholeOptions{Encoding: "xor", Pigeons: 2, Holes: 1}),
		"planted logic":       benchgen.Planted(&b, benchgen.PlantedOptions{Logic: "QF_NIA", Vars: 3, Constraints: 3}),
		"planted size":        benchgen.Planted(&b, benchgen.PlantedOptions{Logic: "QF_LIA", Vars: 3}),
		"queens count":        benchgen.Queens(&b, benchgen.QueensOptions{Logic: "QF_LIA", N: 5, Queens: 7}),
		"queens logic":        benchgen.Queens(&b, benchgen.QueensOptions{Logic: "QF_LRA", N: 5, Queens: 5}),
		"factor width":        benchgen.Factor(&b, benchgen.FactorOptions{Width: 40}),
		"scheduling logic":    benchgen.Scheduling(&b, benchgen.SchedulingOptions{Logic: "QF_LIA", Jobs: 3}),
		"trace queries":       benchgen.Trace(&b, benchgen.TraceOptions{Logic: "QF_LIA", Vars: 3}),
		"trace status":        benchgen.Trace(&b, benchgen.TraceOptions{Logic: "QF_LIA", Vars: 3, Queries: []benchmark.Status{"unknown"}}),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestCorpus checks the files of a small corpus as the library's, with z3,
// and that WriteCorpus writes the same bytes whatever the number of workers.
func TestCorpus(t *testing.T) {
	o := benchgen.CorpusOptions{Seed: 4, Files: 40, Bytes: 40 * 4000}
	list, err := benchgen.CorpusInstances(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("files", func(t *testing.T) {
		for _, in := range list {
			t.Run(in.Path(), func(t *testing.T) {
				t.Parallel()
				src := checkInstance(t, in)
				needZ3(t)
				answers, _ := z3(t, src, time.Minute)
				wantAnswers(t, in, answers)
			})
		}
	})
	var dirs []string
	for _, workers := range []int{1, 3} {
		dir := t.TempDir()
		o.Workers = workers
		calls := 0
		o.Progress = func(int, int64) { calls++ }
		st, err := benchgen.WriteCorpus(context.Background(), dir, o)
		if err != nil {
			t.Fatal(err)
		}
		if st.Files != o.Files || calls != o.Files || st.Bytes < o.Bytes*8/10 || st.Bytes > o.Bytes*12/10 {
			t.Errorf("%d workers: %+v after %d progress calls; want %d files of about %d bytes", workers, st, calls, o.Files, o.Bytes)
		}
		dirs = append(dirs, dir)
	}
	for _, in := range list {
		x, err1 := os.ReadFile(filepath.Join(dirs[0], in.Path()))
		y, err2 := os.ReadFile(filepath.Join(dirs[1], in.Path()))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between 1 and 3 workers (%v, %v)", in.Path(), err1, err2)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := benchgen.WriteCorpus(ctx, t.TempDir(), o); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled corpus: %v", err)
	}
	if _, err := benchgen.CorpusInstances(benchgen.CorpusOptions{Files: 0, Bytes: 10}); err == nil {
		t.Error("a corpus of no files accepted")
	}
}

// BenchmarkPlanted measures how fast the corpus families are written, in
// MB/s on one core (without the file system).
func BenchmarkPlanted(b *testing.B) {
	for _, logic := range benchgen.PlantedLogics {
		b.Run(logic, func(b *testing.B) {
			const size = 1 << 20
			b.SetBytes(size)
			for i := range b.N {
				o := benchgen.PlantedOptions{Logic: logic, Seed: uint64(i), Vars: 2000, Bytes: size, Clause: 2, Unsat: true}
				if err := benchgen.Planted(io.Discard, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
