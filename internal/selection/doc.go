// Package selection chooses a competition's benchmarks from a library the
// way each year's rules document writes it (2006, 2014, 2018, 2022), and
// divides a selection into heats. It is pure: candidates, their earlier
// results and a seed go in, a selection comes out, and every random draw
// comes from crand (C's random()) in an order docs/selection.md fixes, so
// that anyone with the same inputs and seed gets the same selection.
package selection
