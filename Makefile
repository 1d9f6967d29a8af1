# HealthVault: `make test` installs what is missing, builds, runs every test and checks formatting.
SWIFT ?= swift
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
SWIFT_FORMAT ?= $(SWIFT) format
FORMAT_PATHS := Package.swift Sources Tests Examples Benchmarks/Package.swift Benchmarks/StoreBenchmarks

.PHONY: all deps venv build test tour bench demo fuzz format format-check install-docs clean report-example

all: build

deps:
	@./scripts/install-deps.sh

# Python test tools, in a virtual environment of the checkout's own: fhir.resources 6.1.0 (FHIR R4
# 4.0.1; it needs pydantic 1) validates the FHIR export in the tests; pexpect drives the README's
# tour at pseudo-terminals.
VENV := .venv
$(VENV)/.installed: scripts/test-requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r scripts/test-requirements.txt
	touch $@

venv: $(VENV)/.installed

build: deps
	$(SWIFT) build

test: deps venv
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@$(MAKE) --no-print-directory tour
	@$(MAKE) --no-print-directory format-check

# The README's newcomer tour, run as written from a fresh $HOME at pseudo-terminals, every output
# line it shows compared (scripts/readme-tour.py). It installs the debug build into that home.
tour: deps venv
	$(SWIFT) build --build-tests
	CONFIGURATION=debug $(VENV)/bin/python scripts/readme-tour.py README.md

# Store benchmarks (Benchmarks/, ordo-one/benchmark) printed as ratios against raw SQLCipher and
# plain SQLite measured in the same run. The first run builds the benchmark framework (~3 min);
# the import benchmark writes its 1,000,000-record export once, to Benchmarks/.build/import-bench,
# and the start-up benchmark its vault of 1,000,000 samples and audit entries to
# Benchmarks/.build/startup-bench. BENCH_FILTER=REGEX runs only the benchmarks it matches (e.g.
# 'Socket.*', the socket's figures of docs/PERFORMANCE.md) and prints only their sections.
BENCH_FILTER ?=
bench: deps
	@mkdir -p Benchmarks/.build
	$(SWIFT) build -c release --product healthvaultd
	$(SWIFT) build -c release --product healthvault
	cd Benchmarks && HEALTHVAULTD=$(CURDIR)/.build/release/healthvaultd HEALTHVAULT=$(CURDIR)/.build/release/healthvault \
		$(SWIFT) package --allow-writing-to-package-directory benchmark --no-progress \
		$(if $(BENCH_FILTER),--filter '$(BENCH_FILTER)') | tee .build/bench.txt
	@python3 scripts/bench-ratios.py $(if $(BENCH_FILTER),--partial) < Benchmarks/.build/bench.txt

# The main job end to end on a throwaway vault: daemon, two example apps, the owner's CLI, the
# audit log exported, verified and tampered with (scripts/demo.sh). Exits 0 only if all behaved.
demo: build
	@./scripts/demo.sh

# The README's picture of the report (docs/images/report.png): the demo run with its vault reported
# before it is removed (DEMO_REPORT, the last seven days), the page shot by headless Chromium 1000 CSS
# pixels wide (docs/REPORT.md). Chromium refuses its sandbox to root: --no-sandbox then.
report-example: build
	@mkdir -p .build/report-example docs/images
	DEMO_REPORT=$(CURDIR)/.build/report-example/report.html ./scripts/demo.sh > .build/report-example/demo.log
	chromium --headless --disable-gpu --hide-scrollbars $$([ "$$(id -u)" = 0 ] && echo --no-sandbox) \
		--window-size=1000,1400 --screenshot=$(CURDIR)/docs/images/report.png \
		file://$(CURDIR)/.build/report-example/report.html 2> /dev/null
	@echo "docs/images/report.png: $$(stat -c %s docs/images/report.png) bytes, from .build/report-example/report.html"

# A long fuzz run of the daemon: random and mutated frames (the test suite runs a short one).
FUZZ_FRAMES ?= 200000
fuzz: deps
	$(SWIFT) build --build-tests
	HEALTHVAULT_FUZZ_FRAMES=$(FUZZ_FRAMES) $(SWIFT) test --skip-build --filter fuzzedFramesNeitherCrashNorLeak

