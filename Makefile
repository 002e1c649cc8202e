# tick: build, run and test. Every target installs what it needs on a fresh
# Debian machine with Swift (the cmark-gfm C library, through apt-get).

SWIFT ?= swift
TICK_DEMO_TODAY ?= 2026-11-21
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release run test test-deps docs bench clean

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
	@for command in home today scheduled; do \
		echo "$$ tick $$command"; .build/debug/tick $$command --dir examples --today $(TICK_DEMO_TODAY); echo; \
	done
	@for list in $$(cd examples && find . -name '*.md' | sed 's|^\./||' | sort); do \
		echo "$$ tick show $$list"; .build/debug/tick show "$$list" --dir examples --today $(TICK_DEMO_TODAY); echo; \
	done

# The export tests check iCalendar output with a real parser, Python's
# icalendar; it is installed here (the tests skip those checks, saying so, only
# when pip cannot install it).
test-deps:
	@python3 -c 'import icalendar' 2>/dev/null || python3 -m pip install --quiet icalendar 2>/dev/null || \
		pip3 install --quiet icalendar 2>/dev/null || \
		echo "warning: could not install Python's icalendar; the iCalendar checks will be skipped"

test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Shell completions and the man page, generated into $(DOCS_DIR) (not committed).
DOCS_DIR ?= .build/docs
docs: build
	mkdir -p $(DOCS_DIR)/completions $(DOCS_DIR)/man
	.build/debug/tick --generate-completion-script bash > $(DOCS_DIR)/completions/tick.bash
	.build/debug/tick --generate-completion-script zsh > $(DOCS_DIR)/completions/_tick
	.build/debug/tick --generate-completion-script fish > $(DOCS_DIR)/completions/tick.fish
	$(SWIFT) package plugin generate-manual --configuration debug
	cp .build/plugins/GenerateManual/outputs/tick/tick.1 $(DOCS_DIR)/man/tick.1
	@echo "completions in $(DOCS_DIR)/completions, man page in $(DOCS_DIR)/man/tick.1 (man -l $(DOCS_DIR)/man/tick.1)"

# The benchmark (docs/PERFORMANCE.md): a release build against cmark-gfm and
# ripgrep (installed with apt-get when missing) on a generated corpus in
# $(BENCH_DIR), made again only when bench/generate_corpus.py has changed.
# BENCH_RUNS sets the number of timed rounds (default 7).
BENCH_DIR ?= /tmp/tick-bench
bench: deps
	@if ! command -v rg >/dev/null || ! command -v cmark-gfm >/dev/null || ! command -v python3 >/dev/null; then \
		echo "installing ripgrep and cmark-gfm with apt-get"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep cmark-gfm python3; \
	fi
	$(SWIFT) build -c release
	@stamp="$$(sha256sum bench/generate_corpus.py | cut -d' ' -f1)"; \
	if [ "$$(cat $(BENCH_DIR)/.corpus-stamp 2>/dev/null)" = "$$stamp" ] && [ -d $(BENCH_DIR)/notes ] && [ -f $(BENCH_DIR)/big/big.md ]; then \
		echo "corpus in $(BENCH_DIR) is up to date"; \
	else \
		rm -rf $(BENCH_DIR)/notes $(BENCH_DIR)/big $(BENCH_DIR)/.corpus-stamp && \
		python3 bench/generate_corpus.py $(BENCH_DIR) && \
		echo "$$stamp" > $(BENCH_DIR)/.corpus-stamp; \
	fi
	python3 bench/run_bench.py --tick "$$($(SWIFT) build -c release --show-bin-path)/tick" --corpus $(BENCH_DIR)

clean:
	rm -rf .build
