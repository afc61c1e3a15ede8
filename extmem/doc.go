// Package extmem imports memory that another AI exported in the
// stratagate.external-memory.v2 format: the prompt a user gives that AI
// (ExportPrompt), the tolerant-outside, strict-inside parser (Parse), the
// normalised fingerprint that makes re-imports deterministic ignores, and
// the deciders that choose, per candidate, whether to add it, merge it
// with, supersede or mark a conflict with existing events, or ignore it.
//
// The package is pure: it reads no store. The root package's
// ImportPreview, ImportCommit and ImportUndo store the imported text as a
// permanent source block and apply the decisions (docs/IMPORT.md).
package extmem
