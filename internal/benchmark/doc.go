// Package benchmark holds the domain types of a competition's benchmarks
// and tracks, shared by the packages that index, select, lint, run and score
// them. It does no I/O, so that every other package may import it.
package benchmark
