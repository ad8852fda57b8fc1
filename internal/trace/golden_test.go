package trace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/testenv"
)

// goldenRow is one line of ../shared/trace-golden/index.tsv: a run of the
// official executor (2024 version) and what it printed.
type goldenRow struct {
	input, solver, flags, output string
	status                       int
}

func goldenRows(t *testing.T) (string, []goldenRow) {
	dir := testenv.Shared(t, "trace-golden")
	data, err := os.ReadFile(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []goldenRow
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 {
			continue
		}
		if len(f) != 5 {
			t.Fatalf("index.tsv:%d: %d fields", i+1, len(f))
		}
		st, err := strconv.Atoi(f[4])
		if err != nil {
			t.Fatalf("index.tsv:%d: %v", i+1, err)
		}
		rows = append(rows, goldenRow{f[0], f[1], f[2], f[3], st})
	}
	if len(rows) == 0 {
		t.Fatal("index.tsv has no rows")
	}
	return dir, rows
}

// goldenTimeout ends the runs that the official executor never ends.
const goldenTimeout = time.Second

// TestGolden runs every row of the golden data through the executor, with
// plain pipes and (as root) in the sandbox, and compares the output byte for
// byte and the exit status. The official executor waits for ever for a
// solver that never says success (exit status 124 in the data: GNU timeout
// killed it after 60 s); ours ends such a run at its limit, here 1 s, with
// exit status ExitLimit, which is 124 too, and prints nothing more.
func TestGolden(t *testing.T) {
	dir, rows := goldenRows(t)
	for _, bin := range []string{"z3", "cvc5"} {
		if _, err := exec.LookPath(bin); err != nil {
			testenv.Skipf(t, "the golden solver scripts need %s: %v", bin, err)
		}
	}
	for _, cn := range connectors(t) {
		var matched atomic.Int32
		t.Run(cn.name, func(t *testing.T) {
			for _, row := range rows {
				name := row.solver + "/" + strings.TrimPrefix(strings.TrimPrefix(row.input, "inputs/"), "incremental/") + row.flags
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					in, err := Open(filepath.Join(dir, row.input))
					if err != nil {
						t.Fatal(err)
					}
					defer in.Close()
					want, err := os.ReadFile(filepath.Join(dir, row.output))
					if err != nil {
						t.Fatal(err)
					}
					wall := 60 * time.Second
					if row.status == 124 {
						wall = goldenTimeout
					}
					var out strings.Builder
					solver := filepath.Join(dir, "solvers", row.solver+".sh")
					res := Run(cn.start(t, []string{solver}, nil, wall), in, Options{Out: &out, ContinueAfterUnknown: row.flags == "--continue-after-unknown"})
					ok := true
					if out.String() != string(want) {
						t.Errorf("output differs:\n got %q\nwant %q", out.String(), want)
						ok = false
					}
					if code := res.ExitCode(); code != row.status {
						t.Errorf("exit status %d, want %d (%s, solver %s)", code, row.status, res.Status, res.Solver.Reason)
						ok = false
					}
					if ok {
						matched.Add(1)
					}
				})
			}
		})
		t.Logf("%s: %d of %d golden rows match (output byte for byte, exit status)", cn.name, matched.Load(), len(rows))
	}
}
