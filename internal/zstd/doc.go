// Package zstd decodes Zstandard streams (RFC 8878), as the `.tar.zst` and
// `.tzst` SMT-LIB release archives are compressed. It exists so that the
// smtarena binary does not link github.com/klauspost/compress/zstd, whose
// package initialisers (a CRC-32C table among them) were the largest single
// cost of the binary's start-up, which `validate-model`, run once per model,
// pays every time. It imports only the standard library, keeps only as
// much history as the data needs (never the declared window up front),
// refuses windows above MaxWindowSize and dictionaries, verifies content
// checksums, and reports corrupt or truncated input as an error with the
// offset in the compressed stream.
package zstd
