// Package config reads a competition's definition (competition.toml): its
// rules year, tracks with their limits, seed inputs and solvers, and the
// divisions each rules year groups logics into (the official 2022 table is
// embedded).
package config
