// Package xz decodes .xz streams (the XZ file format 1.x with the LZMA2
// filter), as the `.tar.xz` SMT-LIB release archives and the official
// results archives are compressed. It exists so that the smtarena binary
// does not link github.com/ulikunitz/xz, whose package initialisers (a
// CRC-64 table built by hash/crc64, and internal/xlog) cost about 2% of a
// `validate-model` run, which is started once per model. It imports only
// the standard library and builds its CRC-64 table on first use, never in
// an initialiser.
//
// The decoder covers the whole container (stream header and footer, block
// headers with their sizes, block padding, the index checked against the
// blocks decoded, concatenated streams and stream padding), the check types
// None, CRC32, CRC64 and SHA-256 (all verified), and LZMA2 with its
// uncompressed and LZMA chunks. Other filters (Delta, BCJ) are refused
// with ErrFilter. The dictionary buffer grows with the data, up to the
// declared size; dictionaries above MaxDictSize are refused. Corrupt or
// truncated input is an error naming the offset in the compressed stream.
// The legacy .lzma format is not decoded: nothing in smtarena reads it.
package xz
