// Package events holds event cards: what happened, who took part, when it
// was mentioned and when it happened, and exactly which messages it came
// from.
//
// # Extraction
//
// After a block's L0–L2 validate, an extract job (ExtractHandler) asks the
// model for the block's cards. The model sees the previous block and the
// nearest later ready block as context, and the thread's recent active
// cards as supersede/conflict candidates. Build validates every proposed
// card in code before anything is stored: it cites 1–8 messages, all of
// the target block; every quote occurs (case and whitespace folded) in a
// cited message; every participant is a cited message's speaker or named
// in one; links point only at offered cards; the time expression is
// resolved by the temporal package against the message that contains it —
// an expression it cannot resolve stays unknown, never the message time.
// Rejected cards are logged with their reason. Accepted cards, their index
// entries, the links they make and the block's extraction record commit in
// the transaction that marks the job done, so a crash never duplicates or
// loses cards.
//
// # Lifecycle
//
// A correction supersedes the earlier card (its lifecycle becomes
// superseded and SupersededBy is set); a contradiction links both cards in
// ConflictsWithEventIDs. Neither rewrites the earlier card's text. Forget
// hides a card from search (index tombstone) and keeps it expandable;
// Restore undoes it.
//
// # Search
//
// Search fuses BM25F with structured rankings (search.go). The fields the
// rankings and filters read from candidates — thread, times, lifecycle,
// criticality, successor — come from the rank table (bucket events.rank,
// rank.go), a fixed-width record per card that every writer of a card
// record writes in the same transaction; keywords come from the index.
// Search decodes no card record, and Decode of a returned card is the
// caller's. The table is derived: RebuildRanks regenerates it,
// CurrentRanks tells whether its sequence has kept up with the cards, and
// CompareRanks checks it against a rebuild.
//
// # Weights
//
// See weight.go: only adoption in an answer (RecordMemoryUse) changes a
// weight; search never does.
package events
