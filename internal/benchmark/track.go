package benchmark

import (
	"fmt"
	"strings"
)

// Track is a competition track: how benchmarks are given to solvers and how
// their answers are judged.
type Track string

// The tracks of SMT-COMP. 2018 called single-query "main" and incremental
// "application"; ParseTrack accepts those names too.
const (
	SingleQuery     Track = "single-query"
	Incremental     Track = "incremental"
	UnsatCore       Track = "unsat-core"
	ModelValidation Track = "model-validation"
	Proof           Track = "proof"
	Parallel        Track = "parallel"
	Cloud           Track = "cloud"
)

// Tracks lists every track, in the order the 2022 rules present them.
var Tracks = []Track{SingleQuery, Incremental, UnsatCore, ModelValidation, Proof, Parallel, Cloud}

// ParseTrack reads a track name, accepting the older names main and
// application.
func ParseTrack(name string) (Track, error) {
	switch n := strings.ToLower(name); n {
	case "main":
		return SingleQuery, nil
	case "application":
		return Incremental, nil
	case "proof-exhibition":
		return Proof, nil
	default:
		for _, t := range Tracks {
			if string(t) == n {
				return t, nil
			}
		}
	}
	return "", fmt.Errorf("unknown track %q (want one of %s)", name, TrackNames())
}

// TrackNames lists the track names for messages and help texts.
func TrackNames() string {
	names := make([]string, len(Tracks))
	for i, t := range Tracks {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// TracksOf returns the tracks a rules year has.
func TracksOf(year int) []Track {
	switch {
	case year <= 2014:
		return []Track{SingleQuery, Incremental}
	case year <= 2018:
		return []Track{SingleQuery, Incremental, UnsatCore}
	}
	return Tracks
}
