package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/score"
)

// register lists every file of the site.
func (s *Site) register() {
	s.add("assets/site.css", func(w *bytes.Buffer) { w.WriteString(siteCSS) })
	s.add("assets/site.js", func(w *bytes.Buffer) { w.WriteString(siteJS) })
	s.bounded["assets/site.css"], s.bounded["assets/site.js"] = true, true
	s.addPage("index.html", s.title(), s.overview)
	for _, td := range s.tracks {
		s.addPage("t/"+slug(td.name)+"/index.html", s.title()+": "+td.name+" track", func(p *page) { s.trackPage(p, td) })
		for _, d := range td.divs {
			s.registerScope(d)
			for _, l := range d.logics {
				s.registerScope(l)
			}
		}
	}
	s.addPage("solvers.html", "Solvers", s.solversPage)
	for _, n := range s.solverNames {
		sd := s.solvers[n]
		base := "s/" + slug(n)
		s.addPage(base+".html", "Solver "+n, func(p *page) { s.solverPage(p, sd) })
	}
	for lo := 0; lo < len(s.benches); lo += BenchmarksPerPage {
		lo, hi := int32(lo), int32(min(lo+BenchmarksPerPage, len(s.benches)))
		title := "Benchmark " + s.benches[lo].path
		if hi-lo > 1 {
			title = fmt.Sprintf("Benchmarks %d to %d", lo+1, hi)
		}
		s.bounded[benchFile(lo)] = true
		s.addPage(benchFile(lo), title, func(p *page) {
			for bi := lo; bi < hi; bi++ {
				s.benchSection(p, bi)
			}
		})
	}
	s.paged("wrong", "Wrong answers", len(s.wrong), resultCols(true, true), func(p *page, i int) { s.resultRow(p, s.wrong[i], true, true) })
	s.addPage("disagreements.html", "Disagreements", s.disagreementsPage)
	s.paged("disagreements/list", "Disagreements", len(s.disagree), []string{"track", "division", "benchmark", "sat", "unsat"}, func(p *page, i int) {
		d := &s.disagree[i]
		p.raw("<tr>")
		p.cell(d.track)
		p.cell(d.division)
		p.linkCell(benchPath(d.bench), s.benches[d.bench].path)
		p.cell(strings.Join(d.sat, ", "))
		p.cell(strings.Join(d.unsat, ", "))
		p.raw("</tr>\n")
	})
	s.addPage("downloads.html", "Downloads", s.downloadsPage)
	s.registerData()
	if s.in.Compare != nil {
		s.registerCompare()
	}
}

func (s *Site) title() string {
	if s.in.Title != "" {
		return s.in.Title
	}
	return "Competition results"
}

// BenchmarksPerPage is how many benchmarks share a page (each with every
// pair run on it): one file per benchmark would make a site of a million
// pairs a hundred thousand files.
const BenchmarksPerPage = 25

// benchFile is the page of a benchmark.
func benchFile(b int32) string {
	k := b / BenchmarksPerPage
	return fmt.Sprintf("b/%d/%d.html", k/100, k)
}

// benchPath is the link to a benchmark's section.
func benchPath(b int32) string { return fmt.Sprintf("%s#b%d", benchFile(b), b) }

// pairHref is the link to a result's section on its benchmark's page.
func (s *Site) pairHref(r ref) string {
	return benchFile(s.tracks[r.t].res[r.r].bench) + "#" + pairAnchor(r)
}

func pairAnchor(r ref) string { return fmt.Sprintf("p%d-%d", r.t, r.r) }

func (s *Site) solverHref(name string) string { return "s/" + slug(name) + ".html" }

func (s *Site) scopeHref(t *trackData, div string) string {
	return "t/" + slug(t.name) + "/" + slug(div) + ".html"
}

