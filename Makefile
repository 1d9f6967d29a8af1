# HealthVault: `make test` installs what is missing, builds, runs every test and checks formatting.
SWIFT ?= swift
SWIFT_FORMAT ?= $(SWIFT) format
FORMAT_PATHS := Package.swift Sources Tests

.PHONY: all deps build test demo format format-check clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	$(SWIFT) build

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@$(MAKE) --no-print-directory format-check

demo:
	@echo "make demo arrives with the daemon (issue 6): nothing to run yet; 'make test' exercises what exists." >&2
	@exit 2

format:
	$(SWIFT_FORMAT) format --in-place --recursive $(FORMAT_PATHS)

format-check:
	@$(SWIFT_FORMAT) lint --strict --recursive $(FORMAT_PATHS) && echo "format: clean"

clean:
	rm -rf .build
