// Package library builds and reads benchmark libraries. For now it holds
// the generator of synthetic SMT-LIB benchmarks that demos, tests and
// performance figures use when real files of the wanted size or shape are not
// at hand; indexing of SMT-LIB trees and archives joins it later.
package library
