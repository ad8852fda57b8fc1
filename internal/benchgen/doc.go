// Package benchgen generates SMT-LIB benchmarks whose status is known by
// construction (pigeonhole, planted solutions, n-queens, factoring,
// scheduling, incremental traces), written one at a time to an io.Writer
// or as a whole library in the SMT-LIB layout (Instances, WriteLibrary);
// corpora of a given number of files and total size for indexing figures
// (WriteCorpus); and one big QF_LIA benchmark for parser figures
// (GenerateQFLIA). Everything is deterministic for a seed: demos and tests
// get real benchmarks without shipping any.
package benchgen
