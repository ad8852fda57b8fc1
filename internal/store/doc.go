// Package store keeps everything a competition lives on: the benchmark
// index, prior and new results, selections. One interface, two
// implementations over database/sql: SQLite (embedded, one file, WAL) by
// default and PostgreSQL for many machines. Every write is one transaction,
// so an interrupted index or import loses nothing already recorded and
// resumes where it stopped.
package store
