package report

import (
	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
)

// Input is what a site is made from: the results of one competition (a run
// of smtarena, or official data imported and re-scored), track by track.
type Input struct {
	Title     string // the competition's name
	Generated string // when the site was made (shown in the footer)
	Meta      Meta
	Tracks    []Track
	// Progress, when not nil, is the live state of a running competition
	// (shown on the overview; serve updates it without a reload).
	Progress []Progress
	// Compare is another run to compare with (--compare), or nil.
	Compare *Input
	// CompareAs pairs a solver of this run with one of another name in the
	// compared run (two versions of a solver); others pair by name.
	CompareAs map[string]string
	// WorkDir is the competition's work directory, where the pairs' whole
	// outputs are (a result's output_file is relative to it); "" for
	// imported data, which has none.
	WorkDir string
	// Live marks pages served by internal/web: they poll for progress.
	Live bool
}

// Meta describes the competition.
type Meta struct {
	Rules, Year int
	Seed        string // the seed and how it was derived
	Compat      string
	Limits      []Limit
	Entrants    []Entrant
	Notes       []string // anything else worth saying on the overview
}

// Limit is a track's resource limits.
type Limit struct {
	Track     string
	CPU, Wall float64 // seconds
	MemoryMB  int64
	Cores     int
}

// Entrant is a solver as registered.
type Entrant struct {
	Name, Team, Version string
	Competitive         bool
}

// Track is one track's results and scores.
type Track struct {
	Track benchmark.Track
	// Score is the track's scores, nil when the track has none (proof).
	Score *score.Report
	// Results are the track's results; Solver is the name shown.
	Results []store.Result
	// TimeLimit is the plots' right edge in seconds (default: the score's
	// T, else the longest run).
	TimeLimit float64
}

// Progress is one track and division's progress while a competition runs.
type Progress struct {
	Track    string `json:"track"`
	Division string `json:"division"`
	Planned  int    `json:"planned"`
	Done     int    `json:"done"`
	Running  int    `json:"running"`
	Errors   int    `json:"errors"`
	Wrong    int    `json:"wrong"`
	// ETA in seconds, -1 when unknown.
	ETA float64 `json:"eta"`
}
