package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
)

// summaryEvery is how often compete prints a summary line when its output
// is not a terminal.
const summaryEvery = 5 * time.Second

// redrawEvery is how often the bars are redrawn on a terminal.
const redrawEvery = 200 * time.Millisecond

// barWidth is the width of a bar's filled part, in cells.
const barWidth = 40

// pairProgress shows compete's progress: on a terminal a bar per track
// (done/total, ETA, wrong answers, errors), redrawn in place; elsewhere
// one summary line every few seconds and one at the end. It draws the
// bars itself (a few ANSI escapes): a progress library's package
// initialisers would be paid by every command of the binary, also by
// validate-model, which is run once per model.
type pairProgress struct {
	w      io.Writer
	tty    bool
	mu     sync.Mutex
	tracks []string
	by     map[string]*trackProgress
	stop   chan struct{}
	wg     sync.WaitGroup
	start  time.Time
	drawn  bool // the bars are on the screen: redraw over them
	once   sync.Once
}

type trackProgress struct {
	done, total, startDone int
	wrong, errors          int
	first                  time.Time // the first pair completed in this run
}

// newPairProgress starts showing progress; done counts the pairs of each
// track already recorded (a resumed competition).
func newPairProgress(w io.Writer, tty bool, planned map[benchmark.Track]int, done map[string]int) *pairProgress {
	p := &pairProgress{w: w, tty: tty, by: map[string]*trackProgress{}, start: time.Now(), stop: make(chan struct{})}
	for t, n := range planned {
		p.tracks = append(p.tracks, string(t))
		p.by[string(t)] = &trackProgress{total: n, done: done[string(t)], startDone: done[string(t)]}
	}
	sort.Slice(p.tracks, func(i, j int) bool { return trackOrder(p.tracks[i]) < trackOrder(p.tracks[j]) })
	every, show := summaryEvery, p.summary
	if tty {
		every, show = redrawEvery, p.draw
		p.draw()
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				show()
			}
		}
	}()
	return p
}

// onPair counts a completed pair.
func (p *pairProgress) onPair(pr store.Pair, r store.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	tp := p.by[pr.Track]
	if tp == nil {
		return
	}
	tp.done++
	if r.Status == "error" {
		tp.errors++
	}
	if isWrong(r) {
		tp.wrong++
	}
	if tp.first.IsZero() {
		tp.first, tp.startDone = time.Now(), tp.done
	}
}

// eta is a track's estimated time to completion, from the rate of the
// pairs completed in this run after its first: "-" before there is one,
// "done" at the end.
func (tp *trackProgress) eta() string {
	if tp.done >= tp.total {
		return "done"
	}
	n := tp.done - tp.startDone
	if n <= 0 {
		return "-"
	}
	return (time.Duration(float64(time.Since(tp.first)) / float64(n) * float64(tp.total-tp.done))).Round(time.Second).String()
}

// summary prints one line: every track's done/total, ETA, wrong answers
// and errors.
func (p *pairProgress) summary() {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("[%s]", time.Since(p.start).Round(time.Second))
	for _, t := range p.tracks {
		tp := p.by[t]
		line += fmt.Sprintf(" %s %d/%d ETA %s, %d wrong, %d errors;", t, tp.done, tp.total, tp.eta(), tp.wrong, tp.errors)
	}
	fmt.Fprintln(p.w, line[:len(line)-1])
}

// draw writes the bars, a line per track, over those drawn before.
func (p *pairProgress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	width := 0
	for _, t := range p.tracks {
		width = max(width, len(t))
	}
	var b strings.Builder
	if p.drawn && len(p.tracks) > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", len(p.tracks)) // back to the first bar
	}
	for _, t := range p.tracks {
		tp := p.by[t]
		fmt.Fprintf(&b, "\r\x1b[2K%-*s %d/%d %s ETA %s, %d wrong, %d errors\n",
			width, t, tp.done, tp.total, bar(tp.done, tp.total), tp.eta(), tp.wrong, tp.errors)
	}
	io.WriteString(p.w, b.String())
	p.drawn = true
}

// bar is done out of total as a bar of barWidth cells.
func bar(done, total int) string {
	filled := barWidth
	if total > 0 && done < total {
		filled = done * barWidth / total
	}
	return "[" + strings.Repeat("=", filled) + strings.Repeat(" ", barWidth-filled) + "]"
}

// finish stops the display: the bars are drawn a last time as they are
// (those of tracks not finished, after an interruption, short of their
// end), or the last summary line is printed.
func (p *pairProgress) finish() {
	p.once.Do(func() {
		close(p.stop)
		p.wg.Wait()
		if p.tty {
			p.draw()
		} else {
			p.summary()
		}
	})
}

// trackOrder is a track's place in the order compete runs them.
func trackOrder(t string) int {
	for i, x := range benchmark.Tracks {
		if string(x) == t {
			return i
		}
	}
	return len(benchmark.Tracks)
}
