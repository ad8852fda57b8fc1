// Package library indexes SMT-LIB benchmark trees and release archives
// into the store: logic, family, category, status, check-sat and assertion
// counts of every benchmark, with the file signatures that let a later
// index skip unchanged files.
package library
