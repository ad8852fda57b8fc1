package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{`<script>alert(1)</script>`, "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{`a "b" 'c' & d`, "a &#34;b&#34; &#39;c&#39; &amp; d"},
		{"</textarea>", "&lt;/textarea&gt;"},
		{"bad \xff\xfe bytes", `bad \xff\xfe bytes`},
		{"nul\x00 bell\x07 del\x7f", `nul\x00 bell\x07 del\x7f`},
		{"tab\tnewline\n", "tab\tnewline\n"},
		{"héllo ✓", "héllo ✓"},
		{"cut \xe2\x9c", `cut \xe2\x9c`},
	} {
		var b bytes.Buffer
		escape(&b, c.in)
		if b.String() != c.want {
			t.Errorf("escape(%q) = %q, want %q", c.in, b.String(), c.want)
		}
	}
}

func TestSlug(t *testing.T) {
	seen := map[string]string{}
	for _, s := range []string{"z3", "cvc5", "QF_BV", "Yices 2.6.2", "Yices_2.6.2", "a/b", "a_b", "<script>", "..", ".hidden", "", strings.Repeat("x", 200)} {
		g := slug(s)
		if prev, dup := seen[g]; dup {
			t.Errorf("slug(%q) = slug(%q) = %q", s, prev, g)
		}
		seen[g] = s
		if g == "" || strings.ContainsAny(g, "/<>\"' ") || strings.HasPrefix(g, ".") || len(g) > 100 {
			t.Errorf("slug(%q) = %q: not a safe file name", s, g)
		}
	}
}

// results makes n benchmarks of a division run by the solvers; solver k
// solves benchmark i unless (i+k)%5 == 0, and the last solver answers sat
// to everything.
func results(n int, solvers []string) []store.Result {
	var out []store.Result
	for i := 0; i < n; i++ {
		exp := []string{"sat", "unsat"}[i%2]
		for k, s := range solvers {
			r := store.Result{ID: int64(len(out) + 1), Solver: s, BenchmarkPath: fmt.Sprintf("non-incremental/QF_UF/f/b%05d.smt2", i),
				Status: "complete", Answer: exp, Expected: exp, CPU: float64(i%50) / 10, Wall: float64(i%50)/10 + 0.1,
				Extra: `{"division":"QF_Equality","validator":"` + []string{"VALID", "INVALID"}[i%2] + `"}`, SourceKey: fmt.Sprint("pair:", len(out)+1)}
			if (i+k)%5 == 0 {
				r.Status, r.Answer, r.Wall = "timeout", "unknown", 20
			}
			if k == len(solvers)-1 {
				r.Answer, r.Status = "sat", "complete"
			}
			out = append(out, r)
		}
	}
	return out
}

func TestSiteFiles(t *testing.T) {
	solvers := []string{"a", "b<i>", "c"}
	rs := results(2500, solvers)
	site := Build(&Input{Title: "t <x>", Tracks: []Track{{Track: benchmark.SingleQuery, Results: rs, TimeLimit: 20}}})
	dir := t.TempDir()
	st, err := site.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != len(site.Paths()) || st.LargestBytes > 1<<20 {
		t.Errorf("stats %+v for %d paths", st, len(site.Paths()))
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// 7,500 results of one division: listed 1,000 to a page
	if !strings.Contains(read("t/single-query/QF_Equality/results-8.html"), "page 8 of 8") {
		t.Error("the division's results are not on 8 pages")
	}
	if _, err := os.Stat(filepath.Join(dir, "t/single-query/QF_Equality/results-9.html")); err == nil {
		t.Error("a ninth page of results")
	}
	// benchmarks 25 to a page: 100 pages
	if n := len(regexp.MustCompile(`<section class="bench"`).FindAllString(read("b/0/99.html"), -1)); n != 25 {
		t.Errorf("%d benchmarks on the last page", n)
	}
	// the hostile solver name is escaped everywhere it is written
	for _, p := range site.Paths() {
		if strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".svg") {
			if strings.Contains(read(p), "b<i>") {
				t.Errorf("%s holds the solver's name unescaped", p)
			}
		}
	}
	// the cactus plots: one vertex per solved benchmark
	cactus := read("t/single-query/QF_Equality/cactus-cpu.svg")
	for k, s := range solvers {
		solved := 0
		for i := 0; i < 2500; i++ {
			if k < len(solvers)-1 && (i+k)%5 != 0 || k == len(solvers)-1 && i%2 == 0 {
				solved++
			}
		}
		var b bytes.Buffer
		escape(&b, s)
		m := regexp.MustCompile(`data-solver="` + regexp.QuoteMeta(b.String()) + `" data-solved="(\d+)" data-step="1" points="([^"]*)"`).FindStringSubmatch(cactus)
		if m == nil {
			t.Errorf("no cactus line of %s", s)
			continue
		}
		if m[1] != fmt.Sprint(solved) || len(strings.Fields(m[2])) != solved {
			t.Errorf("cactus line of %s: data-solved %s, %d vertices; solved %d", s, m[1], len(strings.Fields(m[2])), solved)
		}
	}
	// the wrong answers: the last solver's sat on the unsat half
	if !strings.Contains(read("wrong.html"), "1250 rows.") {
		t.Error("wrong.html does not list 1250 wrong answers")
	}
	// a track's own columns show generically, counted per solver
	div := read("t/single-query/QF_Equality.html")
	if !strings.Contains(div, "<td>validator</td><td>INVALID</td>") {
		t.Error("the division page does not count the validator column")
	}
	// the heavy pages are the whole-division ones, not the listings
	heavy := strings.Join(site.Heavy(), " ")
	if !strings.Contains(heavy, "t/single-query/QF_Equality.html") || strings.Contains(heavy, "results-2.html") || strings.Contains(heavy, "b/0/") {
		t.Errorf("heavy pages: %s", heavy)
	}
}

