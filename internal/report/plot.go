package report

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Plot geometry (SVG user units).
const (
	plotW, plotH           = 640, 420
	padL, padR, padT, padB = 64, 150, 20, 48
	innerW, innerH         = plotW - padL - padR, plotH - padT - padB
	lowTime                = 0.01 // the log axes' left (bottom) end, seconds
	scatterSize            = 460
	sInner                 = scatterSize - 70 - 20
	maxScatter             = 10000 // marks of one scatter plot, at most
)

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"}

// solverOrder lists the scope's solvers best first: by the first ranking
// when scored, else by results solved.
func (s *Site) solverOrder(sc *scope) []string {
	solved := map[string]int{}
	var names []string
	for _, ri := range sc.results {
		n := sc.t.in.Results[ri].Solver
		if _, ok := solved[n]; !ok {
			names = append(names, n)
			solved[n] = 0
		}
		if sc.t.res[ri].solved {
			solved[n]++
		}
	}
	pos := map[string]int{}
	if sc.score != nil && len(sc.score.Rankings) > 0 {
		for i, e := range sc.score.Rankings[0].Entries {
			pos[e.Solver] = i + 1
		}
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, b := names[i], names[j]
		pa, pb := pos[a], pos[b]
		if pa != pb && pa != 0 && pb != 0 {
			return pa < pb
		}
		if solved[a] != solved[b] {
			return solved[a] > solved[b]
		}
		return a < b
	})
	return names
}

// scatterPairs lists the solver pairs that get a scatter plot, best
// first (the first is shown by default: the winner against the runner-up):
// every pair of a division of at most 12 solvers, else every pair among
// the four best and the best against each other; a logic of a division
// gets the pairs among its three best.
func scatterPairs(names []string, logic bool) [][2]string {
	top := 4
	switch {
	case logic:
		top = 3
	case len(names) <= 12:
		top = len(names)
	}
	var out [][2]string
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if i < top && j < top || i == 0 && !logic {
				out = append(out, [2]string{names[i], names[j]})
			}
		}
	}
	return out
}

func scatterFile(sc *scope, a, b string) string {
	return sc.base + "/scatter/" + slug(a) + "--" + slug(b) + ".svg"
}

func (s *Site) registerPlots(sc *scope) {
	for _, wall := range []bool{false, true} {
		name := sc.base + "/cactus-cpu.svg"
		if wall {
			name = sc.base + "/cactus-wall.svg"
		}
		s.add(name, func(w *bytes.Buffer) { s.cactus(w, sc, wall) })
	}
	for _, pr := range scatterPairs(s.solverOrder(sc), sc.name != sc.div) {
		s.add(scatterFile(sc, pr[0], pr[1]), func(w *bytes.Buffer) { s.scatter(w, sc, pr[0], pr[1]) })
	}
}

func (s *Site) plotsSection(p *page, sc *scope) {
	names := s.solverOrder(sc)
	p.raw(`<h2>Plots</h2><div class="plots"><figure><img class="plot" src="`)
	p.text(p.root + sc.base + "/cactus-cpu.svg")
	p.raw(`" alt="cactus plot, CPU time" width="640" height="420"><figcaption>Cactus plot: benchmarks solved against CPU time</figcaption></figure>`)
	p.raw(`<figure><img class="plot" src="`)
	p.text(p.root + sc.base + "/cactus-wall.svg")
	p.raw(`" alt="cactus plot, wall time" width="640" height="420"><figcaption>Cactus plot: benchmarks solved against wall time</figcaption></figure>`)
	pairs := scatterPairs(names, sc.name != sc.div)
	if len(pairs) > 0 {
		p.raw(`<figure><img class="plot" id="scatter-img" src="`)
		p.text(p.root + scatterFile(sc, pairs[0][0], pairs[0][1]))
		p.raw(`" alt="scatter plot of two solvers' wall times" width="460" height="460"><figcaption>Wall time per benchmark, `)
		p.raw(`<select id="scatter-select" aria-label="solver pair">`)
		for _, pr := range pairs {
			p.raw(`<option value="`)
			p.text(p.root + scatterFile(sc, pr[0], pr[1]))
			p.raw(`">`)
			p.text(pr[0] + " (x) against " + pr[1] + " (y)")
			p.raw(`</option>`)
		}
		p.raw(`</select> (timeouts, memouts and unsolved on the outer edge; wrong answers as red crosses). Without JavaScript: `)
		for i, pr := range pairs {
			if i > 0 {
				p.raw(", ")
			}
			p.link(scatterFile(sc, pr[0], pr[1]), pr[0]+" / "+pr[1])
		}
		p.raw(`</figcaption></figure>`)
	}
	p.raw("</div>\n")
}

func svgOpen(w *bytes.Buffer, width, height int, title string) {
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="12">`, width, height, width, height)
	w.WriteString("<title>")
	escape(w, title)
	w.WriteString("</title>")
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="#fff"/>`, width, height)
}

func logPos(t, hi float64) float64 {
	t = max(t, lowTime)
	if t > hi {
		t = hi
	}
	return (math.Log10(t) - math.Log10(lowTime)) / (math.Log10(hi) - math.Log10(lowTime))
}

