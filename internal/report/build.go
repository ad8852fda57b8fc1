package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
)

// PageRows is how many rows a table shows on one page; longer tables are
// split over several pages.
const PageRows = 1000

// maxMarks caps the vertices of one cactus plot (shared by its lines, at
// least 1,000 each), so that no plot file grows past about 1 MB; a line
// with more points shows an even sample of them (its data-step says how
// sparse) and data-solved the full count.
const maxMarks = 60000

// Site is a built site: its pages are rendered on demand (serve) or all at
// once (Write).
type Site struct {
	in     *Input
	nav    nav
	footer string
	// files maps a path under the site's root to what renders it.
	files map[string]func(w *bytes.Buffer)
	paths []string
	// bounded marks the files whose rendering costs at most a page of
	// rows (benchmark pages, listings, assets), whatever the site's size.
	bounded map[string]bool

	tracks      []*trackData
	benches     []benchInfo
	benchIdx    map[string]int32
	solvers     map[string]*solverData
	solverNames []string
	wrong       []ref
	disagree    []disagreement
}

// ref names a result: its track's index and its index there.
type ref struct{ t, r int32 }

type benchInfo struct {
	path, logic string
	expected    string
	refs        []ref
}

type solverData struct {
	name string
	refs []ref
}

type trackData struct {
	in    *Track
	name  string
	limit float64
	res   []resInfo
	divs  []*scope
	// division name -> scope
	byName map[string]*scope
}

// scope is a division, or a logic of a multi-logic division: a page with
// its tables, plots and results.
type scope struct {
	t       *trackData
	name    string // division, or logic
	div     string // the division (== name for a division)
	base    string // path without extension: t/TRACK/DIV or t/TRACK/DIV/LOGIC
	score   *score.Division
	results []int32
	logics  []*scope // a division's per-logic scopes
	logic   map[string]*scope

	gridOnce  sync.Once
	gridCache *grid
}

type resInfo struct {
	div    string
	bench  int32
	wrong  bool
	solved bool
}

type disagreement struct {
	track, division string
	bench           int32
	sat, unsat      []string
}

// extraInfo is what the pages read of a result's extra columns.
type extraInfo struct {
	Division       string          `json:"division"`
	Wrong          bool            `json:"wrong"`
	WrongAnswers   int             `json:"wrong_answers"`
	WrongAnswers2  json.RawMessage `json:"wrong-answers"`
	Solved         int             `json:"solved"`
	CorrectAnswers json.RawMessage `json:"correct-answers"`
}

func rawInt(m json.RawMessage) int {
	s := strings.Trim(string(m), `" `)
	f, _ := strconv.ParseFloat(s, 64)
	return int(f)
}

func decided(a string) bool { return a == "sat" || a == "unsat" }

// classify reads a result's division, and whether it is wrong and solved.
func classify(r *store.Result) (div string, wrong, solved bool) {
	var x extraInfo
	if r.Extra != "" && r.Extra != "{}" {
		_ = json.Unmarshal([]byte(r.Extra), &x) // a malformed extra is shown as is in the pair's details
	}
	wrong = x.Wrong || x.WrongAnswers > 0 || rawInt(x.WrongAnswers2) > 0 ||
		decided(r.Answer) && decided(r.Expected) && r.Answer != r.Expected
	limitEnd := strings.HasPrefix(r.Status, "timeout") || strings.HasPrefix(r.Status, "memout")
	solved = !wrong && (decided(r.Answer) && !limitEnd || x.Solved > 0 || rawInt(x.CorrectAnswers) > 0)
	return x.Division, wrong, solved
}

// Build indexes the input into a site.
func Build(in *Input) *Site {
	s := &Site{in: in, files: map[string]func(*bytes.Buffer){}, bounded: map[string]bool{}, benchIdx: map[string]int32{}, solvers: map[string]*solverData{}}
	s.footer = "smtarena"
	if in.Generated != "" {
		s.footer += " · generated " + in.Generated
	}
	s.nav.live = in.Live
	for i := range in.Tracks {
		s.nav.tracks = append(s.nav.tracks, string(in.Tracks[i].Track))
	}
	for ti := range in.Tracks {
		s.tracks = append(s.tracks, s.indexTrack(int32(ti), &in.Tracks[ti]))
	}
	s.findDisagreements()
	for n := range s.solvers {
		s.solverNames = append(s.solverNames, n)
	}
	sort.Strings(s.solverNames)
	s.register()
	return s
}

