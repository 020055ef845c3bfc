# clumsies. `make` lists the targets.

GO       ?= go
PKGS     := ./...
MODULE   := github.com/clumsies/clumsies
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
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {t[++n] = $$1; d[n] = $$2; if (length($$1) > w) w = length($$1)} \
		END {for (i = 1; i <= n; i++) printf "  %-" w "s  %s\n", t[i], d[i]}' $(MAKEFILE_LIST)

# build counts the packages as the go command names them, read with the
# shell's read, which takes each line as it comes (Debian's awk, mawk,
# reads a pipe in blocks: the count moved in bursts).
.PHONY: build
build: ## build bin/clumsies, showing progress (a first build compiles every dependency)
	@echo "building $(BIN): the first build downloads and compiles every dependency (a minute or two on 2 cores); later ones take seconds"
	@{ CGO_ENABLED=$(CGO) $(GO) build -v -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/clumsies 2>&1; echo "@@status $$?"; } | { n=0; p=0; \
		while IFS= read -r line; do \
			case "$$line" in \
			"@@status "*) [ $$p = 0 ] || printf '\n'; exit $${line#@@status }; ;; \
			""|*" "*|*:*) [ $$p = 0 ] || printf '\n'; p=0; printf '%s\n' "$$line" ;; \
			*) n=$$((n+1)); p=1; printf '\r  compiled %d packages' $$n ;; \
			esac; \
		done; }

.PHONY: run
run: build ## show clumsies at work: a scripted agent session on a throw-away workspace
	./$(BIN) demo

.PHONY: test
test: interop-deps browser-deps ## run every test (unit, golden, end-to-end, interop), a line per package as it ends
	@echo "testing every package: each prints a line as it ends (9-12 minutes on 2 cores; a first run compiles every test binary before the first line, and says so every 30 s); the hub's package runs last, alone, since its clusters of three hubs share the 2 cores with nothing else then"
	@{ $(GO) test -json -count=1 $$($(GO) list $(PKGS) | grep -vx '$(MODULE)/hub'); $(GO) test -json -count=1 ./hub; } | $(GO) run ./internal/testprogress

.PHONY: test-dist
test-dist: ## build the host's release archive as make dist does (-trimpath, no cgo) and run it; make test builds it as the tests do
	CLUMSIES_TEST_DIST=1 $(GO) test -count=1 -run TestDist -v ./internal/dist

.PHONY: test-hosts
test-hosts: ## drive the real host programs (npm, pinned, about 1.3 GB cached in ~/.cache/clumsies/hosts) through a scripted turn
	CLUMSIES_TEST_HOSTS=1 $(GO) test -count=1 -timeout 60m -v ./interop/hosts

.PHONY: race
race: interop-deps browser-deps ## run the tests under the race detector, a line per package as it ends
	@$(GO) test -json -race -count=1 $(PKGS) | $(GO) run ./internal/testprogress

.PHONY: lint
lint: vet-arch ## gofmt, go vet (vet-arch too: 32-bit and arm) and staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)

# ARCH_PKGS read the system's own structures (a file's stat), whose field
# types differ per architecture (32-bit times on linux/arm): vet-arch vets
# them for each of ARCHES, in seconds. The whole module vets clean there
# too (`GOOS=linux GOARCH=arm go vet ./...`, 3 minutes on 2 cores).
ARCH_PKGS := ./content ./contentwatch ./treecheck
ARCHES    := linux/arm linux/386 linux/arm64

.PHONY: vet-arch
vet-arch: ## go vet the packages that read system structures for linux/arm, linux/386 and linux/arm64
	@for a in $(ARCHES); do echo "GOOS=$${a%/*} GOARCH=$${a#*/} $(GO) vet $(ARCH_PKGS)"; \
		GOOS=$${a%/*} GOARCH=$${a#*/} $(GO) vet $(ARCH_PKGS) || exit 1; done

.PHONY: golden
golden: ## regenerate the MCP golden transcripts (mcp/testdata/*.txtar)
	$(GO) test ./mcp -run Golden -update

.PHONY: soak-hub
soak-hub: ## the hub's full-size loops: 20 rounds of hub and workspace restarts, 100k events offline
	HUB_SOAK_ROUNDS=20 HUB_SOAK_OFFLINE=100000 $(GO) test -count=1 -timeout 30m -run 'TestAggregate_(FlapLoop|HubOffline)' -v ./hub

.PHONY: bench
bench: build ## measure against same-run baselines (BENCH_ARGS='-only hubscale -hub-soak 30m' passes flags); see BENCHMARKS.md
	CGO_ENABLED=$(CGO) $(GO) run ./internal/bench $(BENCH_ARGS)

.PHONY: dist
dist: ## static archives for linux, darwin (amd64, arm64) and windows/amd64 into dist/, with SHA256SUMS
	$(GO) run ./internal/dist -out dist -version '$(VERSION)'

ROUNDS ?= 50

.PHONY: soak
soak: build ## kill serve processes (owners and others) under load for ROUNDS rounds; prints acked / lost / doubled
	$(GO) run ./internal/soak -bin $(BIN) -rounds $(ROUNDS)

.PHONY: screenshots
screenshots: browser-deps ## the dashboards of a 45-day history and its hub, laptop and phone, into docs/screenshots (needs chromium)
	CLUMSIES_SCREENSHOTS=$(CURDIR)/docs/screenshots $(GO) test -count=1 -run 'TestScreenshots$$' -v ./cmd/clumsies

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
