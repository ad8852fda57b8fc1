package main

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// hostileOutput is what the hostile solver prints before its answer: markup,
// a textarea end and invalid UTF-8; after it, 5,000 NUL bytes (70,000 on
// the unsat benchmarks: an output kept compressed) and more markup, in the
// tail of its output.
const hostileOutput = `<script>alert(1)</script>\n</textarea><img src=x onerror=alert(2)>\n\377\376 bad bytes\n`

// siteCompetition writes a competition of z3, cvc5 and a solver that
// prints hostile output and always answers sat (wrong on the unsat half);
// delay slows the solvers down (the live test).
func siteCompetition(t *testing.T, dir string, n int, delay string) string {
	t.Helper()
	needRootForRuns(t)
	for _, s := range []string{"z3", "cvc5"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
	writeLibrary(t, filepath.Join(dir, "lib"), n)
	def := filepath.Join(dir, "c.toml")
	src := fmt.Sprintf(`name = "site <test> & \"co\""
rules = 2022
library = ["lib"]
[seed]
value = 7
[tracks.single-query]
cpu_limit = "10s"
wall_limit = "20s"
memory_mb = 1024
[[solvers]]
name = "z3"
team = "<b>Team</b>"
tracks = ["single-query"]
logics = ["QF_UF"]
command = ["sh", "-c", "sleep %[1]s; exec z3 \"$1\"", "z3", "{file}"]
[[solvers]]
name = "cvc5"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["sh", "-c", "sleep %[1]s; exec cvc5 \"$1\"", "cvc5", "{file}"]
[[solvers]]
name = "evil<script>alert(3)</script>"
tracks = ["single-query"]
logics = ["QF_.*"]
command = ["sh", "-c", "n=5000; grep -q not \"$1\" && n=70000; sleep %[1]s; printf '%[2]s'; echo sat; head -c $n /dev/zero | tr '\\\\0' x; printf '\\\\n<script>alert(4)</script>\\\\n'", "evil", "{file}"]
`, delay, strings.ReplaceAll(hostileOutput, `\`, `\\`))
	if err := os.WriteFile(def, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return def
}

// browser starts headless Chromium.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		testenv.Skipf(t, "needs chromium (apt-get install chromium; scripts/install-deps.sh installs it): %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1300, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// watcher records what a page does that it must not: console errors,
// exceptions, dialogs (an alert from injected script) and requests outside
// the site.
type watcher struct {
	mu       sync.Mutex
	site     string // URL prefix of the site
	problems []string
}

func watch(ctx context.Context, site string) *watcher {
	w := &watcher{site: site}
	_ = chromedp.Listen(ctx, func(ev any) {
		var p string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				p = fmt.Sprintf("console %s: %s", ev.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			p = "exception: " + ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				p += " " + ev.ExceptionDetails.Exception.Description
			}
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				p = fmt.Sprintf("log error: %s %s", ev.Entry.Text, ev.Entry.URL)
			}
		case *page.EventJavascriptDialogOpening:
			p = "dialog opened: " + ev.Message
			go func() {
				_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
			}()
		case *network.EventRequestWillBeSent:
			u := ev.Request.URL
			if !strings.HasPrefix(u, w.site) && !strings.HasPrefix(u, "data:") {
				p = "request outside the site: " + u
			}
		}
		if p != "" {
			w.mu.Lock()
			w.problems = append(w.problems, p)
			w.mu.Unlock()
		}
	})
	return w
}

func (w *watcher) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.problems
	w.problems = nil
	return p
}

// artifacts is where the browser tests save screenshots.
func artifacts(t *testing.T) string {
	dir := os.Getenv("SMTARENA_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(testenv.Root(), "out", "test-artifacts")
	}
	dir = filepath.Join(dir, "site")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(artifacts(t), name+".png")
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Error(err)
	}
	t.Logf("screenshot: %s", p)
}

// TestSiteBrowser runs a small competition with real solvers and a hostile
// one, publishes it with smtarena report, and reads every page of the site
// in headless Chromium from file://.
func TestSiteBrowser(t *testing.T) {
	dir := t.TempDir()
	def := siteCompetition(t, dir, 8, "0")
	ctx := browser(t)
	if code, out, errs := runCLI(t, "", "compete", "--quiet", def); code != 0 {
		t.Fatalf("compete: %d\n%s\n%s", code, out, errs)
	}
	siteDir := filepath.Join(dir, "site")
	code, out, errs := runCLI(t, "", "report", "--config", def, "--out", siteDir)
	if code != 0 || !strings.Contains(out, "open file://") {
		t.Fatalf("report: %d\n%s\n%s", code, out, errs)
	}
	base := "file://" + siteDir + "/"
	w := watch(ctx, base)
	// The watcher sees what it must: a page outside the site with an
	// outside request, a console error and a broken image.
	control := filepath.Join(dir, "control.html")
	os.WriteFile(control, []byte(`<!DOCTYPE html><html><head><link rel="icon" href="data:,"></head><body><img src="http://192.0.2.1/x.png"><img src="missing.png"><script>console.error("boom")</script></body></html>`), 0o644)
	do(t, ctx, chromedp.Navigate("file://"+control))
	time.Sleep(500 * time.Millisecond)
	if got := strings.Join(w.take(), "\n"); !strings.Contains(got, "request outside the site: http://192.0.2.1/x.png") || !strings.Contains(got, "boom") {
		t.Errorf("the watcher missed the control page's faults:\n%s", got)
	}
	browseSite(t, ctx, w, siteDir, 12)

	st := openCompeteStore(t, def)
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	checkPlots(t, ctx, base, siteDir, rs)
	checkTables(t, ctx, base, w)
	checkHostile(t, ctx, base, siteDir, rs, w)
	checkDownloads(t, ctx, base, siteDir, rs)
	for _, shot := range []struct{ name, page string }{
		{"overview", "index.html"}, {"division", "t/single-query/QF_Equality.html"}, {"solvers", "solvers.html"},
		{"wrong", "wrong.html"}, {"track", "t/single-query/index.html"},
	} {
		do(t, ctx, chromedp.Navigate(base+shot.page), chromedp.WaitReady("body"))
		screenshot(t, ctx, shot.name)
	}
}

// checkPlots counts the marks of each cactus plot: one vertex per solved
// benchmark of each solver (a correct sat or unsat answer, as the store
// holds it).
func checkPlots(t *testing.T, ctx context.Context, base, siteDir string, rs []store.Result) {
	solved := map[string]int{}
	for _, r := range rs {
		if (r.Answer == "sat" || r.Answer == "unsat") && !isWrong(r) && r.Status != "timeout" && r.Status != "memout" {
			solved[r.Solver]++
		}
	}
	for _, plot := range []string{"cactus-cpu.svg", "cactus-wall.svg"} {
		do(t, ctx, chromedp.Navigate(base+"t/single-query/QF_Equality/"+plot), chromedp.WaitReady("svg"))
		lines := eval[[]struct {
			Solver string `json:"solver"`
			Solved string `json:"solved"`
			Points int    `json:"points"`
		}](t, ctx, `Array.from(document.querySelectorAll('polyline.cactus')).map(p => ({solver: p.dataset.solver, solved: p.dataset.solved, points: p.points.numberOfItems}))`)
		if len(lines) != 3 {
			t.Errorf("%s: %d lines, want one per solver (3)", plot, len(lines))
		}
		for _, l := range lines {
			if l.Points != solved[l.Solver] || l.Solved != strconv.Itoa(solved[l.Solver]) {
				t.Errorf("%s: %s has %d marks (data-solved %s), solved %d benchmarks", plot, l.Solver, l.Points, l.Solved, solved[l.Solver])
			}
		}
	}
	// The default scatter plot (the best two solvers): one mark per
	// benchmark both ran (here every one of the 8).
	do(t, ctx, chromedp.Navigate(base+"t/single-query/QF_Equality.html"), chromedp.WaitReady("#scatter-img"))
	src := eval[string](t, ctx, `document.getElementById('scatter-img').src`)
	do(t, ctx, chromedp.Navigate(src), chromedp.WaitReady("svg"))
	marks := eval[int](t, ctx, `document.querySelectorAll('.marks circle, .marks path').length`)
	if marks != 8 {
		t.Errorf("scatter %s: %d marks, want 8", src, marks)
	}
}

// checkTables sorts a table by a column and filters another.
func checkTables(t *testing.T, ctx context.Context, base string, w *watcher) {
	col := `Array.from(document.querySelectorAll('#counts tbody tr')).map(r => r.cells[2].textContent)`
	do(t, ctx, chromedp.Navigate(base+"t/single-query/QF_Equality.html"), chromedp.WaitReady("#counts"))
	before := eval[[]string](t, ctx, col)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#counts thead th:nth-child(3)`)))
	after := eval[[]string](t, ctx, col)
	nums := func(ss []string) []float64 {
		var out []float64
		for _, s := range ss {
			f, _ := strconv.ParseFloat(s, 64)
			out = append(out, f)
		}
		return out
	}
	if a := nums(after); !sort.Float64sAreSorted(a) || len(a) != 3 {
		t.Errorf("sorted by solved: %v (before %v)", after, before)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#counts thead th:nth-child(3)`)))
	desc := eval[[]string](t, ctx, col)
	if d := nums(desc); len(d) != 3 || d[0] < d[2] {
		t.Errorf("sorted again (descending): %v", desc)
	}
	do(t, ctx, chromedp.Navigate(base+"solvers.html"), chromedp.WaitReady("#solvers"),
		chromedp.SendKeys(chromedp.CSS(`input[data-filter="solvers"]`), "cvc"))
	visible := eval[int](t, ctx, `Array.from(document.querySelectorAll('#solvers tbody tr')).filter(r => !r.hidden).length`)
	if visible != 1 {
		t.Errorf("filter cvc: %d rows shown, want 1 (cvc5)", visible)
	}
	for _, p := range w.take() {
		t.Errorf("tables: %s", p)
	}
}

// checkHostile reads the hostile solver's pair: its output and name show
// as text, no script of theirs runs.
func checkHostile(t *testing.T, ctx context.Context, base, siteDir string, rs []store.Result, w *watcher) {
	var bench string
	for _, r := range rs {
		if strings.HasPrefix(r.Solver, "evil") {
			bench = r.BenchmarkPath
			break
		}
	}
	if bench == "" {
		t.Fatal("no result of the hostile solver")
	}
	// find the benchmark's page by its path on the page
	var target string
	filepath.Walk(filepath.Join(siteDir, "b"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), "<h2>"+bench+"</h2>") {
				target, _ = filepath.Rel(siteDir, p)
			}
		}
		return nil
	})
	if target == "" {
		t.Fatalf("no page of %s", bench)
	}
	do(t, ctx, chromedp.Navigate(base+target), chromedp.WaitReady("body"))
	outputs := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('pre.output')).map(p => p.textContent)`)
	title := eval[string](t, ctx, `Array.from(document.querySelectorAll('section.bench td a')).map(h => h.textContent).join("\n")`)
	found := false
	for _, o := range outputs {
		if strings.Contains(o, "<script>alert(1)</script>") && strings.Contains(o, "</textarea><img src=x onerror=alert(2)>") &&
			(strings.Contains(o, "\ufffd") || strings.Contains(o, `\xff`)) {
			found = true
		}
	}
	if !found {
		t.Errorf("the hostile output is not shown as text on %s: %q", target, outputs)
	}
	tails := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('pre.output.tail')).map(p => p.textContent)`)
	if len(tails) == 0 || !strings.Contains(tails[0], "<script>alert(4)</script>") {
		t.Errorf("the tail of the hostile output (past 4 KiB) is not shown as text: %q", tails)
	}
	if !strings.Contains(title, "evil<script>alert(3)</script>") {
		t.Errorf("the hostile solver's name is not shown as text: %q", title)
	}
	// a link to the pair opens its details
	id := eval[string](t, ctx, `Array.from(document.querySelectorAll('section.bench tr.wrong')).map(r => r.id)[0] || ""`)
	do(t, ctx, chromedp.Navigate(base+target+"#"+id), chromedp.WaitReady("body"))
	if open := eval[bool](t, ctx, `document.getElementById(`+strconv.Quote(id)+`).querySelector('details').open`); !open {
		t.Errorf("the link to pair %s did not open its details", id)
	}
	screenshot(t, ctx, "hostile-pair")
	for _, p := range w.take() {
		t.Errorf("hostile page: %s", p)
	}
}

