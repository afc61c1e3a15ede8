// Package layers turns a thread's turns into sealed blocks and renders each
// block at six levels of detail:
//
//	L0  title and tags            (model-derived, filled once)
//	L1  short summary             (model-derived, filled once)
//	L2  key facts citing messages (model-derived, filled once)
//	L3  deterministic pruning of L4 (four narrow rules, see RenderL3)
//	L4  near-verbatim rendering with timestamps, speakers, tool results
//	L5  the original messages, bound by a SHA-256 (L5Hash)
//
// # Sealing
//
// Every BlockTurns complete turns of a thread are sealed into a Block in the
// same transaction that stores the last turn: L5, the renderer version and
// hash of L4 and L3, and a derive job are written before any model call,
// with state pending. L3 and L4 are not stored: they are rendered from L5
// on read (LoadRenderings), and the hash lets Verify see a changed
// rendering. DecodeBlock reads block records of version 1 (which stored
// the text) and 2. The derive job
// (DeriveHandler) asks the model for L0–L2, validates them in code
// (ValidateDerived) and stores them with state ready in the transaction that
// marks the job done. Turns that have not reached the boundary stay in the
// thread's open tail and are neither compressed nor derived.
//
// # Invariants
//
//   - Messages are append-only: PutMessage refuses to overwrite.
//   - A message belongs to at most one block, of its own thread.
//   - L0–L4 are derived views; nothing writes L5 after it is stored.
//   - A block's L5Hash equals L5Hash(its messages) forever, and its
//     RenderHash equals RenderSum of fresh renderings while RendererVersion
//     is its RenderVersion.
//
// # Decay
//
// A ready block's age is the number of ready blocks of its thread newer than
// it; pending and failed blocks neither age nor count. Its weight is
// exp(-coef·age) and its level follows the floors 0.7/0.5/0.3/0.15/0.08
// (LevelForWeight).
package layers
