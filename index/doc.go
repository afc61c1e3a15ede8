// Package index is StrataGate's persisted inverted index, shared by every
// search channel (raw messages, event cards, graph nodes). It stores, per
// field, term → posting list (doc numbers in a roaring bitmap, term
// frequencies, field lengths), doc number → record id, corpus statistics,
// exact-match keyword bitmaps (scopes, participants, types, threads), a
// tombstone bitmap and a time index, all inside the caller's bbolt
// transaction so that a record and its index entries commit together.
//
// # Layout
//
// Everything lives under the top-level bucket "idx.NAME":
//
//	meta   "stats"                             → {Docs, Live, Gen, TotalLen[field], MaxSpan}
//	docs   docnum (u32 BE)                     → {ID, Scope, Lens[field], Keywords, Start, End}
//	ids    record id (u64 BE)                  → docnum (u32 BE)
//	terms  field (1B) ‖ term                   → version ‖ df u32 ‖ maxTF u16 ‖ gen u64
//	post   field (1B) ‖ term ‖ 0x00 ‖ chunk u32 → posting chunk
//	kwmeta keyword                             → version ‖ count u32 ‖ gen u64
//	kw     keyword ‖ 0x00 ‖ chunk u32          → version ‖ roaring bitmap
//	time   start ns (u64 BE, sign flipped) ‖ docnum → end ns (u64 BE)
//
// A chunk covers 256 consecutive doc numbers, so adding a document
// rewrites one small chunk per term instead of a whole posting list. A
// posting chunk is
//
//	version (1) ‖ n (u16) ‖ roaring length (u32) ‖ roaring bitmap ‖ n × tf (u16) ‖ n × field length (u32)
//
// with tf capped at 65535. Scopes are keywords "\x00s:SCOPE"; tombstones
// the keyword "\x00tomb". Doc numbers are assigned densely from 1 in Add
// order.
//
// # Queries
//
// Search scores BM25 (one field) or BM25F (several fields, per-field weight
// and length normalisation; see package bm25) and returns the exact top K
// of an exhaustive scorer — same ids, same scores, ties broken by smaller
// doc number — using MaxScore dynamic pruning with per-term upper bounds
// (idf · maxTF saturation at the shortest length). Candidates are only
// documents containing a query term that pass the filters (scope union,
// required keywords, time overlap, not tombstoned); a query with no lexical
// match returns nothing. Scores of a document are always summed in query
// term order, so pruned and exhaustive evaluation agree to the last bit.
// Select is the structured counterpart (keywords and/or time, newest
// first).
//
// # Cache
//
// Decoded postings and keyword bitmaps are cached in a bounded LRU. Each
// entry carries the generation of its term or keyword record when it was
// loaded; a lookup reuses it only if the transaction at hand sees the same
// generation. Every Add and Delete bumps the generation of what it
// touches, so a cached entry is never stale for any snapshot, and nothing
// cached aliases bbolt memory (postings are decoded into fresh slices,
// bitmaps with UnmarshalBinary, which copies).
//
// # Rebuild
//
// The index is derived. Drop followed by Add of every source record in the
// original order reproduces it; Compare checks a stored index against such
// a rebuild, ignoring only generation counters.
package index
