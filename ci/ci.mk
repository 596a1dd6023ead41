# ci/: the top-level jobs. `make check` and `make run` install what is missing
# (ci/deps) before anything else.

BENCH_BINS ?=
SANITIZE  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SH_SCRIPTS = $(shell grep -rlE '^\#!(/usr/bin/env bash|/bin/bash|/bin/sh|/bin/busybox sh)' \
               ci netns tests harness scenarios .ci 2>/dev/null | grep -v '~$$')
STACK     ?= auto

deps:
	ci/deps

# Unit tests built with ASan+UBSan in their own build directory.
unit-asan:
	$(MAKE) BUILD=build/asan OPT='-O1 -g' XCFLAGS='$(SANITIZE)' XLDFLAGS='$(SANITIZE)' unit

valgrind: $(UNIT_BIN)
	CK_FORK=no valgrind -q --error-exitcode=99 --leak-check=full $(UNIT_BIN)

shellcheck:
	shellcheck $(SH_SCRIPTS)
	@echo "shellcheck: $(words $(SH_SCRIPTS)) scripts clean"

# Shell tests (tests/shell/test-*, TAP): exit 0 pass, 77 skip, else fail.
shell-tests:
	@fail=0; for t in $(sort $(wildcard tests/shell/test-*)); do \
		echo "== $$t"; $$t; st=$$?; \
		if [ $$st -eq 77 ]; then echo "$$t: skipped"; \
		elif [ $$st -ne 0 ]; then echo "$$t: FAILED ($$st)"; fail=1; fi; \
	done; exit $$fail

# The real-stack smoke test (VM when the host has no rxe).
smoke: all
	ci/stack --stack=$(STACK) -- tests/smoke/run

# libmrapi-rdma's own real-stack test (lib/mrapi/mrapi.mk: mrapi-real), on the chosen stack.
mrapi-check: all
	ci/stack --stack=$(STACK) -- $(MAKE) mrapi-real

# The scenario corpus: every file parses and agrees with the model (lint),
# and runs on the real stack (corpus; RUN_OPTS e.g. --junit=FILE --format=tap).
CORPUS   ?= scenarios
RUN_OPTS ?=
lint: all
	$(BUILD)/rdmacheck lint $(CORPUS)

corpus: all
	$(BUILD)/rdmacheck run --stack=$(STACK) $(RUN_OPTS) $(CORPUS)

# A new scenario from scenarios/TEMPLATE.scn (NAME=verbs/my-behaviour).
new-scenario:
	scenarios/new "$(NAME)"

# The oracle's self-test: deliberately wrong scenarios must be reported.
oracle: all
	tests/oracle/run

check: deps
	$(MAKE) all
	$(MAKE) unit-asan
	$(MAKE) shellcheck
	$(MAKE) shell-tests
	$(MAKE) lint
	$(MAKE) smoke
	$(MAKE) mrapi-check
	$(MAKE) corpus
	$(MAKE) oracle

run: deps
	$(MAKE) all
	$(MAKE) corpus

bench: $(BENCH_BINS)
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

# Coverage: instrumented build in build/cov; the unit tests on the host and
# the smoke test on the real stack (in the VM the checkout is shared
# read-write, so the guest's .gcda files land here too).
COV := build/cov
coverage: deps
	$(MAKE) BUILD=$(COV) OPT='-O0 -g' XCFLAGS='--coverage' XLDFLAGS='--coverage' all
	lcov -q --zerocounters --directory $(COV)
	tests/run-unit $(COV)/tests/unit-tests
	RDMACHECK_BUILD=$(COV) ci/stack --stack=$(STACK) -- tests/smoke/run
	$(COV)/rdmacheck run --stack=$(STACK) $(CORPUS) > $(COV)/corpus.tmp; echo $$? > $(COV)/corpus.status; \
	  mv $(COV)/corpus.tmp $(COV)/corpus.txt
	tail -n 4 $(COV)/corpus.txt
	lcov -q --capture --directory $(COV) --base-directory . --output-file $(COV)/lcov.raw
	lcov -q --extract $(COV)/lcov.raw "$(CURDIR)/*" --output-file $(COV)/lcov.tmp
	lcov -q --remove $(COV)/lcov.tmp "$(CURDIR)/tests/*" --output-file $(COV)/lcov.info
	genhtml -q --output-directory $(COV)/html $(COV)/lcov.info
	ci/coverage-summary $(COV)/lcov.info "$(CURDIR)/"
	@echo "coverage report: $(COV)/html/index.html"
	$(COV)/rdmacheck coverage $(CORPUS) > $(COV)/rules.tmp && mv $(COV)/rules.tmp $(COV)/rules.txt
	grep '^rules ' $(COV)/rules.txt
	@echo "semantic coverage (every rule, the scenarios that exercise it): $(COV)/rules.txt"
	@st=$$(cat $(COV)/corpus.status); if [ "$$st" -ne 0 ]; then \
	  echo "make coverage: the corpus run failed (exit $$st): $(COV)/corpus.txt"; exit "$$st"; fi

.PHONY: unit-asan shell-tests lint corpus oracle new-scenario mrapi-check
