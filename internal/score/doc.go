// Package score computes competition scores from result rows, for each rules
// year as its document writes it: the benchmark scores (2006's +1/-8, 2014's
// ⟨e, n, m⟩, 2018's weighted ⟨e, n, w, c⟩, 2022's parallel ⟨e, n, w, c⟩ and
// sequential ⟨e, n, c⟩ per track), division scores and rankings with each
// year's lexicographic order, winners among competitive solvers, and the
// competition-wide rankings and recognitions (2018's competition-wide score
// and special recognitions, 2014's open-source and new-entrant awards, 2022's
// biggest lead and largest contribution). From 2019 each year is scored by
// its own text where there is one (2020, 2022, 2023, 2024; rules_years.go):
// their tracks, limits, experimental divisions, and the 2023 time scores of
// correctly solved benchmarks. Where the organisers' published
// computation departed from the text, Options.Compat = Official reproduces
// what they published instead (docs/scoring.md lists each departure). The
// package is pure: rows come in, a Report comes out; reading the store and
// writing files is for the caller.
package score
