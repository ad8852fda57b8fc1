package main

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/score"
)

// scoreDivisions picks the division table of `smtarena score`: the file
// given (--divisions: SMT-COMP's divisions.json or new-divisions.json, or
// the smtcomp tool's defs.py of 2024 on), else the table the organisers
// published for the year (built in, internal/config/divisions). Logics of
// the results that the table does not list are scored as divisions of
// their own, and named on stderr, since that is a guess.
func scoreDivisions(io streams, file string, year int, track benchmark.Track, present map[string]bool) (map[string][]string, error) {
	logics := make([]string, 0, len(present))
	for l := range present {
		logics = append(logics, l)
	}
	sort.Strings(logics)
	var (
		divs     map[string][]string
		unlisted []string
		from     string
	)
	if file != "" {
		table, err := readDivisionsFile(file, track)
		if err != nil {
			return nil, err
		}
		_, unlisted = config.Group(table, logics)
		divs, from = table, file
	} else {
		var err error
		if divs, unlisted, err = config.Divisions(year, track, logics); err != nil {
			return nil, err
		}
		ty, exact := config.TableYear(year)
		if ty == 0 {
			return divs, nil // before 2019 every logic is a division
		}
		if !exact {
			fmt.Fprintf(io.err, "smtarena: no division table of %d is built in: using %d's (give --divisions FILE)\n", year, ty)
		}
		from = fmt.Sprintf("the %d %s division table", ty, track)
	}
	if len(unlisted) > 0 {
		fmt.Fprintf(io.err, "smtarena: not in %s, each scored as a division of its own: %s\n", from, strings.Join(unlisted, ", "))
	}
	return divs, nil
}

// readDivisionsFile reads a division table: a defs.py (by its tracks
// table) or a JSON table as SMT-COMP publishes it. Errors name the file.
func readDivisionsFile(file string, track benchmark.Track) (map[string][]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(file, ".py") || bytes.Contains(data, []byte("\ntracks: dict[")) {
		defs, err := score.ParseSMTCOMPDefs(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		table := defs.Divisions(track)
		if len(table) == 0 {
			return nil, fmt.Errorf("%s: no %s track in the tracks table", file, track)
		}
		return table, nil
	}
	table, err := config.ParseDivisions(data, track)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return table, nil
}
