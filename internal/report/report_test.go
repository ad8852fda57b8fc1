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
