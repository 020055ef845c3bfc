# clumsies. `make` lists the targets.

GO       ?= go
PKGS     := ./...
BIN      := bin/clumsies
INTEROP  := interop

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## build bin/clumsies
	$(GO) build -o $(BIN) ./cmd/clumsies

.PHONY: run
run: build ## show clumsies at work: a scripted agent session on a throw-away workspace
	./$(BIN) demo

.PHONY: test
test: interop-deps ## run every test (unit, golden, end-to-end, interop)
	$(GO) test -count=1 $(PKGS)

.PHONY: race
race: interop-deps ## run the tests under the race detector
	$(GO) test -race -count=1 $(PKGS)

.PHONY: lint
lint: ## gofmt, go vet and staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)

.PHONY: golden
golden: ## regenerate the MCP golden transcripts (mcp/testdata/*.txtar)
	$(GO) test ./mcp -run Golden -update

.PHONY: bench
bench: build ## measure against same-run baselines; see BENCHMARKS.md
	$(GO) run ./internal/bench

ROUNDS ?= 50

.PHONY: soak
soak: build ## kill serve processes (owners and others) under load for ROUNDS rounds; prints acked / lost / doubled
	$(GO) run ./internal/soak -bin $(BIN) -rounds $(ROUNDS)

.PHONY: interop-deps
interop-deps: $(INTEROP)/node_modules/.installed ## install the npm packages the interop tests use

$(INTEROP)/node_modules/.installed: $(INTEROP)/package.json $(INTEROP)/package-lock.json
	cd $(INTEROP) && npm ci --no-audit --no-fund --loglevel=error
	touch $@