# Manual pages and bash, zsh and fish completions for healthvault and healthvaultd, generated from
# their argument parsers and installed under PREFIX (docs/COMMAND_LINE.md). BIN=DIR takes the two
# binaries from DIR instead of building them. generate-manual is built from swift-argument-parser's
# own package into .build/tools, a build directory of its own.
PREFIX ?= $(HOME)/.local
BIN ?=
install-docs:
	@if [ -z "$(BIN)" ]; then $(SWIFT) build --product healthvault && $(SWIFT) build --product healthvaultd; fi
	@[ -d .build/checkouts/swift-argument-parser ] || $(SWIFT) package resolve
	$(SWIFT) build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/tools \
		--product generate-manual
	@./scripts/install-docs.sh "$(PREFIX)" "$(if $(BIN),$(BIN),$(CURDIR)/.build/debug)" .build/tools/debug/generate-manual

format:
	$(SWIFT_FORMAT) format --in-place --recursive $(FORMAT_PATHS)

format-check:
	@$(SWIFT_FORMAT) lint --strict --recursive $(FORMAT_PATHS) && echo "format: clean"

clean:
	rm -rf .build Benchmarks/.build $(VENV)

# The systemd user service (contrib/systemd, README "A service"): `make install` puts release
# binaries in $(BINDIR); `make install-service` writes the unit for them into
# $(SYSTEMD_USER_DIR), for the vault $(SERVICE_VAULT), reading the passphrase from
# $(SERVICE_PASSPHRASE_FILE). It builds nothing.
BINDIR ?= $(PREFIX)/bin
# release; the README's tour test installs the debug build it already has (CONFIGURATION=debug).
CONFIGURATION ?= release
XDG_CONFIG_HOME ?= $(HOME)/.config
XDG_DATA_HOME ?= $(HOME)/.local/share
SYSTEMD_USER_DIR ?= $(XDG_CONFIG_HOME)/systemd/user
SERVICE_VAULT ?= $(if $(HEALTHVAULT_DIR),$(HEALTHVAULT_DIR),$(XDG_DATA_HOME)/healthvault)
SERVICE_PASSPHRASE_FILE ?= $(XDG_CONFIG_HOME)/healthvault/passphrase

.PHONY: install install-service
install: deps
	$(SWIFT) build -c $(CONFIGURATION) --product healthvault
	$(SWIFT) build -c $(CONFIGURATION) --product healthvaultd
	install -d -m 0755 $(BINDIR)
	install -m 0755 $$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/healthvault $(BINDIR)/healthvault
	install -m 0755 $$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/healthvaultd $(BINDIR)/healthvaultd

install-service:
	@case "$(SERVICE_VAULT)$(BINDIR)$(SERVICE_PASSPHRASE_FILE)" in *" "*) \
		echo "install-service: a path with a space cannot go in the unit's ExecStart as written; set SERVICE_VAULT, BINDIR or SERVICE_PASSPHRASE_FILE" >&2; exit 1;; esac
	install -d -m 0700 $(SYSTEMD_USER_DIR)
	sed -e 's|@BINDIR@|$(abspath $(BINDIR))|g' -e 's|@VAULT@|$(abspath $(SERVICE_VAULT))|g' \
		-e 's|@PASSPHRASE_FILE@|$(abspath $(SERVICE_PASSPHRASE_FILE))|g' -e 's|@DOCDIR@|$(CURDIR)|g' \
		contrib/systemd/healthvaultd.service.in > $(SYSTEMD_USER_DIR)/healthvaultd.service.new
	chmod 0644 $(SYSTEMD_USER_DIR)/healthvaultd.service.new
	mv $(SYSTEMD_USER_DIR)/healthvaultd.service.new $(SYSTEMD_USER_DIR)/healthvaultd.service
	@echo "Installed $(SYSTEMD_USER_DIR)/healthvaultd.service (healthvaultd --vault $(SERVICE_VAULT))."
	@echo "Put the passphrase in $(SERVICE_PASSPHRASE_FILE) (chmod 600), then: systemctl --user daemon-reload && systemctl --user enable --now healthvaultd"
