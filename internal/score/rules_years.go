package score

import (
	"fmt"
	"slices"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// document is what one rules text of 2019 onwards fixes besides the §7
// scoring that they share (the rule set 2022 of RuleSet): its tracks, the
// limits it gives, and where its scoring departs from the 2022 text. The
// texts are the 2020, 2023 and 2024 rules (shared/rules/extra/rules20.tex,
// rules23.tex, rules24.tex) and the 2022 rules (shared/rules/000_...txt).
type document struct {
	year   int
	tracks []benchmark.Track
	// T in seconds per track (each text's "Time Limit." paragraph of §4/§5).
	timeLimit map[benchmark.Track]float64
	// The memory limit in GB the text gives per track; a track it leaves to
	// the website is not listed.
	memLimit map[benchmark.Track]int
	// solvedTimes: 2023 and 2024 §7.1, the wall-clock and CPU time scores
	// count only on benchmarks correctly solved within the limit (w = 0
	// when e = 1, when the run did not end within T, or on no answer), the
	// incremental track's the time until its last sat/unsat answer; and the
	// sequential score is ⟨e, n, c⟩ of the runs within the virtual CPU limit
	// T, ⟨0, 0, 0⟩ of the others (§7.1.1), with no min{c, T}.
	solvedTimes bool
	// perLogic: 2022 and 2023 §7.2, "in divisions composed by more than one
	// logic, all the above scores will be presented ... for each logic". The
	// 2020 text's divisions are single logics (§5 "Divisions.") and it has no
	// such sentence.
	perLogic bool
	// experimental says whether a model-validation logic makes its
	// division experimental by the text (rules2020.go).
	experimental func(logic string) bool
}

var (
	fourTracks  = []benchmark.Track{benchmark.SingleQuery, benchmark.Incremental, benchmark.UnsatCore, benchmark.ModelValidation}
	sevenTracks = []benchmark.Track{benchmark.SingleQuery, benchmark.Incremental, benchmark.UnsatCore, benchmark.ModelValidation,
		benchmark.Parallel, benchmark.Cloud, benchmark.Proof}
	sixTracks = sevenTracks[:6]
)

func limits[V any](v V, ts []benchmark.Track) map[benchmark.Track]V {
	m := map[benchmark.Track]V{}
	for _, t := range ts {
		m[t] = v
	}
	return m
}

// documents are the texts of 2019 onwards that smtarena has.
var documents = map[int]*document{
	// 2020 §1: four tracks; 20 minutes in each (§4.2-4.5); 60 GB (§4.1).
	2020: {year: 2020, tracks: fourTracks, timeLimit: limits(1200.0, fourTracks), memLimit: limits(60, fourTracks),
		experimental: experimentalMV2020},
	// 2022 §1: seven tracks; 20 minutes in each (§5.2-5.8); 60 GB (§5.1),
	// the parallel and cloud tracks' memory on the website.
	2022: {year: 2022, tracks: sevenTracks, timeLimit: limits(1200.0, sevenTracks), memLimit: limits(60, fourTracks), perLogic: true,
		experimental: experimentalMV2022},
	// 2023: as 2022, with the time scores of correctly solved benchmarks
	// (§1 "Scoring.", §7.1).
	2023: {year: 2023, tracks: sevenTracks, timeLimit: limits(1200.0, sevenTracks), memLimit: limits(60, fourTracks), perLogic: true,
		solvedTimes: true, experimental: experimentalMV2023},
	// 2024 §1: no proof track; 2 minutes in the parallel and cloud tracks,
	// 30 GB in the four others; the 2023 scoring (§7 unchanged).
	2024: {year: 2024, tracks: sixTracks, timeLimit: func() map[benchmark.Track]float64 {
		m := limits(1200.0, fourTracks)
		m[benchmark.Parallel], m[benchmark.Cloud] = 120, 120
		return m
	}(), memLimit: limits(30, fourTracks), perLogic: true, solvedTimes: true, experimental: experimentalMV2023},
}

// Document names the rules text a rules year of 2019 or later is scored
// by: the year's own where smtarena has it (2020, 2022, 2023, 2024), else
// the nearest: 2019 by 2020's (four tracks, divisions of one logic, the
// same §7), 2021 by 2022's (2021 brought the parallel and cloud tracks and
// divisions of several logics that the 2022 text describes), 2025 and
// later by 2024's. Years before 2019 have no such document (0).
func Document(year int) int {
	switch {
	case year < 2019:
		return 0
	case year <= 2020:
		return 2020
	case year <= 2022:
		return 2022
	case year == 2023:
		return 2023
	}
	return 2024
}

// RulesYears says which --rules years are accepted, for help texts and
// errors.
const RulesYears = "2006, 2014, 2018, or 2019 and later (2019-2020: the 2020 text, 2021-2022: the 2022 text, 2023: the 2023 text, 2024 and later: the 2024 text)"

func documentOf(year int) *document { return documents[Document(year)] }

// ranWith is T of a competition of 2020-2024 as it ran: its text's, but
// 2024 ran every track with 1200 s (the smtcomp tool's Config.timelimit_s,
// the published pages' "Time Limit: 1200 seconds"; answers in the parallel
// and cloud results come as late as 1193 s), though its text gives the
// parallel and cloud tracks 2 minutes; the text's 120 s applies where the
// 2024 rules score a year whose limit smtarena does not know.
func ranWith(year int, track benchmark.Track) (float64, bool) {
	if year == 2024 {
		return 1200, true
	}
	return docLimit(year, track)
}

// docLimit is T of a track by the text of a year that has one of its own.
func docLimit(year int, track benchmark.Track) (float64, bool) {
	d, ok := documents[year]
	if !ok {
		return 0, false
	}
	t, ok := d.timeLimit[track]
	return t, ok
}

// MemLimit is the default memory limit in GB of a competition's track: what
// it ran with where smtarena knows it (2024: 20, the smtcomp tool's
// Config.memlimit_M = 20480, though the text says 30), the year's text's
// where it has one, else the rules text's, else 60 (StarExec).
func MemLimit(rules, year int, track benchmark.Track) int {
	if year == 2024 {
		return 20
	}
	if d, ok := documents[year]; ok {
		if m, ok := d.memLimit[track]; ok {
			return m
		}
	}
	if d := documentOf(rules); d != nil && rules >= 2019 {
		if m, ok := d.memLimit[track]; ok {
			return m
		}
	}
	return 60
}

// checkDocument refuses a track the rules text does not have.
func checkDocument(rules int, track benchmark.Track) error {
	d := documentOf(rules)
	if d == nil || slices.Contains(d.tracks, track) {
		return nil
	}
	return fmt.Errorf("the %d rules (the %d text) have no %s track", rules, d.year, track)
}

// CheckTrack says whether a rules year has a track (for callers that want
// to refuse it before reading results).
func CheckTrack(rules int, track benchmark.Track) error {
	rs, err := RuleSet(rules)
	if err != nil {
		return err
	}
	if !trackOf(rs, track) {
		return fmt.Errorf("the %d rules have no %s track", rules, track)
	}
	return checkDocument(rules, track)
}