// TestServeLive runs a competition while serve shows it in Chromium: the
// page's done count grows without a reload and stops at the total.
func TestServeLive(t *testing.T) {
	dir := t.TempDir()
	def := siteCompetition(t, dir, 10, "0.3")
	ctx := browser(t)
	// Plan the pairs first (and give serve a store with results): a
	// competition of one benchmark less would be another competition, so
	// plan by running compete briefly and interrupting it.
	cctx, stopCompete := context.WithCancel(context.Background())
	defer stopCompete()
	var cwg sync.WaitGroup
	cwg.Add(1)
	var competeErr error
	go func() {
		defer cwg.Done()
		competeErr = runCompete(cctx, CompeteOptions{Quiet: true, Workers: 1}, def, streams{strings.NewReader(""), discardWriter{}, discardWriter{}})
	}()
	// serve needs results to publish: wait for the first ones (the store
	// may be locked while compete creates it)
	cdef, err := config.Load(def)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		st, err := store.Open(context.Background(), filepath.Join(cdef.Path(cdef.WorkDir), "smtarena.db"))
		if err == nil {
			rs, _ := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
			st.Close()
			if len(rs) > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no result after 60 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	sctx, stopServe := context.WithCancel(context.Background())
	defer stopServe()
	addrc := make(chan net.Addr, 1)
	var swg sync.WaitGroup
	swg.Add(1)
	var serveErr error
	go func() {
		defer swg.Done()
		serveErr = runServe(sctx, ServeOptions{Score: ScoreOptions{Config: def}, Addr: "127.0.0.1:0"},
			streams{strings.NewReader(""), discardWriter{}, discardWriter{}}, func(a net.Addr) { addrc <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start: %v", serveErr)
	}
	base := "http://" + addr.String() + "/"
	w := watch(ctx, base)
	do(t, ctx, chromedp.Navigate(base), chromedp.WaitReady("#progress-table"))
	total := 30 // 10 benchmarks x 3 solvers
	var seen []int
	cell := `(() => { const r = Array.from(document.querySelectorAll('#progress-table tbody tr')).find(r => r.dataset.key === 'single-query/'); return r ? r.querySelector('[data-f=done]').textContent + '/' + r.querySelector('[data-f=planned]').textContent : ''; })()`
	deadline = time.Now().Add(3 * time.Minute)
	shot := false
	// the scores so far: the overview's count of results in the scores,
	// replaced in the page when serve has a new build
	scored := `(() => { const m = document.querySelector('main').textContent.match(/single-query \(\d+ divisions?, (\d+) results\)/); return m ? Number(m[1]) : -1; })()`
	var scores []int
	for time.Now().Before(deadline) {
		if k := eval[int](t, ctx, scored); len(scores) == 0 || scores[len(scores)-1] != k {
			scores = append(scores, k)
		}
		v := eval[string](t, ctx, cell)
		done, planned, ok := strings.Cut(v, "/")
		if ok {
			n, _ := strconv.Atoi(done)
			if len(seen) == 0 || seen[len(seen)-1] != n {
				seen = append(seen, n)
			}
			if p, _ := strconv.Atoi(planned); p != total {
				t.Fatalf("planned %s, want %d", planned, total)
			}
			if !shot && n > 0 && n < total {
				screenshot(t, ctx, "live")
				shot = true
			}
			if n == total {
				break
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	cwg.Wait()
	if competeErr != nil {
		t.Fatalf("compete: %v", competeErr)
	}
	if len(seen) < 3 || seen[len(seen)-1] != total {
		t.Errorf("done counts seen on the live page: %v; want growing to %d", seen, total)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] {
			t.Errorf("done count went down: %v", seen)
		}
	}
	// it stays at the total, and the scores come to every result
	time.Sleep(5 * time.Second)
	if k := eval[int](t, ctx, scored); scores[len(scores)-1] != k {
		scores = append(scores, k)
	}
	if len(scores) < 2 || scores[len(scores)-1] != total {
		t.Errorf("results in the scores seen on the live page (without a reload): %v; want growing to %d", scores, total)
	}
	if v := eval[string](t, ctx, cell); v != fmt.Sprintf("%d/%d", total, total) {
		t.Errorf("after the end: %q", v)
	}
	// the pages served after the end have the results
	do(t, ctx, chromedp.Navigate(base+"t/single-query/QF_Equality.html"), chromedp.WaitReady("body"))
	if n := eval[int](t, ctx, `document.querySelectorAll('#counts tbody tr').length`); n != 3 {
		t.Errorf("division page served: %d solvers, want 3", n)
	}
	for _, p := range w.take() {
		t.Errorf("live page: %s", p)
	}
	st := openCompeteStore(t, def)
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		t.Fatal(err)
	}
	checkServedDownloads(t, base, cdef.Path(cdef.WorkDir), rs)
	t.Logf("done counts seen live: %v; results in the scores: %v", seen, scores)
	stopServe()
	swg.Wait()
	if serveErr != nil {
		t.Errorf("serve: %v", serveErr)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// do runs browser steps.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// browseSite loads every page of a site in the browser: no console error,
// no request outside the site, no page or plot over 1 MB; every link,
// image, style sheet and script named exists, and so does the element a
// link's #fragment names.
func browseSite(t *testing.T, ctx context.Context, w *watcher, siteDir string, least int) {
	t.Helper()
	base := "file://" + siteDir + "/"
	var pages []string
	filepath.Walk(siteDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			rel, _ := filepath.Rel(siteDir, p)
			pages = append(pages, filepath.ToSlash(rel))
		}
		if err == nil && !info.IsDir() && info.Size() > 1<<20 {
			t.Errorf("%s is over 1 MB (%d bytes)", p, info.Size())
		}
		return nil
	})
	sort.Strings(pages)
	if len(pages) < least {
		t.Fatalf("only %d pages: %v", len(pages), pages)
	}
	// Every page loads without a console error or outside request; every
	// link, image, style sheet and script it names exists, and so does
	// the element a link's #fragment names.
	ids := map[string]map[string]bool{} // page -> ids
	type link struct{ from, to string }
	var links []link
	for _, p := range pages {
		do(t, ctx, chromedp.Navigate(base+p), chromedp.WaitReady("body"))
		hrefs := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('a[href],img[src],link[href],script[src]')).map(e => e.href || e.src)`)
		pageIDs := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('[id]')).map(e => e.id)`)
		scripts := eval[int](t, ctx, `document.querySelectorAll('script').length`)
		if scripts != 1 {
			t.Errorf("%s has %d script elements, want only the site's own", p, scripts)
		}
		ids[p] = map[string]bool{}
		for _, id := range pageIDs {
			ids[p][id] = true
		}
		for _, h := range hrefs {
			links = append(links, link{p, h})
		}
		for _, prob := range w.take() {
			t.Errorf("%s: %s", p, prob)
		}
	}
	checked := 0
	for _, l := range links {
		if strings.HasPrefix(l.to, "data:") {
			continue
		}
		if !strings.HasPrefix(l.to, base) {
			t.Errorf("%s links outside the site: %s", l.from, l.to)
			continue
		}
		u, err := url.Parse(l.to)
		if err != nil {
			t.Errorf("%s: link %s: %v", l.from, l.to, err)
			continue
		}
		rel := strings.TrimPrefix(u.Path, siteDir+"/")
		if _, err := os.Stat(filepath.Join(siteDir, filepath.FromSlash(rel))); err != nil {
			t.Errorf("%s: broken link %s", l.from, l.to)
			continue
		}
		if u.Fragment != "" && !ids[rel][u.Fragment] {
			t.Errorf("%s: link %s: no element #%s there", l.from, l.to, u.Fragment)
		}
		checked++
	}
	t.Logf("%d pages loaded, %d internal links resolved", len(pages), checked)
}

// TestDemoSiteBrowser runs the competition of make demo (examples/demo.toml:
// single-query, incremental, unsat-core, model-validation and proof
// tracks, four real solvers) on its generated library, publishes it, and loads every page of
// its site in Chromium.
func TestDemoSiteBrowser(t *testing.T) {
	needRootForRuns(t)
	for _, s := range []string{"z3", "cvc5", "cvc4", "boolector"} {
		if _, err := exec.LookPath(s); err != nil {
			testenv.Skipf(t, "needs %s: %v", s, err)
		}
	}
	// The model-validation track's validator runs as this test binary
	// re-executed as smtarena.
	t.Setenv("SMTARENA_TEST_MAIN", "1")
	ctx := browser(t)
	dir := t.TempDir()
	if code, _, errs := runCLI(t, "", "generate", "--out", filepath.Join(dir, "library"), "--seed", "7", "--size", "small"); code != 0 {
		t.Fatalf("generate: %s", errs)
	}
	src, err := os.ReadFile(filepath.Join(testenv.Root(), "examples", "demo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	def := strings.Replace(strings.Replace(string(src), `library = ["../out/demo/library"]`, `library = ["library"]`, 1),
		`workdir = "../out/demo/work"`, `workdir = "work"`, 1)
	if !strings.Contains(def, `library = ["library"]`) || !strings.Contains(def, `workdir = "work"`) {
		t.Fatal("examples/demo.toml no longer names its library and work directory as this test expects")
	}
	checker, err := os.ReadFile(filepath.Join(testenv.Root(), "examples", "proof-checker.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "proof-checker.sh"), checker, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755) // runs are made as a user of their own, who reads the checker
	path := filepath.Join(dir, "demo.toml")
	if err := os.WriteFile(path, []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "", "compete", "--quiet", path); code != 0 {
		t.Fatalf("compete: %d\n%s\n%s", code, out, errs)
	}
	siteDir := filepath.Join(dir, "site")
	if code, out, errs := runCLI(t, "", "report", "--config", path, "--out", siteDir); code != 0 {
		t.Fatalf("report: %d\n%s\n%s", code, out, errs)
	}
	w := watch(ctx, "file://"+siteDir+"/")
	browseSite(t, ctx, w, siteDir, 30)
	for _, track := range []string{"single-query", "incremental", "unsat-core", "model-validation", "proof"} {
		if _, err := os.Stat(filepath.Join(siteDir, "t", track, "index.html")); err != nil {
			t.Errorf("no %s track on the demo's site", track)
		}
		// every track's pairs link their whole outputs (the proof
		// track's are its proofs), which browseSite found resolving
		kept := filepath.Join(siteDir, "files", "outputs", track)
		if track == "proof" {
			kept = filepath.Join(siteDir, "files", "proofs", track)
		}
		if es, err := os.ReadDir(kept); err != nil || len(es) == 0 {
			t.Errorf("no whole outputs of the %s track on the demo's site: %v", track, err)
		}
	}
	for _, shot := range []struct{ name, page string }{
		{"demo-overview", "index.html"}, {"demo-unsat-core", "t/unsat-core/QF_LinearIntArith.html"}, {"demo-proof", "t/proof/QF_Equality.html"},
		{"demo-incremental", "t/incremental/QF_LinearIntArith.html"},
		{"demo-model-validation", "t/model-validation/QF_Bitvec.html"},
	} {
		do(t, ctx, chromedp.Navigate("file://"+siteDir+"/"+shot.page), chromedp.WaitReady("body"))
		screenshot(t, ctx, shot.name)
	}
}
