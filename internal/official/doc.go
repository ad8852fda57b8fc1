// Package official reads the result files that SMT-COMP publishes (StarExec
// job exports, the AWS CSVs of the cloud and parallel tracks, the smtcomp
// tool's results and benchmark JSON of 2024 on) into the store's results
// table, losslessly: every row of a file is added, found already there, or
// named with its line and the reason it could not be used.
package official
