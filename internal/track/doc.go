// Package track knows, per track, how a solver is invoked on a benchmark
// and how its output is judged: the command line (or stdin, under the
// 2005 protocol), and the answer and status the rules read from what the
// solver printed and how its run ended.
package track
