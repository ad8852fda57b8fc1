package model

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/benchgen"
	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/smtarena/smtarena/internal/testenv"
)

// The figures of issue 15, printed by `make bench`:
//   - validation of the generated 100 MB QF_LIA benchmark (parse included)
//     with a model of its 2000 variables, MB/s on one core, and the peak
//     heap per byte of benchmark (peak-bytes/src-byte);
//   - z3 deciding the same benchmark with the model's definitions in place
//     of the declarations (z3-s), and how many times faster the validator
//     is (x-faster-than-z3);
//   - the same side by side on the shared sat QF_BV and QF_LRA benchmarks
//     with z3's own models.
// SMTARENA_BENCH_MB changes the size of the generated file.

var (
	bigOnce sync.Once
	bigSrc  []byte
)

const benchVars = 2000

func bigQFLIA() []byte {
	bigOnce.Do(func() {
		mb := 100
		if v, err := strconv.Atoi(os.Getenv("SMTARENA_BENCH_MB")); err == nil && v > 0 {
			mb = v
		}
		var buf bytes.Buffer
		buf.Grow(mb<<20 + 1<<16)
		if err := benchgen.GenerateQFLIA(&buf, benchgen.QFLIAOptions{Seed: 1, Bytes: int64(mb) << 20, Vars: benchVars}); err != nil {
			panic(err)
		}
		bigSrc = buf.Bytes()
	})
	return bigSrc
}

// benchModel is a model of x_0 ... x_1999: small values of both signs.
func benchModel() []byte {
	var b bytes.Buffer
	b.WriteString("sat\n(\n")
	for i := range benchVars {
		v := i%21 - 10
		if v < 0 {
			fmt.Fprintf(&b, "  (define-fun x_%d () Int (- %d))\n", i, -v)
		} else {
			fmt.Fprintf(&b, "  (define-fun x_%d () Int %d)\n", i, v)
		}
	}
	b.WriteString(")\n")
	return b.Bytes()
}

// peakHeap samples the heap while f runs and returns the peak above the
// heap before it.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	f()
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > peak.Load() {
		peak.Store(ms.HeapInuse)
	}
	close(done)
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

