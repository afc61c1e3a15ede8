// Package viewer is StrataGate's local web viewer: an http.Handler over an
// open *stratagate.Memory that shows a person what their agent remembers and
// where each memory came from.
//
// Pages: the overview (threads, scopes, counts, jobs, recent ingests); a
// thread's blocks at their current decay level; a block at every level L0–L5
// with its messages, their SHA-256 checks and the event cards extracted from
// it; the event timeline on both clocks (when mentioned, when it happened);
// the graph as of any date, drawn as SVG; a node's facts with their validity
// intervals; the provenance trace of any card, fact, edge or node down to the
// verbatim messages; search over the three channels and Ask with its gate
// trace; and imports.
//
// It is server-rendered (html/template, everything embedded, no JavaScript
// framework, no CDN), and every stored string is untrusted text: templates
// escape it and the Content-Security-Policy forbids inline script.
//
// It reads by default. The import actions (preview, commit, undo) are its
// only writes; they need Options.Write, a writable Memory, a POST and the
// handler's CSRF token. Without Options.Token the handler answers only
// requests whose Host is a loopback name (DNS rebinding cannot reach it);
// with a Token every request must carry it.
package viewer