// paged registers a table split over pages: base.html, base-2.html, ...
func (s *Site) paged(base, title string, n int, cols []string, row func(p *page, i int)) {
	pages := max(1, (n+PageRows-1)/PageRows)
	name := func(k int) string {
		if k == 1 {
			return base + ".html"
		}
		return base + "-" + strconv.Itoa(k) + ".html"
	}
	for k := 1; k <= pages; k++ {
		k := k
		t := title
		if pages > 1 {
			t = fmt.Sprintf("%s (page %d of %d)", title, k, pages)
		}
		s.bounded[name(k)] = true
		s.addPage(name(k), t, func(p *page) {
			pager := func() {
				if pages == 1 {
					return
				}
				p.raw(`<p class="pager">Pages: `)
				for j := 1; j <= pages; j++ {
					if j != 1 && j != pages && (j < k-3 || j > k+3) {
						if j == k-4 || j == k+4 {
							p.raw(" … ")
						}
						continue
					}
					if j == k {
						p.raw(" <b>" + strconv.Itoa(j) + "</b>")
						continue
					}
					p.raw(` <a href="`)
					n := name(j)
					p.text(n[strings.LastIndexByte(n, '/')+1:])
					p.raw(`">` + strconv.Itoa(j) + `</a>`)
				}
				p.raw("</p>\n")
			}
			p.textf("%d rows.", n)
			pager()
			p.head("rows", true, cols...)
			for i := (k - 1) * PageRows; i < min(n, k*PageRows); i++ {
				row(p, i)
			}
			p.endTable()
			pager()
		})
	}
}

func resultCols(track, solver bool) []string {
	cols := []string{}
	if track {
		cols = append(cols, "track", "division")
	}
	if solver {
		cols = append(cols, "solver")
	}
	return append(cols, "benchmark", "status", "answer", "expected", "#CPU s", "#wall s", "#memory MB", "pair")
}

// resultRow writes one result as a table row.
func (s *Site) resultRow(p *page, rf ref, track, solver bool) {
	td := s.tracks[rf.t]
	r := &td.in.Results[rf.r]
	info := td.res[rf.r]
	if info.wrong {
		p.raw(`<tr class="wrong">`)
	} else {
		p.raw("<tr>")
	}
	if track {
		p.linkCell("t/"+slug(td.name)+"/index.html", td.name)
		p.linkCell(s.scopeHref(td, info.div), info.div)
	}
	if solver {
		p.linkCell(s.solverHref(r.Solver), r.Solver)
	}
	p.linkCell(benchPath(info.bench), r.BenchmarkPath)
	p.cell(r.Status)
	p.cell(r.Answer)
	p.cell(r.Expected)
	p.num(r.CPU)
	p.num(r.Wall)
	p.num(r.MemoryMB)
	p.linkCell(s.pairHref(rf), "pair")
	p.raw("</tr>\n")
}

func (s *Site) overview(p *page) {
	m := &s.in.Meta
	p.raw(`<section><h2>The competition</h2><dl class="meta">`)
	dl := p.item
	if m.Rules != 0 {
		dl("Rules", strconv.Itoa(m.Rules))
	}
	if m.Year != 0 {
		dl("Year", strconv.Itoa(m.Year))
	}
	dl("Seed", m.Seed)
	dl("Scoring", m.Compat)
	tracks := []string{}
	for _, td := range s.tracks {
		tracks = append(tracks, fmt.Sprintf("%s (%d divisions, %d results)", td.name, len(td.divs), len(td.in.Results)))
	}
	dl("Tracks", strings.Join(tracks, "; "))
	p.raw("</dl>")
	for _, n := range m.Notes {
		p.raw("<p>")
		p.text(n)
		p.raw("</p>")
	}
	p.raw("</section>\n")
	if len(m.Limits) > 0 {
		p.raw("<section><h2>Limits</h2>")
		p.head("limits", false, "track", "#CPU s", "#wall s", "#memory MB", "#cores")
		for _, l := range m.Limits {
			p.raw("<tr>")
			p.cell(l.Track)
			p.numOrDash(l.CPU)
			p.numOrDash(l.Wall)
			p.numOrDash(float64(l.MemoryMB))
			p.numOrDash(float64(l.Cores))
			p.raw("</tr>\n")
		}
		p.endTable()
		p.raw("</section>\n")
	}
	s.progressSection(p)
	if len(m.Entrants) > 0 {
		p.raw("<section><h2>Entrants</h2>")
		p.head("entrants", true, "solver", "team", "version", "competitive")
		for _, e := range m.Entrants {
			p.raw("<tr>")
			p.linkCell(s.solverHref(e.Name), e.Name)
			p.cell(e.Team)
			p.cell(e.Version)
			p.cell(yesNo(e.Competitive))
			p.raw("</tr>\n")
		}
		p.endTable()
		p.raw("</section>\n")
	}
	for _, td := range s.tracks {
		p.raw("<section><h2>")
		p.link("t/"+slug(td.name)+"/index.html", td.name+" track")
		p.raw("</h2>")
		s.winners(p, td)
		if rep := td.in.Score; rep != nil && (len(rep.BiggestLead) > 0 || len(rep.LargestContribution) > 0 || len(rep.CompetitionWide) > 0 || len(rep.Recognitions) > 0) {
			p.raw("<details><summary>Competition-wide rankings of the track</summary>")
			s.recognitions(p, td)
			p.raw("</details>")
		}
		p.raw("</section>\n")
	}
}