func (s *Site) bench(path string) int32 {
	if i, ok := s.benchIdx[path]; ok {
		return i
	}
	i := int32(len(s.benches))
	s.benches = append(s.benches, benchInfo{path: path, logic: benchmark.LogicOfPath(path)})
	s.benchIdx[path] = i
	return i
}

func (s *Site) indexTrack(ti int32, tr *Track) *trackData {
	td := &trackData{in: tr, name: string(tr.Track), byName: map[string]*scope{}, limit: tr.TimeLimit}
	if td.limit <= 0 && tr.Score != nil {
		td.limit = tr.Score.TimeLimit
	}
	divOfLogic := map[string]string{}
	if tr.Score != nil {
		for i := range tr.Score.Divisions {
			d := &tr.Score.Divisions[i]
			for _, l := range d.Logics {
				divOfLogic[l.Logic] = d.Name
			}
		}
	}
	td.res = make([]resInfo, len(tr.Results))
	classifyAll(tr.Results, td.res)
	for ri := range tr.Results {
		r := &tr.Results[ri]
		info := &td.res[ri]
		info.bench = s.bench(r.BenchmarkPath)
		b := &s.benches[info.bench]
		b.refs = append(b.refs, ref{ti, int32(ri)})
		if b.expected == "" || b.expected == "unknown" {
			b.expected = r.Expected
		}
		if info.div == "" {
			info.div = divOfLogic[b.logic]
		}
		if info.div == "" {
			info.div = b.logic
		}
		sd := s.solvers[r.Solver]
		if sd == nil {
			sd = &solverData{name: r.Solver}
			s.solvers[r.Solver] = sd
		}
		sd.refs = append(sd.refs, ref{ti, int32(ri)})
		if info.wrong {
			s.wrong = append(s.wrong, ref{ti, int32(ri)})
		}
		sc := td.byName[info.div]
		if sc == nil {
			sc = &scope{t: td, name: info.div, div: info.div, base: "t/" + slug(td.name) + "/" + slug(info.div), logic: map[string]*scope{}}
			td.byName[info.div] = sc
			td.divs = append(td.divs, sc)
		}
		sc.results = append(sc.results, int32(ri))
		ls := sc.logic[b.logic]
		if ls == nil {
			ls = &scope{t: td, name: b.logic, div: info.div, base: sc.base + "/" + slug(b.logic)}
			sc.logic[b.logic] = ls
			sc.logics = append(sc.logics, ls)
		}
		ls.results = append(ls.results, int32(ri))
		if td.limit <= 0 || tr.Score == nil {
			td.limit = max(td.limit, r.Wall, r.CPU)
		}
	}
	if tr.Score != nil {
		// Divisions scored without results here (none, normally) get a
		// page too.
		for i := range tr.Score.Divisions {
			d := &tr.Score.Divisions[i]
			sc := td.byName[d.Name]
			if sc == nil {
				sc = &scope{t: td, name: d.Name, div: d.Name, base: "t/" + slug(td.name) + "/" + slug(d.Name), logic: map[string]*scope{}}
				td.byName[d.Name] = sc
				td.divs = append(td.divs, sc)
			}
			sc.score = d
			for j := range d.PerLogic {
				if ls := sc.logic[d.PerLogic[j].Name]; ls != nil {
					ls.score = &d.PerLogic[j]
				}
			}
		}
	}
	sort.Slice(td.divs, func(i, j int) bool { return td.divs[i].name < td.divs[j].name })
	for _, d := range td.divs {
		sort.Slice(d.logics, func(i, j int) bool { return d.logics[i].name < d.logics[j].name })
		if len(d.logics) < 2 {
			d.logics = nil // one logic: the division's page is the logic's
		}
	}
	return td
}

// classifyAll classifies results on every core.
func classifyAll(rs []store.Result, out []resInfo) {
	n := runtime.NumCPU()
	var wg sync.WaitGroup
	chunk := (len(rs) + n - 1) / n
	for w := 0; w < n; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(rs))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				out[i].div, out[i].wrong, out[i].solved = classify(&rs[i])
			}
		}()
	}
	wg.Wait()
}

