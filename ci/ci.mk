# ci/: the top-level jobs. `make check` and `make run` install what is missing
# (ci/deps) before anything else.

BENCH_BINS ?=
SH_SCRIPTS = $(shell grep -rlE '^\#!(/usr/bin/env bash|/bin/bash|/bin/sh|/bin/busybox sh)' \
               ci netns tests harness scenarios .ci 2>/dev/null | grep -v '~$$')
STACK     ?= auto

deps:
	ci/deps

# Unit tests built with ASan+UBSan, in the fuzz target's build directory with
# its flags (SAN_MAKE, below): make check compiles the tree once for both.
unit-asan:
	+$(SAN_MAKE) unit

valgrind: $(UNIT_BIN)
	CK_FORK=no valgrind -q --error-exitcode=99 --leak-check=full $(UNIT_BIN)

shellcheck:
	shellcheck $(SH_SCRIPTS)
	@echo "shellcheck: $(words $(SH_SCRIPTS)) scripts clean"

# Shell tests (tests/shell/test-*, TAP; SHELL_TESTS a subset): exit 0 pass, 77 skip, else fail.
SHELL_TESTS ?= $(sort $(wildcard tests/shell/test-*))
shell-tests:
	@fail=0; for t in $(SHELL_TESTS); do \
		echo "== $$t"; $$t; st=$$?; \
		if [ $$st -eq 77 ]; then echo "$$t: skipped"; \
		elif [ $$st -ne 0 ]; then echo "$$t: FAILED ($$st)"; fail=1; fi; \
	done; exit $$fail

# The real-stack smoke test (VM when the host has no rxe).
smoke: all
	ci/stack --stack=$(STACK) -- tests/smoke/run

# libmrapi-rdma's own real-stack test (lib/mrapi/mrapi.mk: mrapi-real), on the chosen stack;
# built here, so the guest does not run make (its look at the tree over 9p takes 8-9 s under TCG).
mrapi-check: all
	ci/stack --stack=$(STACK) -- tests/mrapi/run

# The scenario corpus: every file parses and agrees with the model (lint),
# every expect of it mutated is refused where the model excludes the mutant
# (tests/mutants/expect_mutants.c, make mutants), and it runs on the real
# stack (corpus; RUN_OPTS e.g. --junit=FILE --format=tap).
CORPUS   ?= scenarios
RUN_OPTS ?=
# The peers' stress tests at their own counts (tests/stress/README.md): minutes each on
# rxe under TCG, so not in the corpus; linted and mutated with it, run by make stress,
# recorded with it (make record-corpus) and so re-judged by every make check.
STRESS   ?= tests/stress
lint: all
	ci/layers
	$(BUILD)/rdmacheck lint $(CORPUS) $(STRESS)
	$(MUTANTS_BIN) $(CORPUS) $(STRESS)

corpus: all
	$(BUILD)/rdmacheck run --stack=$(STACK) $(RUN_OPTS) $(CORPUS)

stress: all
	$(BUILD)/rdmacheck run --stack=$(STACK) $(RUN_OPTS) $(STRESS)

# The committed record of the corpus on the real stack (issue 30): the run's
# results.jsonl without its step lines (the record of reality is in its "tape"
# objects), which make check re-judges against the model without a stack
# (tests/shell/test-rejudge: rdmacheck rejudge). Refresh it after a change of
# the corpus's steps; a verdict the run gives is recorded whatever it is.
RECORD ?= tests/record/corpus-rxe-6.1.jsonl
record-corpus: all
	rm -rf build/results/record-corpus
	$(BUILD)/rdmacheck run --stack=$(STACK) --results=build/results/record-corpus $(CORPUS) $(STRESS) > /dev/null; \
	  st=$$?; [ $$st -le 3 ] || { echo "make record-corpus: the run ended with $$st"; exit $$st; }
	@mkdir -p $(dir $(RECORD))
	grep -v '^{"type":"step"' build/results/record-corpus/results.jsonl > $(RECORD).tmp
	mv $(RECORD).tmp $(RECORD)
	$(BUILD)/rdmacheck rejudge --no-record-ok $(RECORD) | tail -n 1

# A new scenario from scenarios/TEMPLATE.scn (NAME=verbs/my-behaviour).
new-scenario:
	scenarios/new "$(NAME)"

# The oracle's self-test: deliberately wrong scenarios must be reported.
oracle: all
	tests/oracle/run

