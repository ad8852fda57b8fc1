// Package executor schedules a competition's job pairs onto workers. The
// store is the only coordination: workers claim pairs under leases and
// complete each exactly once, so several processes (on one machine or
// many, sharing PostgreSQL) can run one competition, and a coordinator
// killed at any moment resumes where it stopped.
package executor
