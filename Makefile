GO ?= go
PKGS := ./...

.PHONY: all build test fmt vet race demo demo-import viewer bench crash fuzz clean

all: build test

build:
	$(GO) build $(PKGS)
	cd cmd/sgmcp && $(GO) build ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# test: what CI runs. The race detector covers every package; the crash test
# runs its short form (30 kills).
# The nested module bench/peers (peer engines, cgo SQLite) runs its own
# tests without -race, which would rebuild SQLite's C and test nothing of
# ours.
test: fmt vet
	$(GO) test -race -count=1 -timeout 15m $(PKGS)
	cd bench/peers && $(GO) vet ./... && $(GO) test -count=1 -timeout 10m ./...
	@# The MCP server (nested module on the Go MCP SDK); its TypeScript-client
	@# test runs when STRATAGATE_TS_SDK names an install of the TS SDK (.ci/run).
	cd cmd/sgmcp && $(GO) vet ./... && $(GO) test -race -count=1 -timeout 10m ./...

demo:
	$(GO) run ./examples/demo

# viewer: the demo, then the web viewer on its store (Ctrl-C stops it).
viewer: demo
	$(GO) run ./cmd/sgdump serve -db $${TMPDIR:-/tmp}/stratagate-demo/memory.sg

# demo-import: import memory another AI exported (testdata/import/export.md)
# into the demo store, answer from it, undo it.
demo-import:
	$(GO) run ./examples/import

bench:
	$(GO) test -run='^$$' -bench=. -benchmem -count=1 $(PKGS)

# crash: the long crash run: 1,000 SIGKILLs of a writing child process, landing
# in appends, seals and derive, extract and project jobs (its last log line
# counts each), 100 kills to a file.
crash:
	STRATAGATE_CRASH_KILLS=1000 $(GO) test -run='^TestCrash' -count=1 -timeout 120m -v .

# fuzz: every fuzz target for FUZZTIME each, one after the other (a target
# name is anchored: -fuzz must match exactly one target in its package).
FUZZTIME ?= 30s
# Minimising a new interesting input is capped at 100 runs: the default
# (60s) let one target spend whole runs minimising (FuzzParseClaudeCode
# made 11 execs in 30s) instead of fuzzing.
FUZZ = $(GO) test -run='^$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=100x -fuzz
fuzz:
	$(FUZZ)='^FuzzDecode$$' ./model/
	$(FUZZ)='^FuzzParseReply$$' ./model/openai/
	$(FUZZ)='^FuzzTokenize$$' ./bm25/
	$(FUZZ)='^FuzzExpandQuery$$' ./bm25/
	$(FUZZ)='^FuzzSearchRawQuery$$' .
	@# record decoders
	$(FUZZ)='^FuzzDecode$$' ./kv/
	$(FUZZ)='^FuzzCheckFileSize$$' ./kv/
	$(FUZZ)='^FuzzDecodeRecords$$' ./index/
	$(FUZZ)='^FuzzDecodeIndexMeta$$' ./index/
	$(FUZZ)='^FuzzCheckBitmap$$' ./index/
	$(FUZZ)='^FuzzDecodeLayerRecords$$' ./layers/
	$(FUZZ)='^FuzzDecodeEventRecords$$' ./events/
	$(FUZZ)='^FuzzDecodeGraphRecords$$' ./graph/
	$(FUZZ)='^FuzzDecodeJob$$' ./wal/
	@# damaged files: seeded bit flips, page overwrites and truncations of a real store
	$(FUZZ)='^FuzzCorruptStore$$' .
	$(FUZZ)='^FuzzVerifyDamaged$$' ./cmd/sgdump/
	@# message times: any instant and UTC offset is stored exactly or refused
	$(FUZZ)='^FuzzMessageTime$$' ./layers/
	$(FUZZ)='^FuzzDecodeSpan$$' ./layers/
	$(FUZZ)='^FuzzDecodeReceipt$$' ./layers/
	@# the L3/L4 hash sealing computes equals the hash of the renderings
	$(FUZZ)='^FuzzRenderSum$$' ./layers/
	@# time expressions
	$(FUZZ)='^FuzzFind$$' ./events/temporal/
	$(FUZZ)='^FuzzResolve$$' ./events/temporal/
	@# secret redaction (prompts and agent-facing outputs)
	$(FUZZ)='^FuzzString$$' ./redact/
	@# MCP tool arguments (aliases, unknown names, any JSON: a result or an error result)
	cd cmd/sgmcp && $(FUZZ)='^FuzzToolArguments$$' .
	@# agent transcripts (Claude Code, Codex rollouts): any bytes fold into turns the store accepts
	$(FUZZ)='^FuzzParseClaudeCode$$' ./capture/
	$(FUZZ)='^FuzzParseCodex$$' ./capture/
	@# imported memory documents (any text: a bounded document whose verbatim texts are in it, or ErrInvalidDocument)
	$(FUZZ)='^FuzzParse$$' ./extmem/
	@# the store's socket path (any db path: one short path, or an error)
	cd cmd/sgmcp && $(FUZZ)='^FuzzSocketPath$$' .
	@# model replies to the gate (any text: a valid assessment or answer, or ErrModelOutput)
	$(FUZZ)='^FuzzModelReplies$$' ./gate/
	@# model replies to the import decider (any text: a decision with offered targets, or ErrModelOutput)
	$(FUZZ)='^FuzzModelDecide$$' ./extmem/
	@# the offline import decider (any texts, people, kinds and dates: a valid, repeatable decision)
	$(FUZZ)='^FuzzHeuristicDecide$$' ./extmem/
	@# the heuristic model's text paths (no test timeout: FUZZTIME may exceed 10 minutes)
	$(FUZZ)='^FuzzDeriveMessages$$' -timeout=0 ./model/heuristic/
	$(FUZZ)='^FuzzDeriveBlock$$' -timeout=0 ./model/heuristic/
	$(FUZZ)='^FuzzExtract$$' -timeout=0 ./model/heuristic/
	$(FUZZ)='^FuzzProject$$' -timeout=0 ./model/heuristic/
	@# viewer diagrams (any nodes, edges, spans and sizes: finite geometry inside the viewport)
	$(FUZZ)='^FuzzLayoutGraph$$' ./viewer/diagram/
	$(FUZZ)='^FuzzLayoutTimeline$$' ./viewer/diagram/

clean:
	$(GO) clean -testcache

# peers: StrataGate's raw search against bleve v2 (BM25) and SQLite FTS5 on
# the same synthetic corpus (bench/peers is a nested module: cgo, bleve).
.PHONY: peers
peers:
	cd bench/peers && $(GO) run -tags sqlite_fts5 . -n 100000

# peers-1m: the same comparison at 1,000,000 messages (stratagate, bleve and
# SQLite FTS5; tens of minutes on a 2-core machine). The peers get a fixed
# query budget: stratagate measures 1,000 queries, the peers the first 200.
.PHONY: peers-1m
peers-1m:
	cd bench/peers && $(GO) run -tags sqlite_fts5 . -n 1000000 -engines stratagate,bleve,sqlite-fts5 -queries 1000 -peer-queries 200
