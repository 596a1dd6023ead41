# Unit tests: every tests/unit/test_*.c is a Check suite; all link into one
# binary. The suite list is generated from the file names.
UNIT_SRCS += $(sort $(wildcard tests/unit/test_*.c))
UNIT_NAMES := $(basename $(notdir $(UNIT_SRCS)))
UNIT_OBJS  := $(UNIT_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/tests/unit/main.o
UNIT_BIN   := $(BUILD)/tests/unit-tests

# Written under a name of this make's own (make check's lanes run makes side by
# side), then renamed over the list only when it changed.
$(BUILD)/tests/unit/suites.inc: FORCE
	@mkdir -p $(dir $@)
	@t=$@.$$$$.tmp; : > $$t; for n in $(UNIT_NAMES); do echo "SUITE($$n)" >> $$t; done; \
	cmp -s $$t $@ 2>/dev/null && rm -f $$t || mv -f $$t $@

# The tests' own objects are glue around the code under test: they compile
# without optimisation (UNIT_OPT) and without libFuzzer's coverage
# instrumentation (the sanitized tree's), whatever OPT the code under test has;
# sanitizers and warnings stay. At -O2 (and under clang -O1 with coverage) they
# were about 40% of a build's compile time and changed no test's run time
# (measured: make all 38 -> 24 CPU-s, the sanitized unit tests' build 52 -> 33).
UNIT_OPT    ?= -O0 -g
UNIT_CFLAGS  = $(filter-out $(OPT) -fsanitize=fuzzer-no-link,$(CFLAGS)) $(UNIT_OPT)
$(BUILD)/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -I$(BUILD)/tests/unit $(CHECK_CFLAGS) $(UNIT_CFLAGS) -c -o $@ $<

$(BUILD)/tests/unit/main.o: $(BUILD)/tests/unit/suites.inc

$(UNIT_BIN): $(UNIT_OBJS) $(LIBS_ALL) $(AGENT_LIB) $(FAMILY_LIBS)
	$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJS) -Wl,--start-group $(LIBS_ALL) $(AGENT_LIB) $(FAMILY_LIBS) -Wl,--end-group $(CHECK_LIBS) $(STACK_LIBS) $(HARNESS_LIBS)

.PHONY: FORCE
FORCE:

unit: $(UNIT_BIN)
	tests/run-unit $(UNIT_BIN)

# make bench-real's raw side (tests/bench/real drives it on the real stack).
REAL_RAW_BIN := $(BUILD)/bench/real-raw
$(REAL_RAW_BIN): $(BUILD)/tests/bench/real_raw.o $(BUILD)/tests/smoke/vnode.o $(STACK_LIB) $(TOPO_LIB) $(MODEL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -libverbs
BINS_ALL += $(REAL_RAW_BIN)

# Benchmarks (make bench runs every binary in BENCH_BINS).
BENCH_BINS += $(BUILD)/bench/model-bench
$(BUILD)/bench/model-bench: $(BUILD)/tests/bench/model_bench.o $(BUILD)/harness/explore/gen.o $(MODEL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

# The expect mutation test (tests/mutants/expect_mutants.c; make lint runs it over the corpus).
MUTANTS_BIN := $(BUILD)/tests/expect-mutants
$(MUTANTS_BIN): $(BUILD)/tests/mutants/expect_mutants.o $(LIBS_ALL)
	$(CC) $(LDFLAGS) -o $@ $< -Wl,--start-group $(LIBS_ALL) -Wl,--end-group $(HARNESS_LIBS)
BINS_ALL += $(MUTANTS_BIN)

mutants: $(MUTANTS_BIN)
	$(MUTANTS_BIN) $(CORPUS)
.PHONY: mutants

# The model-mutant test (tests/mutants/model_mutants; issue 30): mutants planted in
# model/**/*.c, each judged by the committed record of reality (rdmacheck rejudge).
# make mutants-model: a sample (MUTANTS_SAMPLE, default 40; MUTANTS_FILES a glob of
# model files, MUTANTS_BUDGET seconds, MUTANTS_SEED); make mutants-model-full: every site.
# The report: $(BUILD)/mutants/model-mutants.md (survivors listed by site and mutation).
MUTANTS_SAMPLE ?= 40
MUTANTS_SEED   ?= 1
MUTANTS_BUDGET ?= 0
MUTANTS_FILES  ?=
MUTANTS_MODEL   = tests/mutants/model_mutants --build=$(BUILD) --cc='$(CC)' --jobs=2 \
	--cflags='$(CPPFLAGS) $(filter-out -Werror -MMD -MP $(OPT),$(CFLAGS)) -O1' \
	--libs='$(LIBS_ALL)' --ldlibs='$(HARNESS_LIBS)' --seed=$(MUTANTS_SEED) --budget=$(MUTANTS_BUDGET) \
	$(if $(MUTANTS_FILES),--files='$(MUTANTS_FILES)')
mutants-model: $(RDMACHECK_BIN)
	$(MUTANTS_MODEL) --sample=$(MUTANTS_SAMPLE)
mutants-model-full: $(RDMACHECK_BIN)
	$(MUTANTS_MODEL)
.PHONY: mutants-model mutants-model-full