func BenchmarkValidateQFLIA(b *testing.B) {
	src := bigQFLIA()
	resp := benchModel()
	var res Result
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	cpu0 := testenv.CPUTime()
	for b.Loop() {
		var err error
		res, err = Validate(context.Background(), "gen.smt2", bytes.NewReader(src), "model", bytes.NewReader(resp), Options{})
		if err != nil || res.Verdict == Unknown {
			b.Fatal(res, err)
		}
	}
	b.StopTimer()
	// On a machine shared with other work, the CPU time the validation
	// used says more than the wall clock.
	cpu := testenv.CPUTime() - cpu0
	b.ReportMetric(float64(len(src))*float64(b.N)/(1<<20)/cpu.Seconds(), "cpu-MB/s")
	peak := peakHeap(func() {
		Validate(context.Background(), "gen.smt2", bytes.NewReader(src), "model", bytes.NewReader(resp), Options{})
	})
	b.ReportMetric(float64(peak)/float64(len(src)), "peak-bytes/src-byte")
	b.ReportMetric(float64(len(src))/(1<<20), "src-MB")
	b.ReportMetric(float64(res.Assertions), "assertions")
	b.ReportMetric(float64(res.False), "false")
	if _, err := exec.LookPath("z3"); err != nil || os.Getenv("SMTARENA_BENCH_NO_Z3") != "" {
		return
	}
	// z3 on the benchmark with the model's definitions for its declarations.
	dir := b.TempDir()
	withDefs := declRE.ReplaceAllFunc(src, func(m []byte) []byte {
		i, _ := strconv.Atoi(string(declRE.FindSubmatch(m)[1]))
		v := i%21 - 10
		if v < 0 {
			return fmt.Appendf(nil, "(define-fun x_%d () Int (- %d))", i, -v)
		}
		return fmt.Appendf(nil, "(define-fun x_%d () Int %d)", i, v)
	})
	f := filepath.Join(dir, "defs.smt2")
	if err := os.WriteFile(f, withDefs, 0o644); err != nil {
		b.Fatal(err)
	}
	res1, c1 := time.Now(), testenv.CPUTime()
	Validate(context.Background(), "gen.smt2", bytes.NewReader(src), "model", bytes.NewReader(resp), Options{})
	ours, ourCPU := time.Since(res1), testenv.CPUTime()-c1
	start := time.Now()
	cmd := exec.Command("z3", f)
	out, _ := cmd.CombinedOutput()
	z3 := time.Since(start)
	b.ReportMetric(z3.Seconds(), "z3-s")
	b.ReportMetric(z3.Seconds()/ours.Seconds(), "x-faster-than-z3")
	if cmd.ProcessState != nil {
		z3cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		b.ReportMetric(z3cpu.Seconds()/ourCPU.Seconds(), "x-faster-than-z3-cpu")
	}
	b.Logf("z3 said %q in %.1f s; the validator said %s in %.2f s", bytes.TrimSpace(out), z3.Seconds(), res, ours.Seconds())
	// The same as whole processes: smtarena validate-model as make builds
	// it, start-up and reading the files included, CPU from the kernel.
	bench, model := filepath.Join(dir, "gen.smt2"), filepath.Join(dir, "model.out")
	if err := os.WriteFile(bench, src, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(model, resp, 0o644); err != nil {
		b.Fatal(err)
	}
	vcmd := exec.Command(buildSmtarena(b), "validate-model", bench, model)
	start = time.Now()
	vout, err := vcmd.Output()
	procWall := time.Since(start)
	if err != nil || !bytes.HasPrefix(vout, []byte(res.String())) {
		b.Fatalf("validate-model: %v %q", err, vout)
	}
	procCPU := vcmd.ProcessState.UserTime() + vcmd.ProcessState.SystemTime()
	b.ReportMetric(procWall.Seconds(), "process-s")
	b.ReportMetric(z3.Seconds()/procWall.Seconds(), "x-faster-than-z3-process")
	if cmd.ProcessState != nil {
		z3cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		b.ReportMetric(z3cpu.Seconds()/procCPU.Seconds(), "x-faster-than-z3-process-cpu")
	}
}

var declRE = regexp.MustCompile(`\(declare-fun x_(\d+) \(\) Int\)`)

// sharedItem is a shared sat benchmark with z3's model of it and z3's
// check script (the benchmark with the model's definitions asserted).
type sharedItem struct {
	bench, resp, check string
}

// sharedItems are the shared sat benchmarks of logic that z3 answers with
// a model; SMTARENA_BENCH_DUMP=DIR also writes them out (N.smt2, N.out,
// N.check.smt2), for timing the two as whole processes with other tools.
func sharedItems(b *testing.B, logic string) []sharedItem {
	root := testenv.Shared(b, "benchmarks/non-incremental/"+logic)
	dir := b.TempDir()
	var items []sharedItem
	for _, f := range testenv.Files(b, root, ".smt2") {
		meta, err := smtlib.ScanMetaFile(f)
		if err != nil || meta.Status != "sat" {
			continue
		}
		out := runSolver(b, "z3", modelInput(b, f))
		if !bytes.HasPrefix(out, []byte("sat")) || z3Timeout.Match(out) {
			continue
		}
		check := z3CheckScript(b, f, out)
		if check == "" {
			continue
		}
		base := filepath.Join(dir, logic+"-"+strconv.Itoa(len(items)+1))
		it := sharedItem{f, base + ".out", base + ".check.smt2"}
		if err := os.WriteFile(it.resp, out, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(it.check, []byte(check), 0o644); err != nil {
			b.Fatal(err)
		}
		items = append(items, it)
		if dump := os.Getenv("SMTARENA_BENCH_DUMP"); dump != "" {
			name := filepath.Join(dump, filepath.Base(base))
			src, _ := os.ReadFile(f)
			os.WriteFile(name+".smt2", src, 0o644)
			os.WriteFile(name+".out", out, 0o644)
			os.WriteFile(name+".check.smt2", []byte(check), 0o644)
		}
	}
	return items
}

// BenchmarkValidateShared: the validator beside z3 on the shared sat QF_BV
// and QF_LRA benchmarks, with z3's models: total times over the files.
// "in-process" calls Validate (the validator's own time) against z3 run as
// a process; "process" runs `smtarena validate-model` as a process per
// file, as the track does, built as `make build` builds it, against z3
// per file: both start-ups included, CPU times from the kernel.
func BenchmarkValidateShared(b *testing.B) {
	if _, err := exec.LookPath("z3"); err != nil {
		testenv.Skipf(b, "needs z3: %v", err)
	}
	bin := buildSmtarena(b)
	for _, logic := range []string{"QF_BV", "QF_LRA"} {
		items := sharedItems(b, logic)
		b.Run(logic+"/in-process", func(b *testing.B) {
			var ours, theirs time.Duration
			for b.Loop() {
				for _, it := range items {
					src, _ := os.ReadFile(it.bench)
					resp, _ := os.ReadFile(it.resp)
					start := time.Now()
					res, err := Validate(context.Background(), it.bench, bytes.NewReader(src), "z3", bytes.NewReader(resp), Options{})
					ours += time.Since(start)
					if err != nil || res.Verdict != Valid {
						b.Fatalf("%s: %s %v", it.bench, res, err)
					}
					start = time.Now()
					exec.Command("z3", it.check).Run()
					theirs += time.Since(start)
				}
			}
			b.ReportMetric(float64(len(items)), "files")
			b.ReportMetric(ours.Seconds()/float64(b.N), "validator-s")
			b.ReportMetric(theirs.Seconds()/float64(b.N), "z3-s")
			b.ReportMetric(theirs.Seconds()/ours.Seconds(), "x-faster-than-z3")
		})
		b.Run(logic+"/process", func(b *testing.B) {
			var ourWall, theirWall, ourCPU, theirCPU time.Duration
			run := func(wall, cpu *time.Duration, name string, args ...string) {
				cmd := exec.Command(name, args...)
				start := time.Now()
				out, err := cmd.Output()
				*wall += time.Since(start)
				if err != nil {
					b.Fatalf("%s %v: %v %s", name, args, err, out)
				}
				*cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			for b.Loop() {
				for _, it := range items {
					run(&ourWall, &ourCPU, bin, "validate-model", it.bench, it.resp)
					run(&theirWall, &theirCPU, "z3", it.check)
				}
			}
			n := float64(b.N)
			b.ReportMetric(ourWall.Seconds()/n, "validator-s")
			b.ReportMetric(theirWall.Seconds()/n, "z3-s")
			b.ReportMetric(theirWall.Seconds()/ourWall.Seconds(), "x-faster-than-z3")
			b.ReportMetric(theirCPU.Seconds()/ourCPU.Seconds(), "x-faster-than-z3-cpu")
		})
	}
}

// buildSmtarena builds the binary as `make build` does (static, with the
// Makefile's tags) into a temporary directory.
func buildSmtarena(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "smtarena")
	cmd := exec.Command("go", "build", "-tags", "netgo,osusergo,sqlite_omit_load_extension",
		"-ldflags", "-linkmode external -extldflags -static", "-o", bin, "../../cmd/smtarena")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build smtarena: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkValidateSharedFiles validates each shared sat QF_BV and QF_LRA
// benchmark with z3's model of it on its own (Validate in process, files
// read beforehand), for time and allocations per file: the files with big
// models (QF_BV-10 and QF_BV-11) show the cost of reading and evaluating
// them, the small ones the fixed cost of a validation.
func BenchmarkValidateSharedFiles(b *testing.B) {
	if _, err := exec.LookPath("z3"); err != nil {
		testenv.Skipf(b, "needs z3: %v", err)
	}
	for _, logic := range []string{"QF_BV", "QF_LRA"} {
		for k, it := range sharedItems(b, logic) {
			src, err := os.ReadFile(it.bench)
			if err != nil {
				b.Fatal(err)
			}
			resp, err := os.ReadFile(it.resp)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s-%d", logic, k+1), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src) + len(resp)))
				cpu0 := testenv.CPUTime()
				for b.Loop() {
					res, err := Validate(context.Background(), it.bench, bytes.NewReader(src), "z3", bytes.NewReader(resp), Options{})
					if err != nil || res.Verdict != Valid {
						b.Fatalf("%s: %s %v", it.bench, res, err)
					}
				}
				// CPU time (garbage collection included) says more than the
				// wall clock on a shared machine.
				b.ReportMetric(float64((testenv.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