// TestCactusSampled: a line of more points than the cap shows an even
// sample, and says how many there are.
func TestCactusSampled(t *testing.T) {
	rs := results(30000, []string{"a", "b", "c"})
	site := Build(&Input{Tracks: []Track{{Track: benchmark.SingleQuery, Results: rs}}})
	b, ok := site.Render("t/single-query/QF_Equality/cactus-wall.svg")
	if !ok {
		t.Fatal("no cactus plot")
	}
	// three lines share 60,000 vertices: a's 24,000 solved show every other
	m := regexp.MustCompile(`data-solver="a" data-solved="(\d+)" data-step="(\d+)" points="([^"]*)"`).FindSubmatch(b)
	if m == nil || string(m[1]) != "24000" || string(m[2]) != "2" || len(strings.Fields(string(m[3]))) != 12000 {
		t.Errorf("sampled line: %q", m)
	}
	if len(b) > 1<<20 {
		t.Errorf("plot of %d bytes", len(b))
	}
}

func TestOutputFile(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"outputs/single-query/1.out", true}, {"outputs/incremental/2.out.gz", true}, {"proofs/proof/3.out.gz", true},
		{"", false}, {"smtarena.db", false}, {"/etc/passwd", false}, {"outputs/../smtarena.db", false}, {"../outputs/1.out", false},
		{"outputs//1.out", false}, {"outputs/./1.out", false}, {`outputs\..\x`, false}, {"inputs/single-query/a.smt2", false},
	} {
		if _, ok := OutputFile(c.in); ok != c.ok {
			t.Errorf("OutputFile(%q) ok = %v, want %v", c.in, ok, c.ok)
		}
	}
}

// TestSiteOutputs writes a site whose pairs kept their outputs: the pair
// links its own (the file in the site equals the kept one), shows its
// limits, and a pair whose file is gone, or names one outside the outputs,
// links none.
func TestSiteOutputs(t *testing.T) {
	work, dir := t.TempDir(), t.TempDir()
	out := []byte("sat\n\xff\xfe<b>\n")
	os.MkdirAll(filepath.Join(work, "outputs", "single-query"), 0o755)
	os.WriteFile(filepath.Join(work, "outputs", "single-query", "1.out"), out, 0o644)
	os.WriteFile(filepath.Join(work, "secret"), []byte("secret"), 0o644)
	res := func(solver, extra string) store.Result {
		return store.Result{Solver: solver, BenchmarkPath: "non-incremental/QF_UF/a.smt2", Status: "complete", Answer: "sat", Expected: "sat",
			Extra: `{"division":"QF_Equality",` + extra + `}`}
	}
	in := &Input{Title: "t", WorkDir: work, Tracks: []Track{{Track: benchmark.SingleQuery, Results: []store.Result{
		res("a", `"output_file":"outputs/single-query/1.out","output_size":10,"limits":{"cpu":20,"wall":25.5,"memory_mb":2048,"output_mb":64,"cores":2}`),
		res("b", `"output_file":"outputs/single-query/2.out","output_size":3`),
		res("c", `"output_file":"secret","output_size":6`),
	}}}}
	if _, err := Build(in).Write(dir); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "b", "0", "0.html"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`<p class="download"><a href="([^"]*)">`).FindAllStringSubmatch(string(page), -1)
	if len(links) != 1 || links[0][1] != "../../files/outputs/single-query/1.out" {
		t.Fatalf("download links %v; want one, to a's output", links)
	}
	got, err := os.ReadFile(filepath.Join(dir, "files", "outputs", "single-query", "1.out"))
	if err != nil || !bytes.Equal(got, out) {
		t.Errorf("the site's copy: %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "files", "secret")); err == nil {
		t.Error("a file outside the outputs was copied into the site")
	}
	if !strings.Contains(string(page), "<dt>limits</dt><dd>CPU 20 s, wall 25.5 s, memory 2048 MB, output 64 MB, cores 2</dd>") {
		t.Errorf("the pair's limits are not shown:\n%s", page)
	}
	// without a work directory (imported data): no link, no files
	in.WorkDir = ""
	dir2 := t.TempDir()
	if _, err := Build(in).Write(dir2); err != nil {
		t.Fatal(err)
	}
	page, _ = os.ReadFile(filepath.Join(dir2, "b", "0", "0.html"))
	if strings.Contains(string(page), `class="download"`) {
		t.Error("a site without a work directory links an output")
	}
	if _, err := os.Stat(filepath.Join(dir2, "files")); err == nil {
		t.Error("a site without a work directory has files/")
	}
}
