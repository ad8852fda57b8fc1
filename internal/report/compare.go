package report

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/smtarena/smtarena/internal/store"
)

// diff is one pair found in both runs (or in one only).
type diff struct {
	here  ref // -1 track when only in the other run
	other *store.Result
	kind  string // "answer", "only here", "only there"
	// solved here, solved there
	sh, so bool
}

type trackDiff struct {
	name    string
	changed []diff // answers that differ, and benchmarks solved by one run only
	both    []diff // solved by both: the time ratio scatter
	pairs   int
}

// compare matches the runs' results by track, solver and benchmark.
func (s *Site) compare() []trackDiff {
	other := Build(&Input{Tracks: s.in.Compare.Tracks}) // classifies the other run's results the same way
	var out []trackDiff
	for ti, td := range s.tracks {
		var ot *trackData
		for _, t := range other.tracks {
			if t.name == td.name {
				ot = t
			}
		}
		d := trackDiff{name: td.name}
		if ot == nil {
			out = append(out, d)
			continue
		}
		type key struct{ solver, bench string }
		there := map[key]int32{}
		for ri := range ot.in.Results {
			r := &ot.in.Results[ri]
			there[key{r.Solver, r.BenchmarkPath}] = int32(ri)
		}
		for ri := range td.in.Results {
			r := &td.in.Results[ri]
			name := r.Solver
			if as, ok := s.in.CompareAs[name]; ok {
				name = as
			}
			k := key{name, r.BenchmarkPath}
			oi, ok := there[k]
			if !ok {
				continue
			}
			d.pairs++
			o := &ot.in.Results[oi]
			sh, so := td.res[ri].solved, ot.res[oi].solved
			rf := ref{int32(ti), int32(ri)}
			switch {
			case r.Answer != o.Answer && decided(r.Answer) && decided(o.Answer):
				d.changed = append(d.changed, diff{rf, o, "answer changed", sh, so})
			case sh && !so:
				d.changed = append(d.changed, diff{rf, o, "solved here only", sh, so})
			case !sh && so:
				d.changed = append(d.changed, diff{rf, o, "solved there only", sh, so})
			}
			if sh && so {
				d.both = append(d.both, diff{rf, o, "", sh, so})
			}
		}
		out = append(out, d)
	}
	return out
}

func (s *Site) registerCompare() {
	var diffs []trackDiff
	get := func() []trackDiff {
		if diffs == nil {
			diffs = s.compare()
		}
		return diffs
	}
	s.addPage("compare.html", "Compared with "+s.in.Compare.Title, func(p *page) {
		p.raw("<p>Pairs matched by track, solver and benchmark between this run and ")
		p.text(s.in.Compare.Title)
		p.raw(".</p>")
		if len(s.in.CompareAs) > 0 {
			var as []string
			for a, b := range s.in.CompareAs {
				as = append(as, a+" here with "+b+" there")
			}
			sort.Strings(as)
			p.raw("<p>Solvers paired by the options: ")
			p.text(strings.Join(as, "; "))
			p.raw(".</p>")
		}
		for _, d := range get() {
			p.raw("<h2>")
			p.text(d.name + " track")
			p.raw("</h2><p>")
			p.textf("%d pairs in both runs; %d differ (answers changed, or solved by one run only); %d solved by both.", d.pairs, len(d.changed), len(d.both))
			p.raw("</p>")
			p.raw(`<figure><img class="plot" src="`)
			p.text(p.root + "compare/" + slug(d.name) + ".svg")
			p.raw(`" alt="time ratio scatter" width="460" height="460"><figcaption>Wall time of the pairs both runs solved: this run (x) against the other (y)</figcaption></figure>`)
			p.head("changed-"+slug(d.name), true, "solver", "benchmark", "difference", "answer here", "answer there", "#wall here", "#wall there", "#ratio")
			for i, c := range d.changed {
				if i == PageRows {
					break
				}
				td := s.tracks[c.here.t]
				r := &td.in.Results[c.here.r]
				p.raw("<tr>")
				p.linkCell(s.solverHref(r.Solver), r.Solver)
				p.linkCell(s.pairHref(c.here), r.BenchmarkPath)
				p.cell(c.kind)
				p.cell(r.Answer)
				p.cell(c.other.Answer)
				p.num(r.Wall)
				p.num(c.other.Wall)
				if r.Wall > 0 {
					p.num(c.other.Wall / r.Wall)
				} else {
					p.cell("")
				}
				p.raw("</tr>\n")
			}
			p.endTable()
			if len(d.changed) > PageRows {
				p.textf("and %d more.", len(d.changed)-PageRows)
			}
		}
	})
	for _, td := range s.tracks {
		name := td.name
		s.add("compare/"+slug(name)+".svg", func(w *bytes.Buffer) {
			for _, d := range get() {
				if d.name == name {
					s.ratioScatter(w, d)
				}
			}
		})
	}
}

// ratioScatter draws the pairs both runs solved: one mark each.
func (s *Site) ratioScatter(w *bytes.Buffer, d trackDiff) {
	hi := 1.0
	for _, c := range d.both {
		r := &s.tracks[c.here.t].in.Results[c.here.r]
		hi = max(hi, r.Wall, c.other.Wall)
	}
	svgOpen(w, scatterSize, scatterSize, "Wall time, this run against the other: "+d.name)
	x0, y0, in := 70.0, 20.0, float64(sInner)
	fmt.Fprintf(w, `<g stroke="#999" fill="none"><rect x="%.0f" y="%.0f" width="%.0f" height="%.0f"/><line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#bbb"/></g>`,
		x0, y0, in, in, x0, y0+in, x0+in, y0)
	w.WriteString(`<g fill="#333">`)
	for _, t := range logTicks(hi) {
		q := logPos(t, hi) * in
		fmt.Fprintf(w, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text><text x="%.0f" y="%.1f" text-anchor="end">%s</text>`,
			x0+q, y0+in+16, tickLabel(t), x0-4, y0+in-q+4, tickLabel(t))
	}
	w.WriteString(`</g>`)
	step := 1
	if len(d.both) > maxMarks {
		step = (len(d.both) + maxMarks - 1) / maxMarks
	}
	fmt.Fprintf(w, `<g class="marks" data-points="%d" data-step="%d">`, len(d.both), step)
	for k := 0; k < len(d.both); k += step {
		c := d.both[k]
		r := &s.tracks[c.here.t].in.Results[c.here.r]
		fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="#1f77b4"/>`, x0+logPos(r.Wall, hi)*in, y0+in-logPos(c.other.Wall, hi)*in)
	}
	w.WriteString("</g></svg>\n")
}