// progressSection shows a running competition's progress; serve updates
// its cells from progress.json.
func (s *Site) progressSection(p *page) {
	if s.in.Progress == nil && !s.in.Live {
		return
	}
	p.raw(`<section id="progress"><h2>Progress</h2><p class="live-note">`)
	if s.in.Live {
		p.raw(`Live: updated every two seconds without a reload. <span id="live-status"></span>`)
	}
	p.raw("</p>")
	p.head("progress-table", false, "track", "division", "#done", "#planned", "#running", "#errors", "#wrong", "ETA")
	for _, g := range s.in.Progress {
		key := g.Track + "/" + g.Division
		p.raw(`<tr data-key="`)
		p.text(key)
		p.raw(`">`)
		p.linkCell("t/"+slug(g.Track)+"/index.html", g.Track)
		if g.Division == "" {
			p.cell("(all)")
		} else {
			p.linkCell("t/"+slug(g.Track)+"/"+slug(g.Division)+".html", g.Division)
		}
		for _, c := range []struct {
			k string
			v int
		}{{"done", g.Done}, {"planned", g.Planned}, {"running", g.Running}, {"errors", g.Errors}, {"wrong", g.Wrong}} {
			p.raw(`<td class="n" data-f="` + c.k + `">` + strconv.Itoa(c.v) + "</td>")
		}
		p.raw(`<td data-f="eta">`)
		p.text(fmtETA(g.ETA))
		p.raw("</td></tr>\n")
	}
	p.endTable()
	if s.in.Live {
		p.raw(`<h3>Latest results</h3><ul id="latest"></ul>`)
	}
	p.raw("</section>\n")
}

func fmtETA(sec float64) string {
	if sec < 0 {
		return "-"
	}
	if sec == 0 {
		return "done"
	}
	return strconv.FormatFloat(sec, 'f', 0, 64) + " s"
}

// winners is the track's table of division winners by each score.
func (s *Site) winners(p *page, td *trackData) {
	rep := td.in.Score
	if rep == nil {
		p.raw("<p>This track has no scores.</p>")
		return
	}
	cols := []string{"division", "#benchmarks"}
	for _, k := range rep.Kinds {
		cols = append(cols, kindName(k)+" winner")
	}
	p.head("winners-"+slug(td.name), true, cols...)
	for i := range rep.Divisions {
		d := &rep.Divisions[i]
		p.raw("<tr>")
		p.linkCell(s.scopeHref(td, d.Name), d.Name)
		p.inum(d.Benchmarks)
		for _, k := range rep.Kinds {
			w := ""
			if r := d.Ranking(k); r != nil {
				w = r.Winner
			}
			if w == "" {
				p.cell("—")
			} else {
				p.linkCell(s.solverHref(w), w)
			}
		}
		p.raw("</tr>\n")
	}
	p.endTable()
}

func kindName(k score.Kind) string {
	if k == score.TwentyFour {
		return "24 s"
	}
	return string(k)
}