# Exploration (issue 13): random scenarios judged by the model on the real
# stack, divergences shrunk into EXPLORE_OUT (EXPLORE_TIME seconds; more
# options in EXPLORE_OPTS, e.g. --seed=N --profile=generic). The self-test:
# tests/explore/selftest (SEED, STEPS, MIN_DEV, MAX_STEPS); make check runs it on the
# model and on the real stack (on rxe 6.1 in the VM: 55 s, three guest boots).
EXPLORE_TIME ?= 60
EXPLORE_OUT  ?= build/explore
EXPLORE_OPTS ?=
explore: all
	$(BUILD)/rdmacheck explore --stack=$(STACK) --time=$(EXPLORE_TIME) --out=$(EXPLORE_OUT) $(EXPLORE_OPTS)

explore-selftest: all
	STACK=$(STACK) tests/explore/selftest

# tests/explore/vm: `explore --stack=vm`, one guest for the whole run, on the real
# stack (issue 31): the same steps as on the model, a panic rebooted, the shrunk
# files reproduced by run. Boots VMs.
explore-vm: all
	tests/explore/vm

# make check: the build at -j2, then every part (ci/check: unit tests under
# ASan+UBSan, the corpus, smoke + MRAPI + librpmem + libpmemobj + oracle +
# faults in one session of the real stack, shell tests, the explore self-test
# on the real stack and on the model, tests/shell/test-vm, fuzz, shellcheck,
# lint) in two lanes that take them from one queue, most costly first; each
# part's time and verdict in a table at the end, every failure named.
# CHECK_LANES=1: one part after the other.
check: deps
	$(MAKE) -j2 all
	MAKE='$(MAKE)' STACK=$(STACK) ci/check

run: deps
	$(MAKE) all
	$(MAKE) corpus

bench: $(BENCH_BINS)
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

# Raw libibverbs loops against the same operations as scenario steps, per-scenario
# fixed cost and the verbs corpus' wall time, in one boot of the real stack (issue 18).
# The BENCH_REAL_* variables given to make reach the script inside the VM too (ci/vm
# passes only RDMACHECK_*, CK_* and GCOV_* of its environment). BENCH_REAL_HOG=1: all of it
# beside one busy process in the guest (tests/bench/hog), the loaded figures.
BENCH_REAL_VARS := BENCH_REAL_CORPUS BENCH_REAL_ITERS BENCH_REAL_FIXED BENCH_REAL_FANIN BENCH_REAL_RUNS BENCH_REAL_K BENCH_REAL_HOG
bench-real: all
	ci/stack --stack=$(STACK) -- env $(foreach v,$(BENCH_REAL_VARS),$(if $(filter undefined,$(origin $(v))),,'$(v)=$($(v))')) tests/bench/real

# `rdmacheck explore`'s real steps per second next to raw C loops of the same
# calls (issues 13, 31): the raw loops in one boot of the real stack, explore
# from this host as a user runs it (--stack=vm: its one guest). Boots VMs.
bench-explore: all
	STACK=$(STACK) tests/bench/explore

# Coverage: instrumented build in build/cov; the unit tests on the host and
# the smoke test on the real stack (in the VM the checkout is shared
# read-write, so the guest's .gcda files land here too); ci/coverage-report
# (gcovr) the report, every source named relative to the checkout.
COV := build/cov
coverage: deps
	$(MAKE) BUILD=$(COV) OPT='-O0 -g' XCFLAGS='--coverage' XLDFLAGS='--coverage' all
	find $(COV) -name '*.gcda' -delete
	tests/run-unit $(COV)/tests/unit-tests
	RDMACHECK_BUILD=$(COV) ci/stack --stack=$(STACK) -- tests/smoke/run
	rm -rf $(COV)/results
	$(COV)/rdmacheck run --stack=$(STACK) --results=$(COV)/results $(CORPUS) > $(COV)/corpus.tmp; \
	  echo $$? > $(COV)/corpus.status; mv $(COV)/corpus.tmp $(COV)/corpus.txt
	tail -n 4 $(COV)/corpus.txt
	ci/coverage-report . $(COV) $(COV)/html
	cp $(COV)/results/coverage.html $(COV)/html/semantic.html
	@echo "coverage report: $(COV)/html/index.html (lines, functions, branches)"
	@echo "semantic coverage (rules x API family, real stack and model walk, deviations): $(COV)/html/semantic.html"
	$(COV)/rdmacheck coverage $(CORPUS) > $(COV)/rules.tmp && mv $(COV)/rules.tmp $(COV)/rules.txt
	grep '^rules ' $(COV)/rules.txt
	@echo "semantic coverage (every rule, the scenarios that exercise it): $(COV)/rules.txt"
	@st=$$(cat $(COV)/corpus.status); if [ "$$st" -ne 0 ]; then \
	  echo "make coverage: the corpus run failed (exit $$st): $(COV)/corpus.txt"; exit "$$st"; fi

