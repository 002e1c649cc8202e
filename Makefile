# tick: build, run and test. Every target installs what it needs on a fresh
# Debian machine with Swift (the cmark-gfm C library, through apt-get).

SWIFT ?= swift
TICK_DEMO_TODAY ?= 2026-11-21
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release run test clean

all: build

# The C library cmark-gfm, found through pkg-config; installed when missing.
deps:
	@if ! pkg-config --exists libcmark-gfm 2>/dev/null; then \
		echo "installing libcmark-gfm-dev with apt-get"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Builds tick and shows the example notes folder, with today pinned.
run: build
	@for list in $$(cd examples && find . -name '*.md' | sed 's|^\./||' | sort); do \
		$(SWIFT) run --skip-build tick show "$$list" --dir examples --today $(TICK_DEMO_TODAY); echo; \
	done

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build
