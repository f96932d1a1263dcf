# mediateka — the two commands a newcomer needs are `make run` and `make test`.

# Debian packages the integration tests drive for real. `make test` installs
# the missing ones when run as root (CI, containers); otherwise it says which.
APT_PACKAGES := ffmpeg chromium qbittorrent-nox espeak-ng
STATICCHECK_VERSION := v0.8.2
GO_TEST_FLAGS ?= -race -count=1 -timeout 20m
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: run build test deps lint bench

## run: start the server with ./config.json if present, else defaults (data in ./data)
run:
	go run -ldflags "$(LDFLAGS)" ./cmd/mediateka serve

## build: a static-ish binary ./mediateka
build:
	go build -ldflags "$(LDFLAGS)" -o mediateka ./cmd/mediateka

## test: install what the tests need, lint, and run every test with the race detector
# GORACE: the race detector otherwise sleeps a second at the end of every
# test binary, which adds up to minutes over the project's packages.
test: export GORACE = atexit_sleep_ms=0
test: deps lint
	go test $(GO_TEST_FLAGS) ./...

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
		else echo "missing Debian packages:$$missing (run make test as root to install them)"; fi; \
	fi

# lint type-checks with -race, the tests' build: vet, staticcheck and the
# race-built tests then share one compiled copy of every package (SQLite's
# C above all) instead of two, which is minutes on a cold 2-core machine.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	go vet -race ./...
	GOBIN=$(CURDIR)/.bin go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	GOFLAGS="$$GOFLAGS -race" .bin/staticcheck ./...

## bench: the performance benchmarks of docs/PERFORMANCE.md (not part of make test)
bench:
	go test -run '^$$' -bench . -benchmem ./...
