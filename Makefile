# rdmacheck — top-level build.
#
# Every directory contributes a fragment (DIR/DIR.mk) that appends to the
# variables below; nothing is built outside $(BUILD). Variants (sanitizers,
# coverage) are the same build with another BUILD and other flags, made by a
# recursive make so no rule is written twice. See HACKING.md.

BUILD    ?= build
CC       ?= cc
OPT      ?= -O2 -g
XCFLAGS  ?=
XLDFLAGS ?=
CFLAGS   := -std=c11 -Wall -Wextra -Werror $(OPT) -D_POSIX_C_SOURCE=200809L \
            -MMD -MP $(XCFLAGS)
CPPFLAGS := -I.
LDFLAGS  := $(XLDFLAGS)

CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

# Appended to by the fragments.
LIBS_ALL  :=
BINS_ALL  :=
UNIT_SRCS :=

.PHONY: all clean deps unit valgrind check run smoke bench coverage shellcheck help
all:

include model/model.mk
# lib/<name>/<name>.mk: the libraries the project provides (an API family with no
# packaged implementation gets one here: lib/mrapi, lib/rpmem).
include $(sort $(wildcard lib/*/*.mk))
include netns/netns.mk
include harness/harness.mk
include tests/tests.mk
include ci/ci.mk

all: $(LIBS_ALL) $(BINS_ALL) $(UNIT_BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

clean:
	rm -rf build

help:
	@echo "make            build everything into $(BUILD)/"
	@echo "make deps       install missing Debian packages (ci/deps)"
	@echo "make check      all tests: unit (ASan+UBSan), shellcheck, shell tests, lint, smoke, mrapi-real, corpus, oracle"
	@echo "make run        the main job: the scenario corpus on the real stack (VM when needed)"
	@echo "make lint       parse the corpus and check every expect against the model"
	@echo "make corpus     the corpus on the real stack (CORPUS=DIR, RUN_OPTS=--junit=F ...)"
	@echo "make new-scenario NAME=verbs/x  a scenario file from scenarios/TEMPLATE.scn"
	@echo "make oracle     the oracle's self-test (deliberately wrong scenarios must fail)"
	@echo "make unit       unit tests only (plain build)"
	@echo "make valgrind   unit tests under valgrind"
	@echo "make coverage   gcov/lcov report, including code run inside the VM"
	@echo "make bench      benchmarks"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