.PHONY: stress explore-vm bench-real bench-explore unit-asan shell-tests lint corpus record-corpus oracle new-scenario faults mrapi-check

# docs/rules.md: the rule catalog, generated from model/rules.def and the profiles
# (tests/shell/test-explain fails when the committed file is not current).
docs: $(RDMACHECK_BIN)
	@mkdir -p docs
	$(RDMACHECK_BIN) explain --catalog > docs/rules.md.tmp && mv docs/rules.md.tmp docs/rules.md

# Fault reproducers on the real stack (tests/faults, issue 16; VM when the
# host has no rxe: take /tmp/rdmacheck-vm.lock on shared machines).
faults: all
	tests/faults/run --stack=$(STACK)

# Fuzzing (issue 16): the libFuzzer target tests/fuzz/fuzz_scn.c over parse,
# the corpus conventions, lint and the printer's round trip, built with clang
# (ci/deps) and ASan+UBSan in build/fuzz (SAN_MAKE: the unit tests' build too). `make fuzz` runs it FUZZ_SECS
# seconds (default 300) from the corpus build/fuzz/corpus, seeded with
# scenarios/; `make fuzz-quick` (part of make check) runs FUZZ_QUICK_SECS (20: from a fresh
# clone's seeds, 20 s reached 4061 of the 4072 edges and 98% of the features 30 s did, measured
# inside make check; depth is `make fuzz`'s).
# A finding is written to build/fuzz/ as crash-*/leak-*; replay it with
# build/fuzz/fuzz-scn FILE.
FUZZ      := build/fuzz
FUZZ_SECS ?= 300
FUZZ_QUICK_SECS ?= 20
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

$(BUILD)/fuzz-scn: $(BUILD)/tests/fuzz/fuzz_scn.o $(LIBS_ALL) $(AGENT_LIB) $(FAMILY_LIBS)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $< -Wl,--start-group $(LIBS_ALL) $(AGENT_LIB) $(FAMILY_LIBS) \
		-Wl,--end-group $(STACK_LIBS) $(HARNESS_LIBS)

# The sanitized build (clang, ASan+UBSan, and libFuzzer's coverage instrumentation,
# which the unit tests link with too): one tree of objects for the fuzz target and
# `make unit-asan`. The recipes that use it begin with '+': make hands its jobs (-j) only to
# a recipe line that names $(MAKE) itself, and this one names it through a variable (without
# the '+' the sanitized tree was compiled one file at a time: "jobserver unavailable").
# Line tables are all the debug information it carries: ASan's and UBSan's reports name
# file and line from them, and full -g cost a tenth of its compile time.
SAN_MAKE = $(MAKE) BUILD=$(FUZZ) CC=clang OPT='-O1 -gline-tables-only' XCFLAGS='-fsanitize=fuzzer-no-link $(FUZZ_SAN)' \
	XLDFLAGS='-fsanitize=fuzzer-no-link $(FUZZ_SAN)'

fuzz-build:
	+$(SAN_MAKE) $(FUZZ)/fuzz-scn

# fuzz-run SECONDS: libFuzzer over the corpus; prints its final figures (execs, edges).
define fuzz-run
	@mkdir -p $(FUZZ)/corpus
	cd $(FUZZ) && { ./fuzz-scn -max_total_time=$(1) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=./ corpus ../../scenarios > fuzz.log 2>&1; st=$$?; \
	grep -E '^(INFO: seed corpus|Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|fuzz_scn:)' fuzz.log; \
	grep -E '^#[0-9]+' fuzz.log | tail -n 1; \
	[ $$st -eq 0 ] || echo "make fuzz: a finding (exit $$st): $(FUZZ)/fuzz.log, $(FUZZ)/crash-* / leak-* / timeout-*"; exit $$st; }
endef

fuzz: deps fuzz-build
	$(call fuzz-run,$(FUZZ_SECS))

fuzz-quick: fuzz-build
	$(call fuzz-run,$(FUZZ_QUICK_SECS))

.PHONY: fuzz fuzz-build fuzz-quick

# The soak (issue 16): the corpus again and again in one guest (or on this
# host's stack) until SOAK_MIN scenarios ran, failing on growth of RDMA
# resources, fds, processes, namespaces or temporary files (tests/soak/run).
# Long: about SOAK_MIN x the corpus's mean scenario time (TCG: 0.5 s, 1000 in 9 min).
SOAK_MIN     ?= 1000
SOAK_TIMEOUT ?= 3600
soak: all
	RDMACHECK_VM_TIMEOUT=$(SOAK_TIMEOUT) ci/stack --stack=$(STACK) -- tests/soak/run --min=$(SOAK_MIN)

.PHONY: soak
