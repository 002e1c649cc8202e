# tick: build, run and test. Every target installs what it needs on a fresh
# Debian machine with Swift (the cmark-gfm C library, through apt-get).

SWIFT ?= swift
TICK_DEMO_TODAY ?= 2026-11-21
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release release-check run test test-deps docs lint format install bench clean fuzz fuzz-build sanitize sanitize-address sanitize-thread

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

# The release build is one static position-independent executable
# (static-pie, linked with the toolchain's lld): the Swift runtime,
# Foundation, cmark-gfm and the C library are inside it, so no library is
# loaded and no symbol bound at start-up, and its address is still random
# (ASLR). SwiftPM's `$ORIGIN` rpath is left out: glibc's static-pie start-up
# stops on an assertion when the dynamic section names one. (clang's note that `-pie` went
# unused is silenced: `-static-pie` replaces it.)
# Every Swift module (argument-parser and Yams too) names the metadata of a
# concrete generic type (`[String: Int]`, `Set<InputKey>`) through its
# accessor function, not by a mangled name the runtime demangles on first
# use: demangling checks each generic requirement in the runtime's
# conformance tables (a scan of all 6,000 records for each conformance not
# asked about before), and a query named about 130 types so, before it did
# any work (docs/PERFORMANCE.md).
RELEASE_FLAGS ?= --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld \
	-Xswiftc -Xclang-linker -Xswiftc -static-pie -Xswiftc -Xclang-linker -Xswiftc -Wno-unused-command-line-argument \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors

release: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS)

# The release build checked as it ships, which CI runs after the tests: one
# static position-independent executable (no program interpreter, no shared
# library) that starts, and prints what the debug build prints for the
# read commands below on examples/, byte for byte, with the same exit code,
# and edits a copy of it as the debug build does.
RELEASE_CHECKED = "--version" "query open --json" "query open --sort due" "today" "lists" "all --group-by list" \
	"export --format ics" "export --format csv" "check"
# The edit checked too: `done` on a copy of examples/, whose edited file has
# a user extended attribute (kept by an edit, where the file system has them).
RELEASE_EDITED_ITEM = Mulch the rose bed
RELEASE_EDITED_FILE = projects/garden.md
release-check: release build
	@command -v readelf >/dev/null || { echo "installing binutils (readelf) with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binutils; }
	@release="$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/tick"; \
	debug="$$($(SWIFT) build --show-bin-path)/tick"; \
	scratch="$$(mktemp -d)"; trap 'rm -rf "$$scratch"' EXIT; \
	readelf -h "$$release" | grep -q 'Type: *DYN' || { echo "release-check: $$release is not position-independent"; exit 1; }; \
	if readelf -l "$$release" | grep -q INTERP; then echo "release-check: $$release asks for a program interpreter: it is not static"; exit 1; fi; \
	if readelf -d "$$release" | grep -q NEEDED; then echo "release-check: $$release needs shared libraries: it is not static"; exit 1; fi; \
	tick() { build=$$1; shift; if [ "$$build" = release ]; then binary="$$release"; else binary="$$debug"; fi; \
		env HOME="$$scratch/$$build" XDG_CACHE_HOME="$$scratch/$$build/cache" XDG_CONFIG_HOME="$$scratch/$$build/config" NO_COLOR=1 \
			"$$binary" "$$@" > "$$scratch/$$build.out" 2>&1; echo "exit $$?" >> "$$scratch/$$build.out"; }; \
	checked=0; \
	for args in $(RELEASE_CHECKED); do \
		checked=$$((checked + 1)); \
		case "$$args" in --version) folder= ;; *) folder="--dir examples --today 2026-11-21" ;; esac; \
		for build in release debug; do tick $$build $$args $$folder; done; \
		cmp -s "$$scratch/release.out" "$$scratch/debug.out" || { \
			echo "release-check: tick $$args prints otherwise in the release build:"; diff "$$scratch/debug.out" "$$scratch/release.out" | head -20; exit 1; }; \
	done; \
	for build in release debug; do \
		cp -R examples "$$scratch/$$build-notes"; \
		python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.tick-check", b"kept")' "$$scratch/$$build-notes/$(RELEASE_EDITED_FILE)" 2>/dev/null; \
		tick $$build done "$(RELEASE_EDITED_ITEM)" --dir "$$scratch/$$build-notes" --today 2026-11-21; \
		python3 -c 'import os, sys; print("attribute", os.getxattr(sys.argv[1], "user.tick-check"))' "$$scratch/$$build-notes/$(RELEASE_EDITED_FILE)" \
			>> "$$scratch/$$build.out" 2>/dev/null || echo "no attribute" >> "$$scratch/$$build.out"; \
	done; \
	cmp -s "$$scratch/release.out" "$$scratch/debug.out" && diff -r "$$scratch/release-notes" "$$scratch/debug-notes" >/dev/null || { \
		echo "release-check: tick done edits otherwise in the release build:"; diff "$$scratch/debug.out" "$$scratch/release.out" | head -20; \
		diff -r "$$scratch/debug-notes" "$$scratch/release-notes" | head -20; exit 1; }; \
	echo "release-check: $$release is static-pie and prints what the debug build prints ($$checked command lines), and edits as it does (tick done, extended attributes kept: $$(grep -c '^attribute' "$$scratch/release.out"))"

