// Package wal is StrataGate's write-ahead job log: every multi-step
// derivation (derive a block's L0–L2, extract events, project the graph,
// import) is a durable Job written before its work starts, in the same bbolt
// transaction as the record it belongs to.
//
// # Job states
//
//	pending ──claim──▶ running ──result+done (one tx)──▶ done
//	   ▲                  │
//	   └──retry/backoff───┤ (error, attempts < max; or crash → recovery)
//	                      └──attempts exhausted / permanent──▶ failed
//
// A job's effect and its done state commit in one transaction (the Apply
// function a Handler returns runs inside the transaction that marks the job
// done), so a crash at any point leaves either no effect or the whole effect.
// Claiming a job increments Attempts in its own transaction: a job that
// crashes the process is counted, so a poison job cannot loop forever. On
// Open, Recover moves every job left running by a dead process back to
// pending. A clean shutdown (Runner.Stop) releases the running job without
// counting the attempt.
//
// # Inline chains
//
// With an in-process model (RunnerOptions.Inline) the Runner runs a chain
// of queued jobs in one write transaction, each RunIn reading through it,
// which equals running them one by one (see inline.go). An Apply in a
// chain may leave writes that no job reads back to the chain's end
// (Deferred), where they are flushed once for the whole chain.
//
// # Buckets
//
// jobs holds every job ever written (done and failed ones stay for audit);
// jobs.queue holds the ids of pending and running jobs only, so the worker
// never scans history.
//
// bbolt already makes each transaction atomic and durable; this log earns
// its keep by making work that spans a model call (which must not run inside
// a write transaction) restartable.
package wal