// logTicks are the powers of ten between lowTime and hi.
func logTicks(hi float64) []float64 {
	var out []float64
	for t := lowTime; t <= hi*1.0001; t *= 10 {
		out = append(out, t)
	}
	return out
}

func tickLabel(t float64) string { return strconv.FormatFloat(t, 'g', -1, 64) }

func (s *Site) timeHigh(sc *scope) float64 {
	hi := sc.t.limit
	if hi < 1 {
		hi = 1
	}
	return hi
}

// cactus draws, per solver, the times of its solved benchmarks sorted:
// the n-th vertex is the time within which it solved n benchmarks. One
// vertex per solved benchmark (an even sample above maxMarks).
func (s *Site) cactus(w *bytes.Buffer, sc *scope, wall bool) {
	what := "CPU"
	if wall {
		what = "wall"
	}
	names := s.solverOrder(sc)
	times := map[string][]float64{}
	most := 1
	for _, ri := range sc.results {
		if !sc.t.res[ri].solved {
			continue
		}
		r := &sc.t.in.Results[ri]
		t := r.CPU
		if wall {
			t = r.Wall
		}
		times[r.Solver] = append(times[r.Solver], t)
	}
	for _, ts := range times {
		most = max(most, len(ts))
	}
	hi := s.timeHigh(sc)
	for _, ts := range times {
		for _, t := range ts {
			hi = max(hi, t)
		}
	}
	svgOpen(w, plotW, plotH, "Cactus plot, "+what+" time: "+sc.t.name+" "+sc.name)
	// axes: x = benchmarks solved (linear), y = time (log)
	fmt.Fprintf(w, `<g stroke="#999" fill="none"><rect x="%d" y="%d" width="%d" height="%d"/></g>`, padL, padT, innerW, innerH)
	w.WriteString(`<g fill="#333">`)
	for _, t := range logTicks(hi) {
		y := float64(padT+innerH) - logPos(t, hi)*innerH
		fmt.Fprintf(w, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`, padL, padL+innerW, y, y, padL-4, y+4, tickLabel(t))
	}
	last := -1
	for i := 0; i <= 4; i++ {
		n := int(math.Round(float64(most) * float64(i) / 4))
		if n == last {
			continue
		}
		last = n
		x := float64(padL) + float64(innerW)*float64(n)/float64(most)
		fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, x, padT+innerH+16, strconv.Itoa(n))
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle">benchmarks solved</text>`, padL+innerW/2, plotH-8)
	fmt.Fprintf(w, `<text transform="translate(14 %d) rotate(-90)" text-anchor="middle">%s time (s, log)</text>`, padT+innerH/2, what)
	w.WriteString("</g>")
	for i, n := range names {
		ts := times[n]
		sort.Float64s(ts)
		color := palette[i%len(palette)]
		step := 1
		if limit := max(1000, maxMarks/max(1, len(names))); len(ts) > limit {
			step = (len(ts) + limit - 1) / limit
		}
		w.WriteString(`<polyline class="cactus" fill="none" stroke-width="1.5" stroke="` + color + `" data-solver="`)
		escape(w, n)
		fmt.Fprintf(w, `" data-solved="%d" data-step="%d" points="`, len(ts), step)
		for k := 0; k < len(ts); k += step {
			x := float64(padL) + float64(innerW)*float64(k+1)/float64(most)
			y := float64(padT+innerH) - logPos(ts[k], hi)*innerH
			fmt.Fprintf(w, "%.1f,%.1f ", x, y)
		}
		w.WriteString(`"/>`)
		ly := padT + 14 + 16*i
		fmt.Fprintf(w, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="3"/><text x="%d" y="%d">`, plotW-padR+8, plotW-padR+24, ly-4, ly-4, color, plotW-padR+28, ly)
		escape(w, fmt.Sprintf("%s (%d)", truncate(n, 13), len(ts)))
		w.WriteString("</text>")
	}
	w.WriteString("</svg>\n")
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// scatter draws one mark per benchmark both solvers ran: x is a's wall
// time, y b's; a run that did not solve it sits on the outer edge; a wrong
// answer is a red cross.
func (s *Site) scatter(w *bytes.Buffer, sc *scope, a, b string) {
	type pt struct {
		ta, tb float64
		sa, sb bool
		wrong  bool
	}
	g := sc.grid()
	ca, cb := g.cells[g.solver[a]], g.cells[g.solver[b]]
	hi := s.timeHigh(sc)
	var pts []pt
	for slot := range ca {
		x, y := ca[slot], cb[slot]
		if x.flags&cellRun == 0 || y.flags&cellRun == 0 {
			continue
		}
		q := pt{float64(x.wall), float64(y.wall), x.flags&cellSolved != 0, y.flags&cellSolved != 0, (x.flags|y.flags)&cellWrong != 0}
		if q.sa {
			hi = max(hi, q.ta)
		}
		if q.sb {
			hi = max(hi, q.tb)
		}
		pts = append(pts, q)
	}
	step := 1
	if len(pts) > maxScatter {
		step = (len(pts) + maxScatter - 1) / maxScatter
	}
	svgOpen(w, scatterSize, scatterSize, "Scatter plot, wall time: "+a+" against "+b)
	x0, y0 := 70.0, 20.0
	in := float64(sInner)
	edge := in * 0.94 // the outer edge band holds unsolved runs
	fmt.Fprintf(w, `<g stroke="#999" fill="none"><rect x="%.0f" y="%.0f" width="%.0f" height="%.0f"/>`, x0, y0, in, in)
	fmt.Fprintf(w, `<line x1="%.0f" y1="%.0f" x2="%.1f" y2="%.1f" stroke="#bbb"/>`, x0, y0+in, x0+edge, y0+in-edge)
	fmt.Fprintf(w, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke-dasharray="3 3"/><line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke-dasharray="3 3"/></g>`,
		x0+edge, y0, x0+edge, y0+in, x0, y0+in-edge, x0+in, y0+in-edge)
	w.WriteString(`<g fill="#333">`)
	for _, t := range logTicks(hi) {
		d := logPos(t, hi) * edge
		fmt.Fprintf(w, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`, x0+d, y0+in+16, tickLabel(t))
		fmt.Fprintf(w, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`, x0-4, y0+in-d+4, tickLabel(t))
	}
	w.WriteString(`<text x="` + strconv.FormatFloat(x0+in/2, 'f', 0, 64) + `" y="` + strconv.Itoa(scatterSize-8) + `" text-anchor="middle">`)
	escape(w, truncate(a, 30)+" wall time (s)")
	w.WriteString(`</text><text transform="translate(14 ` + strconv.FormatFloat(y0+in/2, 'f', 0, 64) + `) rotate(-90)" text-anchor="middle">`)
	escape(w, truncate(b, 30)+" wall time (s)")
	w.WriteString("</text></g>")
	fmt.Fprintf(w, `<g class="marks" data-points="%d" data-step="%d">`, len(pts), step)
	pos := func(t float64, solved bool) float64 {
		if !solved {
			return in * 0.97
		}
		return logPos(t, hi) * edge
	}
	// marks grouped by what the two solvers did, one element each
	colors := []string{"#1f77b4", "#2ca02c", "#ff7f0e", "#999"}
	names := []string{"both solved", "x only", "y only", "neither"}
	var groups [4]bytes.Buffer
	var wrong bytes.Buffer
	for k := 0; k < len(pts); k += step {
		q := pts[k]
		x := x0 + pos(q.ta, q.sa)
		y := y0 + in - pos(q.tb, q.sb)
		if q.wrong {
			fmt.Fprintf(&wrong, `<path d="M%.1f %.1fl6 6m0-6l-6 6"/>`, x-3, y-3)
			continue
		}
		g := 0
		switch {
		case q.sa && !q.sb:
			g = 1
		case !q.sa && q.sb:
			g = 2
		case !q.sa && !q.sb:
			g = 3
		}
		fmt.Fprintf(&groups[g], `<circle cx="%.1f" cy="%.1f" r="2.5"/>`, x, y)
	}
	for g := range groups {
		fmt.Fprintf(w, `<g fill="%s" data-what="%s">`, colors[g], names[g])
		w.Write(groups[g].Bytes())
		w.WriteString("</g>")
	}
	w.WriteString(`<g class="wrong" stroke="#d00" stroke-width="2" data-what="wrong answer">`)
	w.Write(wrong.Bytes())
	w.WriteString("</g>")
	w.WriteString("</g></svg>\n")
}

// A grid cell is a solver's run on one benchmark of a scope.
type cell struct {
	wall  float32
	flags uint8
}

const (
	cellRun    = 1 << iota // the solver ran on the benchmark
	cellSolved             // and solved it
	cellWrong              // or answered wrongly
)

// grid is a scope's runs by solver and benchmark (the first run of each),
// benchmarks in the order they first appear: what every scatter plot of
// the scope reads, made once.
type grid struct {
	solver map[string]int
	cells  [][]cell
}

func (sc *scope) grid() *grid {
	sc.gridOnce.Do(func() {
		g := &grid{solver: map[string]int{}}
		slot := map[int32]int{}
		for _, ri := range sc.results {
			info := sc.t.res[ri]
			if _, ok := slot[info.bench]; !ok {
				slot[info.bench] = len(slot)
			}
		}
		for _, ri := range sc.results {
			r := &sc.t.in.Results[ri]
			k, ok := g.solver[r.Solver]
			if !ok {
				k = len(g.cells)
				g.solver[r.Solver] = k
				g.cells = append(g.cells, make([]cell, len(slot)))
			}
			info := sc.t.res[ri]
			c := &g.cells[k][slot[info.bench]]
			if c.flags&cellRun != 0 {
				continue
			}
			c.wall, c.flags = float32(r.Wall), cellRun
			if info.solved {
				c.flags |= cellSolved
			}
			if info.wrong {
				c.flags |= cellWrong
			}
		}
		sc.gridCache = g
	})
	return sc.gridCache
}
