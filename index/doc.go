// Package index is StrataGate's persisted inverted index, shared by every
// search channel (raw messages, event cards, graph nodes). It stores, per
// field, term → posting list (doc numbers, term frequencies and field
// lengths in compact blocks), doc number → record id, corpus statistics,
// exact-match keyword bitmaps (scopes, participants, types, threads), a
// tombstone bitmap and a time index, all inside the caller's bbolt
// transaction so that a record and its index entries commit together.
//
// # Layout
//
// Everything lives under the top-level bucket "idx.NAME" (layout 4; the
// stats record names it, and an index of another layout answers ErrLayout
// until it is rebuilt):
//
//	meta   "stats"                               → {Docs, Live, Gen, TotalLen[field], MaxSpan, Base, Layout}
//	docs   (doc-1)>>6 (u32 BE)                   → version ‖ 64 × record id (varint delta from the previous)
//	ids    record id>>6 (u64 BE)                 → version ‖ (id&63 byte ‖ doc varint delta)*, sorted
//	terms  field (1B) ‖ term                     → version ‖ df u32 ‖ maxTF u16 ‖ last doc u32 ‖ last block u32 ‖ gen u64
//	post   field (1B) ‖ term ‖ 0x00 ‖ first doc  → posting block (see block.go)
//	kwmeta keyword                               → version ‖ count u32 ‖ gen u64
//	kw     keyword ‖ 0x00 ‖ chunk u32            → version ‖ roaring bitmap of docs chunk<<12 …
//	time   window u64 ‖ first doc u32            → version ‖ (start-window uvarint ‖ end-start uvarint ‖ doc uvarint)*
//
// Per-document tables are chunked, because a bbolt key costs 16 bytes of
// page header plus the key, more than the entry itself: 64 docs share a
// docs chunk (doc numbers are dense, so entry i is doc chunk·64+i+1), 64
// record ids an ids chunk, and the time index keeps, per window of 2^44 ns
// (about 4.9 hours; the window is start>>44 with the sign bit flipped),
// blocks of up to 512 bytes of entries in insertion order (a range query
// filters every entry of the windows it scans, so order inside a window
// does not matter).
//
// A posting block holds a run of one term's postings, up to 512 bytes: a
// header (the posting count and up to four (tf, length) points bounding
// every posting), then doc gaps and (length, tf) pairs as uvarints, two
// bytes plus the gap for a field shorter than 32 terms with tf ≤ 3. Doc
// numbers are assigned densely from 1 in Add order, so a new posting
// always goes to the term's last block (found from the term record,
// without a cursor) by rewriting its header and copying its postings'
// bytes, with no decoding; a full block is never written again. Scopes are keywords "\x00s:SCOPE"; tombstones the keyword
// "\x00tomb". Keyword bitmaps are chunked by 4096 doc numbers.
//
// The docs table is written with bbolt's FillPercent 1 (only its last
// chunk changes), ids and time with 0.95 (keys mostly grow), posting and
// term records with bbolt's default 0.5 (they are written all over the key
// space; fuller pages there split more often and end emptier).
//
// Stats are a msgpack record (version 1). Gen is bumped by every change to
// the index, Drop included, so it only grows; Base is the Gen an index
// recreated by Drop started at (omitted while 0, so records written before
// the field existed read as 0, which they are).
//
// # Queries
//
// Search scores BM25 (one field) or BM25F (several fields, per-field weight
// and length normalisation; see package bm25) and returns the exact top K
// of an exhaustive scorer — same ids, same scores, ties broken by smaller
// doc number — using block-max MaxScore dynamic pruning (maxscore.go):
// per-term upper bounds from the terms' frontiers, per-block bounds from
// the block headers, read without decoding the blocks. Candidates are only
// documents containing a query term that pass the filters (scope union,
// required keywords, time overlap, not tombstoned); a query with no lexical
// match returns nothing. Scores of a document are always summed in query
// term order, so pruned and exhaustive evaluation agree to the last bit.
// Select is the structured counterpart (keywords and/or time, newest
// first).
//
// # Cache
//
// Posting lists (their block headers and encoded postings, each block
// decoded on first use, kept decoded while the cache has room) and keyword
// bitmaps are cached in a bounded LRU. Each
// entry carries the generation of its term or keyword record when it was
// loaded; a lookup reuses it only if the transaction at hand sees the same
// generation. Every Add and Delete bumps the generation of what it
// touches, so a cached entry is never stale for any snapshot, and nothing
// cached aliases bbolt memory (postings are copied, bitmaps decoded with
// UnmarshalBinary, which copies).
//
// Because every commit that changes the index bumps the stats generation,
// a committed state of the index is identified by it. An entry (or the
// absence of a term or keyword) read in a read-only transaction is marked
// with that transaction's stats generation; a later query that sees the
// same stats generation uses the entry without reading the term or keyword
// record at all. A writable transaction never marks entries (it may roll
// back, and a later commit reuse its generation numbers), and its own
// generations are newer than any committed one, so it never matches a
// mark.
//
// The decoded stats record is kept with its raw bytes and reused while the
// stored bytes are equal. Doc number → record id is kept as an in-memory
// table, grown from the doc records of read-only transactions only; doc
// records are never rewritten, so the table only grows, until a Drop
// starts an incarnation with a new Base (doc numbers restart at 1): the
// table belongs to one Base, and a transaction of another incarnation
// reads the doc records directly. A query opens only the sub-buckets it
// reads, so a warm query opens two (the root and meta) and allocates
// little beyond its result.
//
// These caches assume that an Index value is used with one kv file, and
// that the index's buckets are only changed through this package (raw
// writes that bump no generation may be answered from the caches).
//
// # Rebuild
//
// The index is derived. Drop followed by Add of every source record in the
// original order reproduces it; Compare checks a stored index against such
// a rebuild, ignoring only generation counters.
package index