// recognitions writes the competition-wide rankings of a track.
func (s *Site) recognitions(p *page, td *trackData) {
	rep := td.in.Score
	if rep == nil {
		return
	}
	id := slug(td.name)
	for _, k := range rep.Kinds {
		if ls := rep.BiggestLead[k]; len(ls) > 0 {
			p.raw("<h3>Biggest lead (" + kindName(k) + ")</h3>")
			p.head("lead-"+id+"-"+string(k), false, "division", "first", "second", "#correctness", "#time")
			for _, l := range ls {
				p.raw("<tr>")
				p.linkCell(s.scopeHref(td, l.Division), l.Division)
				p.cell(l.First)
				p.cell(l.Second)
				p.fnum(l.Correctness, 8)
				p.fnum(l.Time, 8)
				p.raw("</tr>\n")
			}
			p.endTable()
		}
		if cs := rep.LargestContribution[k]; len(cs) > 0 {
			p.raw("<h3>Largest contribution (" + kindName(k) + ")</h3>")
			p.head("contrib-"+id+"-"+string(k), false, "division", "solver", "#correctness", "#time", "#solvers", "#pairs")
			for _, c := range cs {
				p.raw("<tr>")
				p.linkCell(s.scopeHref(td, c.Division), c.Division)
				p.cell(c.Solver)
				p.fnum(c.Correctness, 8)
				p.fnum(c.Time, 8)
				p.inum(c.Solvers)
				p.inum(c.Pairs)
				p.raw("</tr>\n")
			}
			p.endTable()
		}
		if ws := rep.CompetitionWide[k]; len(ws) > 0 {
			p.raw("<h3>Competition-wide score (" + kindName(k) + ")</h3>")
			p.head("wide-"+id+"-"+string(k), false, "solver", "competing", "#score", "#divisions")
			for _, w := range ws {
				p.raw("<tr>")
				p.linkCell(s.solverHref(w.Solver), w.Solver)
				p.cell(yesNo(w.Competitive))
				p.num(w.Score)
				p.inum(w.Divisions)
				p.raw("</tr>\n")
			}
			p.endTable()
		}
	}
	if len(rep.Recognitions) > 0 {
		p.raw("<h3>Recognitions</h3>")
		p.head("recog-"+id, false, "recognition", "score", "solver", "division", "#value", "note")
		for _, r := range rep.Recognitions {
			p.raw("<tr>")
			p.cell(r.Name)
			p.cell(kindName(r.Kind))
			p.cell(r.Solver)
			p.cell(r.Division)
			p.num(r.Value)
			p.cell(r.Note)
			p.raw("</tr>\n")
		}
		p.endTable()
	}
	if len(rep.Excluded) > 0 {
		p.raw("<h3>Left out of scoring</h3><ul>")
		for _, e := range rep.Excluded {
			p.raw("<li>")
			p.textf("%s: %d rows", e.Name, e.Rows)
			p.raw("</li>")
		}
		p.raw("</ul>")
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (s *Site) trackPage(p *page, td *trackData) {
	p.raw("<h2>Divisions</h2>")
	s.winners(p, td)
	if td.in.Score == nil {
		p.head("divs", true, "division", "#results")
		for _, d := range td.divs {
			p.raw("<tr>")
			p.linkCell(d.base+".html", d.name)
			p.inum(len(d.results))
			p.raw("</tr>\n")
		}
		p.endTable()
	}
	s.recognitions(p, td)
}

// rankingCols are the official pages' columns.
func rankingCols(rules int) []string {
	cols := []string{"#rank", "solver", "competing", "#error", "#correct", "#CPU s", "#wall s", "#solved", "#solved sat", "#solved unsat", "#unsolved", "#abstained", "#timeout", "#memout"}
	if rules == 2006 {
		cols = append(cols, "#points", "#time", "#unknown", "#wrong", "disqualified")
	}
	return cols
}

func (s *Site) registerScope(sc *scope) {
	title := sc.t.name + " track, division " + sc.div
	if sc.name != sc.div {
		title += ", logic " + sc.name
	}
	s.addPage(sc.base+".html", title, func(p *page) { s.scopePage(p, sc) })
	if sc.name == sc.div {
		// a division's results; its logics' are among them
		s.paged(sc.base+"/results", "Results: "+title, len(sc.results), resultCols(false, true), func(p *page, i int) {
			s.resultRow(p, ref{s.trackIndex(sc.t), sc.results[i]}, false, true)
		})
	}
	s.registerPlots(sc)
}

func (s *Site) trackIndex(td *trackData) int32 {
	for i, t := range s.tracks {
		if t == td {
			return int32(i)
		}
	}
	return -1
}

func (s *Site) scopePage(p *page, sc *scope) {
	td := sc.t
	if sc.name != sc.div {
		p.raw("<p>Logic of division ")
		p.link(s.scopeHref(td, sc.div), sc.div)
		p.raw(".</p>")
	}
	if len(sc.logics) > 0 {
		p.raw("<p>Logics: ")
		for i, l := range sc.logics {
			if i > 0 {
				p.raw(", ")
			}
			p.link(l.base+".html", l.name)
		}
		p.raw("</p>")
	}
	p.raw("<p>")
	p.textf("%d results. ", len(sc.results))
	p.link(s.scopeHref(td, sc.div)[:len(s.scopeHref(td, sc.div))-len(".html")]+"/results.html", "Every result of the division")
	p.raw(" · downloads: ")
	p.link("data/"+sc.base+".csv", "CSV")
	p.raw(" ")
	p.link("data/"+sc.base+".json", "JSON")
	p.raw("</p>\n")
	if d := sc.score; d != nil {
		rules := td.in.Score.Rules
		if d.Experimental {
			p.raw("<p>Experimental division: scored, not counted.</p>")
		}
		if !d.Competitive {
			p.raw("<p>Not competitive: fewer than two competitive solvers.</p>")
		}
		for ki := range d.Rankings {
			rk := &d.Rankings[ki]
			p.raw("<h2>")
			p.text(kindName(rk.Kind))
			p.raw(" score</h2><p>Winner: ")
			if rk.Winner == "" {
				p.raw("—")
			} else {
				p.link(s.solverHref(rk.Winner), rk.Winner)
			}
			p.raw("</p>")
			p.head("rank-"+string(rk.Kind), false, rankingCols(rules)...)
			for _, e := range rk.Entries {
				if e.Solver == rk.Winner {
					p.raw(`<tr class="winner">`)
				} else {
					p.raw("<tr>")
				}
				p.numOrDash(float64(e.Rank)) // 0: not competing
				p.linkCell(s.solverHref(e.Solver), e.Solver)
				p.cell(yesNo(e.Competitive))
				p.num(e.Error)
				p.num(e.Correct)
				p.num(e.CPU)
				p.num(e.Wall)
				p.inum(e.Solved)
				p.inum(e.SolvedSat)
				p.inum(e.SolvedUnsat)
				p.inum(e.Unsolved)
				p.inum(e.Abstained)
				p.inum(e.Timeout)
				p.inum(e.Memout)
				if rules == 2006 {
					p.num(e.Points)
					p.num(e.Time)
					p.inum(e.Unknown)
					p.inum(e.Wrong)
					p.cell(yesNo(e.Disqualified))
				}
				p.raw("</tr>\n")
			}
			p.endTable()
		}
	}
	s.countsTable(p, sc)
	s.extraTable(p, sc)
	s.plotsSection(p, sc)
}

// countsTable counts each solver's results in the scope (what the store
// holds, before any scoring rule).
func (s *Site) countsTable(p *page, sc *scope) {
	type cnt struct{ n, solved, sat, unsat, wrong, timeout, memout, other int }
	by := map[string]*cnt{}
	var names []string
	for _, ri := range sc.results {
		r := &sc.t.in.Results[ri]
		c := by[r.Solver]
		if c == nil {
			c = &cnt{}
			by[r.Solver] = c
			names = append(names, r.Solver)
		}
		c.n++
		info := sc.t.res[ri]
		switch {
		case info.wrong:
			c.wrong++
		case info.solved:
			c.solved++
			if r.Answer == "sat" {
				c.sat++
			} else if r.Answer == "unsat" {
				c.unsat++
			}
		case strings.HasPrefix(r.Status, "timeout"):
			c.timeout++
		case strings.HasPrefix(r.Status, "memout"):
			c.memout++
		default:
			c.other++
		}
	}
	sort.Strings(names)
	p.raw("<h2>Results as recorded</h2>")
	p.head("counts", false, "solver", "#results", "#solved", "#sat", "#unsat", "#wrong", "#timeout", "#memout", "#other")
	for _, n := range names {
		c := by[n]
		p.raw(`<tr data-solver="`)
		p.text(n)
		p.raw(`">`)
		p.linkCell(s.solverHref(n), n)
		for _, v := range []int{c.n, c.solved, c.sat, c.unsat, c.wrong, c.timeout, c.memout, c.other} {
			p.inum(v)
		}
		p.raw("</tr>\n")
	}
	p.endTable()
}

// extraKeys are extra columns every result has, shown on the pair pages
// only.
var extraSkip = map[string]bool{"division": true, "logic": true, "host": true, "output": true, "output_tail": true, "output_bytes": true, "output_file": true, "output_size": true, "limits": true, "command": true, "cores": true, "error": true, "exit_code": true,
	"signal": true, "job file": true, "pair id": true, "solver id": true, "configuration id": true, "benchmark id": true,
	"job id": true, "reason": true, "wrong": true, "backend": true}

// extraTable shows, per solver, the track's own columns (validator votes,
// model verdicts, checker results and statistics): whatever a track
// records in a result's extra columns shows here without the pages
// knowing the track. A column of few values (at most 8, each seen four
// times on average) is counted by value; a numeric column of many values
// (times, sizes) is summed and averaged.
func (s *Site) extraTable(p *page, sc *scope) {
	type numStat struct {
		sum float64
		n   int
	}
	counts := map[string]map[string]map[string]int{} // key -> value -> solver -> n
	values := map[string]map[string]bool{}
	seen := map[string]int{}
	nonNum := map[string]bool{}
	nums := map[string]map[string]*numStat{} // key -> solver
	solvers := map[string]bool{}
	for _, ri := range sc.results {
		r := &sc.t.in.Results[ri]
		if r.Extra == "" || r.Extra == "{}" {
			continue
		}
		// values stay raw until a column is known to be wanted: outputs
		// are long
		var x map[string]json.RawMessage
		if json.Unmarshal([]byte(r.Extra), &x) != nil {
			continue
		}
		solvers[r.Solver] = true
		for k, raw := range x {
			if extraSkip[k] || len(raw) == 0 {
				continue
			}
			var val string
			switch c := raw[0]; {
			case c == '"':
				if json.Unmarshal(raw, &val) != nil {
					continue
				}
				nonNum[k] = true
			case c == 't' || c == 'f':
				val = string(raw)
				nonNum[k] = true
			case c == '-' || c >= '0' && c <= '9':
				v, err := strconv.ParseFloat(string(raw), 64)
				if err != nil {
					continue
				}
				val = strconv.FormatFloat(v, 'f', -1, 64)
				if nums[k] == nil {
					nums[k] = map[string]*numStat{}
				}
				st := nums[k][r.Solver]
				if st == nil {
					st = &numStat{}
					nums[k][r.Solver] = st
				}
				st.sum += v
				st.n++
			default:
				continue
			}
			seen[k]++
			if values[k] == nil {
				values[k] = map[string]bool{}
				counts[k] = map[string]map[string]int{}
			}
			if len(values[k]) > 8 {
				continue
			}
			values[k][val] = true
			if counts[k][val] == nil {
				counts[k][val] = map[string]int{}
			}
			counts[k][val][r.Solver]++
		}
	}
	var keys, numKeys []string
	for k, vs := range values {
		switch {
		case len(vs) <= 8 && len(vs)*4 <= seen[k]:
			keys = append(keys, k)
		case !nonNum[k] && nums[k] != nil:
			numKeys = append(numKeys, k)
		}
	}
	if len(keys) == 0 && len(numKeys) == 0 {
		return
	}
	sort.Strings(keys)
	sort.Strings(numKeys)
	names := make([]string, 0, len(solvers))
	for n := range solvers {
		names = append(names, n)
	}
	sort.Strings(names)
	p.raw("<h2>Track columns</h2><p>The track's own columns (extra fields of the results) per solver: values counted, or numbers summed and averaged.</p>")
	cols := []string{"column", "value"}
	for _, n := range names {
		cols = append(cols, "#"+n)
	}
	p.head("extra", true, cols...)
	for _, k := range keys {
		vs := make([]string, 0, len(values[k]))
		for v := range values[k] {
			vs = append(vs, v)
		}
		sort.Strings(vs)
		for _, v := range vs {
			p.raw("<tr>")
			p.cell(k)
			p.cell(v)
			for _, n := range names {
				p.inum(counts[k][v][n])
			}
			p.raw("</tr>\n")
		}
	}
	for _, k := range numKeys {
		for _, what := range []string{"sum", "mean"} {
			p.raw("<tr>")
			p.cell(k)
			p.cell("(" + what + ")")
			for _, n := range names {
				st := nums[k][n]
				switch {
				case st == nil:
					p.cell("")
				case what == "sum":
					p.num(st.sum)
				default:
					p.num(st.sum / float64(st.n))
				}
			}
			p.raw("</tr>\n")
		}
	}
	p.endTable()
}

func (s *Site) solversPage(p *page) {
	ent := map[string]Entrant{}
	for _, e := range s.in.Meta.Entrants {
		ent[e.Name] = e
	}
	p.head("solvers", true, "solver", "team", "version", "competitive", "#results", "#wrong")
	for _, n := range s.solverNames {
		sd := s.solvers[n]
		wrong := 0
		for _, r := range sd.refs {
			if s.tracks[r.t].res[r.r].wrong {
				wrong++
			}
		}
		e, ok := ent[n]
		p.raw("<tr>")
		p.linkCell(s.solverHref(n), n)
		p.cell(e.Team)
		p.cell(e.Version)
		if ok {
			p.cell(yesNo(e.Competitive))
		} else {
			p.cell("")
		}
		p.inum(len(sd.refs))
		p.inum(wrong)
		p.raw("</tr>\n")
	}
	p.endTable()
}

func (s *Site) solverPage(p *page, sd *solverData) {
	p.raw("<p>")
	p.textf("%d results; every result is on the pages of the divisions.", len(sd.refs))
	p.raw("</p><h2>Divisions</h2>")
	p.head("solver-divs", true, "track", "division", "score", "#rank", "#error", "#correct", "#solved", "#unsolved", "#CPU s", "#wall s")
	for _, td := range s.tracks {
		if td.in.Score == nil {
			continue
		}
		for i := range td.in.Score.Divisions {
			d := &td.in.Score.Divisions[i]
			for _, rk := range d.Rankings {
				for _, e := range rk.Entries {
					if e.Solver != sd.name {
						continue
					}
					p.raw("<tr>")
					p.cell(td.name)
					p.linkCell(s.scopeHref(td, d.Name), d.Name)
					p.cell(kindName(rk.Kind))
					p.numOrDash(float64(e.Rank)) // 0: not competing
					p.num(e.Error)
					p.num(e.Correct)
					p.inum(e.Solved)
					p.inum(e.Unsolved)
					p.num(e.CPU)
					p.num(e.Wall)
					p.raw("</tr>\n")
				}
			}
		}
	}
	p.endTable()
	var wrong []ref
	for _, r := range sd.refs {
		if s.tracks[r.t].res[r.r].wrong {
			wrong = append(wrong, r)
		}
	}
	p.raw("<h2>Wrong answers</h2>")
	if len(wrong) == 0 {
		p.raw("<p>None.</p>")
		return
	}
	p.head("solver-wrong", false, resultCols(true, false)...)
	for i, r := range wrong {
		if i == PageRows {
			break
		}
		s.resultRow(p, r, true, false)
	}
	p.endTable()
	if len(wrong) > PageRows {
		p.raw("<p>")
		p.link("wrong.html", "All wrong answers")
		p.raw("</p>")
	}
}

func (s *Site) benchSection(p *page, bi int32) {
	b := &s.benches[bi]
	p.raw(`<section class="bench" id="b` + strconv.Itoa(int(bi)) + `"><h2>`)
	p.text(b.path)
	p.raw("</h2><p>Logic ")
	p.text(b.logic)
	p.raw(", expected status ")
	p.text(b.expected)
	p.raw(". One row per pair; its details (what the track recorded, the output) open from the last column.</p>")
	p.head("pairs-"+strconv.Itoa(int(bi)), false, "track", "division", "solver", "status", "answer", "#CPU s", "#wall s", "#memory MB", "details")
	for _, rf := range b.refs {
		s.pairRow(p, rf)
	}
	p.endTable()
	p.raw("</section>\n")
}

// pairRow is a pair's row on its benchmark's page, and the pair's own
// page: its measurements, then what the track recorded beyond them (the
// result's extra columns, whatever the track: validator votes, model
// verdicts, checker statistics, the limits it ran under) and the solver's
// output, escaped, with a link to the whole output when it was kept.
func (s *Site) pairRow(p *page, rf ref) {
	td := s.tracks[rf.t]
	r := &td.in.Results[rf.r]
	info := td.res[rf.r]
	p.raw(`<tr id="` + pairAnchor(rf) + `"`)
	if info.wrong {
		p.raw(` class="wrong"`)
	}
	p.raw(">")
	p.cell(td.name)
	p.cell(info.div)
	p.linkCell(s.solverHref(r.Solver), r.Solver)
	p.cell(r.Status)
	p.cell(r.Answer)
	p.num(r.CPU)
	p.num(r.Wall)
	p.num(r.MemoryMB)
	p.raw(`<td><details><summary>pair</summary><dl class="meta">`)
	kv := p.item
	kv("configuration", r.Configuration)
	kv("expected", r.Expected)
	kv("source", r.SourceKey)
	var x map[string]any
	output, tail := "", ""
	if r.Extra != "" && json.Unmarshal([]byte(r.Extra), &x) != nil {
		kv("extra (not JSON)", r.Extra)
	}
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "output":
			output, _ = x[k].(string)
			continue
		case "output_tail":
			tail, _ = x[k].(string)
			continue
		case "division", "logic":
			continue // in the row
		case "output_file", "output_size":
			continue // the download link, below
		case "limits":
			kv(k, limitsText(x[k]))
			continue
		}
		kv(k, extraText(x[k]))
	}
	p.raw("</dl>")
	s.outputLink(p, x)
	if output != "" {
		p.raw(`<pre class="output">`)
		p.text(output)
		p.raw("</pre>")
	}
	if tail != "" {
		p.raw(`<p>…</p><pre class="output tail">`)
		p.text(tail)
		p.raw("</pre>")
	}
	p.raw("</details></td></tr>\n")
}

