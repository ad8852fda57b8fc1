package config

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The division tables SMT-COMP published, one file per year, in the
// organisers' own JSON shape: per track key ("track_single_query", ...)
// either a list of logics (2019, 2020: each logic is a division) or a map
// from division to logics (2021 on). divisions/SOURCES.md names the
// repository, path and commit each file comes from. Scoring a year needs
// that year's table because the tables changed every year (logics added,
// QF_Datatypes split from QF_Equality in 2022, the model-validation
// divisions of 2023, ...).
//
//go:embed divisions/*.json
var divisionFiles embed.FS

// Years with a built-in table. Before the first, every logic was a
// division of its own (the 2006-2018 rules); after the last, the last
// table is the best guess and TableYear says so.
const (
	FirstTableYear = 2019
	LastTableYear  = 2025
)

var (
	tablesOnce sync.Once
	tables     map[int]map[string]map[string][]string // year -> track key -> division -> logics
	tablesErr  error
)

// loadTables reads every embedded table once. An error names the file.
func loadTables() (map[int]map[string]map[string][]string, error) {
	tablesOnce.Do(func() {
		tables = map[int]map[string]map[string][]string{}
		for y := FirstTableYear; y <= LastTableYear; y++ {
			name := fmt.Sprintf("divisions/%d.json", y)
			data, err := divisionFiles.ReadFile(name)
			if err != nil {
				tablesErr = fmt.Errorf("config: embedded %s: %w", name, err)
				return
			}
			t, err := parseDivisionTable(data)
			if err != nil {
				tablesErr = fmt.Errorf("config: embedded %s: %w", name, err)
				return
			}
			tables[y] = t
		}
	})
	return tables, tablesErr
}

// trackKey is the key of a track in the published tables.
func trackKey(t benchmark.Track) string {
	if t == benchmark.Proof {
		return "track_proof_exhibition"
	}
	return "track_" + strings.ReplaceAll(string(t), "-", "_")
}

// parseDivisionTable reads a published table: every track, each either a
// list of logics (one division each) or a map of divisions to logics.
func parseDivisionTable(data []byte) (map[string]map[string][]string, error) {
	// The published 2019 file has trailing commas, which JSON does not.
	data = trailingComma().ReplaceAll(data, []byte("$1"))
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	out := map[string]map[string][]string{}
	for key, r := range raw {
		m, err := parseTrackTable(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		out[key] = m
	}
	return out, nil
}

// parseTrackTable reads one track of a table.
func parseTrackTable(raw json.RawMessage) (map[string][]string, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		out := map[string][]string{}
		for _, l := range list {
			out[l] = []string{l}
		}
		return out, nil
	}
	var m map[string][]string
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("want a list of logics or a map of divisions to logics")
	}
	return m, nil
}

// TableYear is the year whose built-in table Divisions uses for a
// competition year: the year itself from FirstTableYear to LastTableYear,
// LastTableYear after it (exact reports whether the year has its own
// table), 0 before FirstTableYear (no table: one logic per division).
func TableYear(year int) (table int, exact bool) {
	switch {
	case year < FirstTableYear:
		return 0, false
	case year > LastTableYear:
		return LastTableYear, false
	}
	return year, true
}

// Table returns the published division table of a year's track (a copy),
// nil if the year has no table or the table no such track.
func Table(year int, track benchmark.Track) (map[string][]string, error) {
	ty, _ := TableYear(year)
	if ty == 0 {
		return nil, nil
	}
	all, err := loadTables()
	if err != nil {
		return nil, err
	}
	t, ok := all[ty][trackKey(track)]
	if !ok {
		return nil, nil
	}
	out := make(map[string][]string, len(t))
	for d, ls := range t {
		out[d] = append([]string(nil), ls...)
	}
	return out, nil
}

// Divisions groups logics into the divisions of a year's track as the
// organisers published them (TableYear says which table). Before 2019
// every logic is a division of its own. A logic the table does not list
// is a division of its own too, and is returned in unlisted (sorted) so
// that the caller can say so: scoring it as its own division is a guess.
func Divisions(year int, track benchmark.Track, logics []string) (divisions map[string][]string, unlisted []string, err error) {
	ty, _ := TableYear(year)
	if ty == 0 {
		out := map[string][]string{}
		for _, l := range logics {
			out[l] = []string{l}
		}
		return out, nil, nil
	}
	table, err := Table(year, track)
	if err != nil {
		return nil, nil, err
	}
	divisions, unlisted = Group(table, logics)
	return divisions, unlisted, nil
}

// Group groups logics by a division table. A logic the table does not
// list forms a division of its own (named by it) and is returned in
// unlisted; a logic listed in two divisions goes to the first by name.
func Group(table map[string][]string, logics []string) (divisions map[string][]string, unlisted []string) {
	divOf := map[string]string{}
	names := make([]string, 0, len(table))
	for d := range table {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		for _, l := range table[d] {
			if _, ok := divOf[l]; !ok {
				divOf[l] = d
			}
		}
	}
	divisions = map[string][]string{}
	seen := map[string]bool{}
	for _, l := range logics {
		if seen[l] {
			continue
		}
		seen[l] = true
		d, ok := divOf[l]
		if !ok {
			d = l
			unlisted = append(unlisted, l)
		}
		divisions[d] = append(divisions[d], l)
	}
	for _, ls := range divisions {
		sort.Strings(ls)
	}
	sort.Strings(unlisted)
	return divisions, unlisted
}