// sound reports, per track, the solvers with no wrong answer.
func (s *Site) findDisagreements() {
	for ti, td := range s.tracks {
		unsound := map[string]bool{}
		for ri := range td.in.Results {
			if td.res[ri].wrong {
				unsound[td.in.Results[ri].Solver] = true
			}
		}
		type key struct {
			div   string
			bench int32
		}
		sat, unsat := map[key][]string{}, map[key][]string{}
		for ri := range td.in.Results {
			r := &td.in.Results[ri]
			if decided(r.Expected) || unsound[r.Solver] || td.res[ri].wrong {
				continue
			}
			k := key{td.res[ri].div, td.res[ri].bench}
			switch r.Answer {
			case "sat":
				sat[k] = append(sat[k], r.Solver)
			case "unsat":
				unsat[k] = append(unsat[k], r.Solver)
			}
		}
		var ks []key
		for k := range sat {
			if len(unsat[k]) > 0 {
				ks = append(ks, k)
			}
		}
		sort.Slice(ks, func(i, j int) bool {
			if ks[i].div != ks[j].div {
				return ks[i].div < ks[j].div
			}
			return s.benches[ks[i].bench].path < s.benches[ks[j].bench].path
		})
		for _, k := range ks {
			s.disagree = append(s.disagree, disagreement{track: s.tracks[ti].name, division: k.div, bench: k.bench, sat: sat[k], unsat: unsat[k]})
		}
	}
}

// Paths lists every file of the site.
func (s *Site) Paths() []string { return s.paths }

// Render renders one file of the site; ok is false when there is none.
func (s *Site) Render(path string) (b []byte, ok bool) {
	f := s.files[path]
	if f == nil {
		return nil, false
	}
	var buf bytes.Buffer
	f(&buf)
	return buf.Bytes(), true
}

// Heavy lists the pages and plots whose rendering reads a whole track or
// division (overview, division pages, plots, solver pages): a server
// renders them once per build, before serving the build. Downloads are
// left out (rendered when asked for).
func (s *Site) Heavy() []string {
	var out []string
	for _, p := range s.paths {
		if !s.bounded[p] && !strings.HasPrefix(p, "data/") {
			out = append(out, p)
		}
	}
	return out
}

// add registers a file.
func (s *Site) add(path string, f func(w *bytes.Buffer)) {
	if _, dup := s.files[path]; dup {
		panic("report: two files at " + path) // names are made unique by slug: a bug
	}
	s.files[path] = f
	s.paths = append(s.paths, path)
}

// addPage registers an HTML page.
func (s *Site) addPage(path, title string, body func(p *page)) {
	s.add(path, func(w *bytes.Buffer) {
		p := &page{root: strings.Repeat("../", strings.Count(path, "/"))}
		p.open(title, &s.nav)
		body(p)
		p.close(s.footer)
		w.Write(p.Bytes())
	})
}

// Stats describes a written site.
type Stats struct {
	Files          int
	Bytes          int64
	Largest        string // the largest HTML page
	LargestBytes   int
	LargestAny     string // the largest file of any kind
	LargestAnySize int
}

// Write renders every file into dir, on every core.
func (s *Site) Write(dir string) (Stats, error) {
	var st Stats
	var mu sync.Mutex
	var firstErr error
	made := map[string]bool{}
	paths := make(chan string, 64)
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			for path := range paths {
				buf.Reset()
				s.files[path](&buf)
				full := filepath.Join(dir, filepath.FromSlash(path))
				d := filepath.Dir(full)
				mu.Lock()
				need := !made[d]
				mu.Unlock()
				var err error
				if need {
					if err = os.MkdirAll(d, 0o755); err == nil {
						mu.Lock()
						made[d] = true
						mu.Unlock()
					}
				}
				if err == nil {
					err = os.WriteFile(full, buf.Bytes(), 0o644)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("report: %w", err)
				}
				st.Files++
				st.Bytes += int64(buf.Len())
				if strings.HasSuffix(path, ".html") && buf.Len() > st.LargestBytes {
					st.Largest, st.LargestBytes = path, buf.Len()
				}
				if buf.Len() > st.LargestAnySize {
					st.LargestAny, st.LargestAnySize = path, buf.Len()
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range s.paths {
		paths <- p
	}
	close(paths)
	wg.Wait()
	if firstErr != nil {
		return st, firstErr
	}
	n, size, err := s.copyOutputs(dir)
	st.Files += n
	st.Bytes += size
	return st, err
}