func (s *Site) disagreementsPage(p *page) {
	p.raw("<p>Benchmarks of unknown status on which solvers without a wrong answer in the track answered both sat and unsat: ")
	p.link("disagreements/list.html", fmt.Sprintf("%d found", len(s.disagree)))
	p.raw(" (also as ")
	p.link("data/disagreements.csv", "CSV")
	p.raw(").</p>")
	for _, td := range s.tracks {
		if td.in.Score == nil || len(td.in.Score.Disagreements) == 0 {
			continue
		}
		p.raw("<h2>")
		p.text("Removed from scoring in the " + td.name + " track")
		p.raw("</h2>")
		p.head("removed-"+slug(td.name), true, "division", "benchmark", "sat", "unsat")
		for _, d := range td.in.Score.Disagreements {
			p.raw("<tr>")
			p.cell(d.Division)
			if bi, ok := s.benchIdx[d.Benchmark]; ok {
				p.linkCell(benchPath(bi), d.Benchmark)
			} else {
				p.cell(d.Benchmark)
			}
			p.cell(strings.Join(d.Sat, ", "))
			p.cell(strings.Join(d.Unsat, ", "))
			p.raw("</tr>\n")
		}
		p.endTable()
	}
}

// extraText shows an extra column's value: a string as it is, a list of
// strings (a command line) as words, anything else as JSON.
func extraText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		words := make([]string, 0, len(v))
		for _, w := range v {
			s, ok := w.(string)
			if !ok {
				words = nil
				break
			}
			if s == "" || strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?") {
				s = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
			}
			words = append(words, s)
		}
		if words != nil {
			return strings.Join(words, " ")
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // escaped when written
	_ = enc.Encode(v)        // decoded from JSON: encodes
	return strings.TrimSpace(b.String())
}