# Builds tick and shows the example notes folder, with today pinned.
run: build
	@for command in home today scheduled; do \
		echo "$$ tick $$command"; .build/debug/tick $$command --dir examples --today $(TICK_DEMO_TODAY); echo; \
	done
	@for list in $$(cd examples && find . -name '*.md' | sed 's|^\./||' | sort); do \
		echo "$$ tick show $$list"; .build/debug/tick show "$$list" --dir examples --today $(TICK_DEMO_TODAY); echo; \
	done

# The export tests check iCalendar output with a real parser, Python's
# icalendar (and recurring-ical-events, which expands RRULEs); they are installed here (the tests skip those checks, saying so, only
# when pip cannot install it).
# The CommonMark corpus tests compare tick with the cmark-gfm command
# (Debian's cmark-gfm package) and fetch the spec's examples with pip.
# The ignore-rule tests compare tick with git (tick itself never runs git).
# The language server tests drive it from a real client, Neovim (Debian's neovim).
test-deps:
	@python3 -c 'import icalendar' 2>/dev/null || python3 -m pip install --quiet icalendar 2>/dev/null || \
		pip3 install --quiet icalendar 2>/dev/null || \
		echo "warning: could not install Python's icalendar; the iCalendar checks will be skipped"
	@python3 -c 'import recurring_ical_events' 2>/dev/null || python3 -m pip install --quiet recurring-ical-events 2>/dev/null || \
		pip3 install --quiet recurring-ical-events 2>/dev/null || \
		echo "warning: could not install Python's recurring-ical-events; the event recurrence checks will be skipped"
	@command -v cmark-gfm >/dev/null 2>&1 || { echo "installing cmark-gfm with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmark-gfm; }
	@command -v git >/dev/null 2>&1 || { echo "installing git with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git; }
	@command -v nvim >/dev/null 2>&1 || { echo "installing neovim with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim; }

test: deps test-deps
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	$(SWIFT) test --skip-build

# The code's format (.swift-format), which CI checks: `make lint` reports
# what differs, `make format` rewrites the files to it. swift-format comes
# with the toolchain.
FORMATTED = Sources Tests Package.swift
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

# Shell completions, the man page and the library's DocC archive (the public
# API of TickKit, from Sources/TickKit/TickKit.docc and the doc comments),
# generated into $(DOCS_DIR) (not committed). docc comes with the toolchain.
DOCS_DIR ?= .build/docs
LIBRARY_LAYERS = TickSystem,TickModel,TickSyntax,TickRecords,TickStore,TickEngine,TickOutput,TickEdit
DOCC ?= docc
docs: build
	mkdir -p $(DOCS_DIR)/completions $(DOCS_DIR)/man
	.build/debug/tick --generate-completion-script bash > $(DOCS_DIR)/completions/tick.bash
	.build/debug/tick --generate-completion-script zsh > $(DOCS_DIR)/completions/_tick
	.build/debug/tick --generate-completion-script fish > $(DOCS_DIR)/completions/tick.fish
	$(SWIFT) package plugin generate-manual --configuration debug
	@# The generated page ends with a generic EXIT STATUS: SPEC §7's codes and the environment replace it.
	sed '/^\.Sh "EXIT STATUS"/,$$d' .build/plugins/GenerateManual/outputs/tick/tick.1 > $(DOCS_DIR)/man/tick.1
	cat docs/man-sections.mdoc >> $(DOCS_DIR)/man/tick.1
	@# TickKit re-exports the layers: their public symbols are its API.
	rm -rf $(DOCS_DIR)/symbolgraph $(DOCS_DIR)/TickKit.doccarchive && mkdir -p $(DOCS_DIR)/symbolgraph
	bin="$$($(SWIFT) build --show-bin-path)"; \
	$(SWIFT) symbolgraph-extract -module-name TickKit -target "$$(basename "$$(dirname "$$bin")")" \
		-I "$$bin/Modules" -I Sources/CCmarkGFM -I Sources/CCoreFoundation -I Sources/CPrefetch -I "$$bin/CSystemCalls.build" -I .build/checkouts/Yams/Sources/CYaml/include \
		-minimum-access-level public -experimental-allowed-reexported-modules=$(LIBRARY_LAYERS) \
		-output-dir $(DOCS_DIR)/symbolgraph
	$(DOCC) convert Sources/TickKit/TickKit.docc --fallback-display-name TickKit --fallback-bundle-identifier org.tick.TickKit \
		--additional-symbol-graph-dir $(DOCS_DIR)/symbolgraph --output-path $(DOCS_DIR)/TickKit.doccarchive --warnings-as-errors
	@echo "completions in $(DOCS_DIR)/completions, man page in $(DOCS_DIR)/man/tick.1 (man -l $(DOCS_DIR)/man/tick.1),"
	@echo "API documentation in $(DOCS_DIR)/TickKit.doccarchive (a static site: serve the folder with any web server)"

# Installs the release build, the shell completions and the man page under
# PREFIX (default /usr/local): make install PREFIX=~/.local
PREFIX ?= /usr/local
install: release docs
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 "$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/tick" $(DESTDIR)$(PREFIX)/bin/tick
	install -m 644 $(DOCS_DIR)/man/tick.1 $(DESTDIR)$(PREFIX)/share/man/man1/tick.1
	install -m 644 $(DOCS_DIR)/completions/tick.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tick
	install -m 644 $(DOCS_DIR)/completions/_tick $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tick
	install -m 644 $(DOCS_DIR)/completions/tick.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tick.fish
	@echo "installed tick, its man page and completions under $(DESTDIR)$(PREFIX)"

# The benchmark (docs/PERFORMANCE.md): a release build against cmark-gfm and
# ripgrep (installed with apt-get when missing) on a generated corpus in
# $(BENCH_DIR), made again only when bench/generate_corpus.py has changed.
# BENCH_RUNS sets the number of timed rounds (default 15 at up to 10,000
# notes, 9 above).
BENCH_DIR ?= /tmp/tick-bench
# The notes folders measured (each a git work tree; see bench/run_bench.py).
BENCH_SIZES ?= 5000 50000
bench: deps
	@if ! command -v rg >/dev/null || ! command -v cmark-gfm >/dev/null || ! command -v python3 >/dev/null || ! command -v git >/dev/null; then \
		echo "installing ripgrep, cmark-gfm and git with apt-get"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep cmark-gfm python3 git; \
	fi
	$(SWIFT) build -c release $(RELEASE_FLAGS)
	@stamp="$$(sha256sum bench/generate_corpus.py | cut -d' ' -f1) $(BENCH_SIZES)"; \
	if [ "$$(cat $(BENCH_DIR)/.corpus-stamp 2>/dev/null)" = "$$stamp" ] && [ -f $(BENCH_DIR)/big/big.md ]; then \
		echo "corpus in $(BENCH_DIR) is up to date"; \
	else \
		rm -rf $(BENCH_DIR)/notes* $(BENCH_DIR)/big $(BENCH_DIR)/.corpus-stamp && \
		python3 bench/generate_corpus.py $(BENCH_DIR) --notes $(BENCH_SIZES) && \
		echo "$$stamp" > $(BENCH_DIR)/.corpus-stamp; \
	fi
	python3 bench/run_bench.py --tick "$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/tick" \
		--corpus $(BENCH_DIR) --sizes $(BENCH_SIZES)

# Fuzzing with libFuzzer (docs/RELIABILITY.md): three targets, each run for
# FUZZ_SECONDS, seeded from examples/ and the test fixtures. Inputs that grow
# coverage are kept in $(FUZZ_DIR)/corpus; a crash or broken invariant stops
# the run with the input saved in $(FUZZ_DIR)/crashes (add it to
# Tests/TickKitTests/Fixtures/fuzz/TARGET/ as a regression fixture).
# The fuzz executables are built with -D FUZZING and -sanitize=fuzzer in their
# own scratch folder and linked with lld (gold fails on the fuzzer runtime).
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= .build-fuzz
FUZZ_TARGETS ?= FuzzParser FuzzQuery FuzzEdit
FUZZ_BUILD = $(SWIFT) build -c release --scratch-path $(FUZZ_DIR) \
	-Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
FIXTURES = Tests/TickKitTests/Fixtures
MARKDOWN_SEEDS = examples examples/projects $(FIXTURES)/parser $(FIXTURES)/edit $(FIXTURES)/groups
SEEDS_FuzzParser = $(MARKDOWN_SEEDS) $(FIXTURES)/fuzz/parser
SEEDS_FuzzEdit = $(MARKDOWN_SEEDS) $(FIXTURES)/fuzz/edit
SEEDS_FuzzQuery = $(FIXTURES)/fuzz/query
DICT_FuzzQuery = -dict=$(FIXTURES)/fuzz/query.dict

fuzz-build: deps
	@for target in $(FUZZ_TARGETS); do \
		echo "building $$target for fuzzing"; \
		$(FUZZ_BUILD) --product $$target || exit 1; \
	done

fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/crashes
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$target; \
		seeds=""; case $$target in \
			FuzzParser) seeds="$(SEEDS_FuzzParser)";; FuzzEdit) seeds="$(SEEDS_FuzzEdit)";; \
			FuzzQuery) seeds="$(SEEDS_FuzzQuery)"; dict="$(DICT_FuzzQuery)";; esac; \
		echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
		SWIFT_BACKTRACE=enable=no $(FUZZ_DIR)/release/$$target -max_total_time=$(FUZZ_SECONDS) \
			-max_len=8192 -timeout=25 -rss_limit_mb=4096 -print_final_stats=1 $$dict \
			-artifact_prefix=$(FUZZ_DIR)/crashes/$$target- \
			$(FUZZ_DIR)/corpus/$$target $$seeds > $(FUZZ_DIR)/$$target.log 2>&1; \
		status=$$?; \
		grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)|invariant broken|ERROR|Test unit written" $(FUZZ_DIR)/$$target.log | sed "s/^/  $$target: /"; \
		if [ $$status -ne 0 ]; then echo "$$target found a problem (log: $(FUZZ_DIR)/$$target.log)"; exit 1; fi; \
	done
	@echo "fuzzing passed: no crash and no broken invariant in $(FUZZ_SECONDS) s per target"

# The whole test suite under AddressSanitizer, then ThreadSanitizer, each in
# its own scratch folder (the tick binary the tests run is built with the
# same sanitizer). A report fails the run: an AddressSanitizer or leak report
# makes tick exit non-zero, which its test sees. Leaks are checked in the tick
# processes (one inside Foundation suppressed), not in the test runner,
# whose XCTest and Swift Testing runtimes leak at exit.
sanitize: sanitize-address sanitize-thread

sanitize-address: deps test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	TICK_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 TICK_CHILD_ASAN_OPTIONS=detect_leaks=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt:print_suppressions=0 \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan

sanitize-thread: deps test-deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TICK_SANITIZER=thread TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

clean:
	rm -rf .build
