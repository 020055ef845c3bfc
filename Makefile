# clumsies. `make` lists the targets.

GO       ?= go
PKGS     := ./...
BIN      := bin/clumsies
INTEROP  := interop
# The version `clumsies version` reports; without git, the module's.
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS  := $(if $(VERSION),-X main.ldVersion=$(VERSION))
# Pure Go, static binaries: with cgo, pebble's C allocator and zstd make
# the Go tool link with the system's C linker, and right after such a link
# the kernel keeps ~5 MiB more of the binary's pages resident in a serving
# process (BENCHMARKS.md, "A pure-Go build").
CGO      ?= 0

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## build bin/clumsies, showing progress (a first build compiles every dependency)
	@echo "building $(BIN): the first build downloads and compiles every dependency (a minute or two on 2 cores); later ones take seconds"
	@{ CGO_ENABLED=$(CGO) $(GO) build -v -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/clumsies 2>&1; echo "@@status $$?"; } | awk '\
		/^@@status / { if (p) printf "\n"; exit $$2 } \
		/^[^ :]+$$/ { n++; p = 1; printf "\r  compiled %d packages", n; fflush(); next } \
		{ if (p) printf "\n"; p = 0; print; fflush() }'

.PHONY: run
run: build ## show clumsies at work: a scripted agent session on a throw-away workspace
	./$(BIN) demo

.PHONY: test
test: interop-deps browser-deps ## run every test (unit, golden, end-to-end, interop)
	$(GO) test -count=1 $(PKGS)

.PHONY: race
race: interop-deps browser-deps ## run the tests under the race detector
	$(GO) test -race -count=1 $(PKGS)

.PHONY: lint
lint: ## gofmt, go vet and staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)

.PHONY: golden
golden: ## regenerate the MCP golden transcripts (mcp/testdata/*.txtar)
	$(GO) test ./mcp -run Golden -update

.PHONY: soak-hub
soak-hub: ## the hub's full-size loops: 20 rounds of hub and workspace restarts, 100k events offline
	HUB_SOAK_ROUNDS=20 HUB_SOAK_OFFLINE=100000 $(GO) test -count=1 -timeout 30m -run 'TestAggregate_(FlapLoop|HubOffline)' -v ./hub

.PHONY: bench
bench: build ## measure against same-run baselines; see BENCHMARKS.md
	CGO_ENABLED=$(CGO) $(GO) run ./internal/bench

.PHONY: dist
dist: ## static archives for linux, darwin (amd64, arm64) and windows/amd64 into dist/, with SHA256SUMS
	$(GO) run ./internal/dist -out dist -version '$(VERSION)'

ROUNDS ?= 50

.PHONY: soak
soak: build ## kill serve processes (owners and others) under load for ROUNDS rounds; prints acked / lost / doubled
	$(GO) run ./internal/soak -bin $(BIN) -rounds $(ROUNDS)

.PHONY: screenshots
screenshots: browser-deps ## the dashboard's pages at laptop and phone width into docs/screenshots (needs chromium)
	CLUMSIES_SCREENSHOTS=$(CURDIR)/docs/screenshots $(GO) test -count=1 -run 'TestDashboard_Browser|TestHub_Dashboard' ./cmd/clumsies

.PHONY: interop-deps
CHROMIUM ?= /usr/bin/chromium

.PHONY: browser-deps
browser-deps: ## install Debian's chromium for the dashboard's browser tests when it is missing
	@if [ ! -x "$(CHROMIUM)" ]; then \
		echo "installing Debian's chromium for the dashboard's browser tests (apt-get)"; \
		sudo=""; if [ "$$(id -u)" != 0 ]; then sudo=sudo; fi; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq chromium >/dev/null || \
		{ echo "could not install chromium: install it (apt-get install -y chromium) or set CHROMIUM=/path/to/chromium"; exit 1; }; \
	fi

interop-deps: $(INTEROP)/node_modules/.installed ## install the npm packages the interop tests use

$(INTEROP)/node_modules/.installed: $(INTEROP)/package.json $(INTEROP)/package-lock.json
	cd $(INTEROP) && npm ci --no-audit --no-fund --loglevel=error
	touch $@
