GO ?= go
PKGS := ./...

.PHONY: all build test fmt vet race demo bench crash fuzz clean

all: build test

build:
	$(GO) build $(PKGS)

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

demo:
	$(GO) run ./examples/demo

bench:
	$(GO) test -run='^$$' -bench=. -benchmem -count=1 $(PKGS)

# crash: the long crash run (500 SIGKILLs of a writing child process).
crash:
	STRATAGATE_CRASH_KILLS=500 $(GO) test -run='^TestCrash' -count=1 -timeout 60m -v . 

FUZZTIME ?= 30s
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzDecode -fuzztime=$(FUZZTIME) ./model/
	$(GO) test -run='^$$' -fuzz=FuzzTokenize -fuzztime=$(FUZZTIME) ./bm25/
	$(GO) test -run='^$$' -fuzz=FuzzDecodeRecords -fuzztime=$(FUZZTIME) ./index/
	$(GO) test -run='^$$' -fuzz=FuzzFind -fuzztime=$(FUZZTIME) ./events/temporal/
	$(GO) test -run='^$$' -fuzz=FuzzResolve -fuzztime=$(FUZZTIME) ./events/temporal/
	$(GO) test -run='^$$' -fuzz='^FuzzDeriveMessages$$' -fuzztime=$(FUZZTIME) -timeout=0 ./model/heuristic/
	$(GO) test -run='^$$' -fuzz='^FuzzExtract$$' -fuzztime=$(FUZZTIME) -timeout=0 ./model/heuristic/
	$(GO) test -run='^$$' -fuzz='^FuzzProject$$' -fuzztime=$(FUZZTIME) -timeout=0 ./model/heuristic/

clean:
	$(GO) clean -testcache

# peers: StrataGate's raw search against bleve v2 (BM25) and SQLite FTS5 on
# the same synthetic corpus (bench/peers is a nested module: cgo, bleve).
.PHONY: peers
peers:
	cd bench/peers && $(GO) run -tags sqlite_fts5 . -n 100000
