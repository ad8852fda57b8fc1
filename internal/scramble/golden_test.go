package scramble

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// goldenRow is one line of scrambler-golden/index.tsv: one run of the
// official scrambler.
type goldenRow struct {
	track, input, output, stderr string
	seed                         uint64
	exit                         int
}

func readGoldenIndex(t testing.TB, dir string) []goldenRow {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []goldenRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 5 {
			t.Fatalf("index.tsv: bad line %q", sc.Text())
		}
		seed, _ := strconv.ParseUint(c[1], 10, 64)
		exit, _ := strconv.Atoi(c[4])
		r := goldenRow{track: c[0], seed: seed, input: c[2], output: c[3], exit: exit}
		if len(c) > 5 {
			r.stderr = c[5]
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// goldenRun turns a row into options and input as the golden README says
// the official scrambler was run.
func goldenRun(t testing.TB, shared string, r goldenRow) (Options, string, error) {
	o := Options{Seed: r.seed, Annot: AnnotPattern}
	input := filepath.Join(shared, "benchmarks", r.input)
	switch r.track {
	case "single-query", "no-scramble":
	case "count-asserts":
		o.Annot, o.CountAsserts = AnnotAll, true
	case "unsat-core":
		o.Track = UnsatCore
	case "proof":
		o.Track = Proof
	case "model-validation":
		o.Track = ModelValidation
	case "incremental-with-status-header":
		o.Track, o.StatusHeader = Incremental, true
	case "core":
		in, answer, ok := strings.Cut(r.input, " + ")
		if !ok {
			return o, "", fmt.Errorf("core row without an answer: %q", r.input)
		}
		input = filepath.Join(shared, in)
		f, err := os.Open(filepath.Join(shared, "scrambler-golden", answer))
		if err != nil {
			return o, "", err
		}
		defer f.Close()
		core, err := ParseCore(f)
		if err != nil {
			return o, "", err
		}
		o.Annot, o.Core = AnnotNone, core
	default:
		return o, "", fmt.Errorf("unknown track %q", r.track)
	}
	return o, input, nil
}

// TestGolden scrambles every input of the golden set with the settings of
// each official run and compares the bytes, or the failure.
func TestGolden(t *testing.T) {
	golden := testenv.Shared(t, "scrambler-golden")
	shared := filepath.Dir(golden)
	rows := readGoldenIndex(t, golden)
	type tally struct{ match, total int }
	counts := map[string]*tally{}
	var failures []string
	for _, r := range rows {
		key := fmt.Sprintf("%s/seed-%d", r.track, r.seed)
		if counts[key] == nil {
			counts[key] = &tally{}
		}
		counts[key].total++
		msg := checkGolden(t, shared, golden, r)
		if msg == "" {
			counts[key].match++
			continue
		}
		failures = append(failures, key+" "+r.input+": "+msg)
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	all, match := 0, 0
	for _, k := range keys {
		t.Logf("%-40s %4d / %4d match", k, counts[k].match, counts[k].total)
		all += counts[k].total
		match += counts[k].match
	}
	t.Logf("%-40s %4d / %4d match", "all", match, all)
	for i, f := range failures {
		if i == 20 {
			t.Errorf("... and %d more", len(failures)-20)
			break
		}
		t.Error(f)
	}
}

func checkGolden(t *testing.T, shared, golden string, r goldenRow) string {
	o, input, err := goldenRun(t, shared, r)
	if err != nil {
		return err.Error()
	}
	f, err := os.Open(input)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	var out bytes.Buffer
	res, err := Scramble(&out, f, input, o)
	if r.exit != 0 {
		var rej *RejectError
		if !errors.As(err, &rej) {
			return fmt.Sprintf("the official scrambler exits %d (%s); we give %v", r.exit, r.stderr, err)
		}
		return ""
	}
	if err != nil {
		return "unexpected error: " + err.Error()
	}
	want, err := os.ReadFile(filepath.Join(golden, r.output))
	if err != nil {
		return err.Error()
	}
	if o.CountAsserts {
		if w := fmt.Sprintf("; Number of assertions: %d", res.Asserts); strings.TrimSpace(r.stderr) != w {
			return fmt.Sprintf("count: got %q, want %q", w, r.stderr)
		}
	}
	if !bytes.Equal(out.Bytes(), want) {
		return firstDiff(out.Bytes(), want)
	}
	return ""
}

// firstDiff describes where got and want part.
func firstDiff(got, want []byte) string {
	gl := strings.SplitAfter(string(got), "\n")
	wl := strings.SplitAfter(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Sprintf("line %d differs:\n  got:  %.300q\n  want: %.300q", i+1, g, w)
		}
	}
	return "differs"
}
