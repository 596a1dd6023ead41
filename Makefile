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
# The API families' own libraries (lib/*): the agent and the unit tests link them.
FAMILY_LIBS :=
BINS_ALL  :=
UNIT_SRCS :=

.PHONY: all clean deps unit valgrind check run smoke bench coverage shellcheck help docs install uninstall explore explore-selftest
all:

include model/model.mk
# lib/<name>/<name>.mk: the libraries the project provides (an API family with no
# packaged implementation gets one here: lib/mrapi, lib/rpmem), and lib/common, what
# they and the harness share below both (its .mk comes first: lib/mrapi takes its sources).
include $(sort $(wildcard lib/*/*.mk))
include netns/netns.mk
include harness/harness.mk
include tests/tests.mk
include ci/ci.mk
include man/man.mk

all: $(LIBS_ALL) $(BINS_ALL) $(UNIT_BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

clean:
	rm -rf build

# make install [PREFIX=/usr/local] [DESTDIR=/staging]: the command, its manual pages,
# the scenario corpus and the rule catalog, and the model as a library
# (lib/librdmacheck-model.a, include/rdmacheck/model/*.h, lib/pkgconfig/rdmacheck-model.pc);
# with the stack's headers also librpmem as PMDK's (install-rpmem, lib/rpmem/rpmem.mk).
# Installed, lint, predict, coverage, explain and run --stack=model work anywhere;
# the real stack (run --stack=host|vm) runs from a checkout.
PREFIX ?= /usr/local
DESTDIR ?=
MODEL_PUBLIC_H := model/model.h model/families.h $(wildcard model/*.def) \
                  $(shell grep -o 'model/[a-z0-9_]*/[a-z0-9_]*\.h' model/families.h)
# The agent (real-stack runs: --device, --topology) is installed when the stack's
# headers are here to build it (ci/deps --for=real); a model-only install goes without.
INSTALL_AGENT := $(shell pkg-config --exists libibverbs librdmacm librpma 2>/dev/null && echo yes)
install: $(RDMACHECK_BIN) $(MODEL_LIB) $(if $(INSTALL_AGENT),$(AGENT_BIN) install-rpmem)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 \
	        $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/doc/rdmacheck
	install -m 755 $(RDMACHECK_BIN) $(DESTDIR)$(PREFIX)/bin/rdmacheck
	$(if $(INSTALL_AGENT),install -D -m 755 $(AGENT_BIN) $(DESTDIR)$(PREFIX)/libexec/rdmacheck/rdmacheck-agent,\
		@echo "make install: no libibverbs/librdmacm/librpma headers: the agent is not installed (ci/deps --for=real)")
	for m in $(MAN_PAGES); do s=$${m##*.}; \
		sed 's/@VERSION@/$(VERSION)/' $$m > $(DESTDIR)$(PREFIX)/share/man/man$$s/$${m##*/} || exit 1; done
	install -m 644 $(MODEL_LIB) $(DESTDIR)$(PREFIX)/lib/librdmacheck-model.a
	for h in $(MODEL_PUBLIC_H); do install -D -m 644 $$h $(DESTDIR)$(PREFIX)/include/rdmacheck/$$h || exit 1; done
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' model/rdmacheck-model.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/rdmacheck-model.pc
	install -m 644 docs/rules.md README.md CHANGELOG.md $(DESTDIR)$(PREFIX)/share/doc/rdmacheck/
	install -d $(DESTDIR)$(PREFIX)/share/doc/rdmacheck/docs && install -m 644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/rdmacheck/docs/
	install -m 644 scenarios/README.md $(DESTDIR)$(PREFIX)/share/doc/rdmacheck/scenario-language.md
	rm -rf $(DESTDIR)$(PREFIX)/share/rdmacheck/scenarios && install -d $(DESTDIR)$(PREFIX)/share/rdmacheck
	cd scenarios && find . -name '*.scn' -exec install -D -m 644 {} $(abspath $(DESTDIR)$(PREFIX))/share/rdmacheck/scenarios/{} \;

uninstall: uninstall-rpmem
	rm -f $(DESTDIR)$(PREFIX)/bin/rdmacheck $(DESTDIR)$(PREFIX)/lib/librdmacheck-model.a \
	      $(DESTDIR)$(PREFIX)/libexec/rdmacheck/rdmacheck-agent \
	      $(DESTDIR)$(PREFIX)/lib/pkgconfig/rdmacheck-model.pc \
	      $(addprefix $(DESTDIR)$(PREFIX)/share/man/,man1/rdmacheck.1 man5/rdmacheck-scenario.5)
	rm -rf $(DESTDIR)$(PREFIX)/include/rdmacheck $(DESTDIR)$(PREFIX)/share/rdmacheck $(DESTDIR)$(PREFIX)/share/doc/rdmacheck
	-rmdir $(DESTDIR)$(PREFIX)/libexec/rdmacheck 2>/dev/null

help:
	@echo "make            build everything into $(BUILD)/"
	@echo "make rdmacheck  only build/rdmacheck: lint, predict, explain, run --stack=model (ci/deps --for=model)"
	@echo "make deps       install missing Debian packages (ci/deps)"
	@echo "make check      all tests: unit (ASan+UBSan), fuzz ($(FUZZ_QUICK_SECS) s), shellcheck, shell tests, lint, explore (model and real), smoke, mrapi, rpmem, pmemobj, corpus, oracle"
	@echo "make run        the main job: the scenario corpus on the real stack (VM when needed)"
	@echo "make lint       parse the corpus, check every expect against the model, and mutate every expect (make mutants)"
	@echo "make corpus     the corpus on the real stack (CORPUS=DIR, RUN_OPTS=--junit=F ...)"
	@echo "make record-corpus  the corpus on the real stack recorded into tests/record/ (RECORD=FILE), re-judged by make check"
	@echo "make mutants-model  mutants planted in model/, each judged by the committed record (MUTANTS_SAMPLE=40, MUTANTS_FILES=GLOB, MUTANTS_BUDGET=S); mutants-model-full: all"
	@echo "make new-scenario NAME=verbs/x  a scenario file from scenarios/TEMPLATE.scn"
	@echo "make oracle     the oracle's self-test (deliberately wrong scenarios must fail)"
	@echo "make unit       unit tests only (plain build)"
	@echo "make valgrind   unit tests under valgrind"
	@echo "make coverage   gcov/gcovr report, including code run inside the VM"
	@echo "make bench      benchmarks"
	@echo "make docs       docs/rules.md, the rule catalog, from model/rules.def"
	@echo "make install    PREFIX=/usr/local DESTDIR=: binary, man pages, corpus, model library + pkg-config"
	@echo "make explore    random scenarios on the real stack, divergences shrunk (EXPLORE_TIME=60)"
	@echo "make explore-selftest  explore must rediscover rxe's declared deviations (tests/explore/selftest)"
	@echo "make explore-vm  explore --stack=vm on the real stack: one guest, same steps as the model, a panic rebooted (tests/explore/vm)"
	@echo "make bench-explore  explore's real steps/s next to raw C loops of the same calls (tests/bench/explore)"
	@echo "make fuzz       the scenario-language fuzz target (FUZZ_SECS=$(FUZZ_SECS); FUZZ_QUICK_SECS=$(FUZZ_QUICK_SECS) s of it in make check)"
	@echo "make faults     fault reproducers on the real stack (tests/faults)"
	@echo "make stress     the peers' stress tests at their own counts (tests/stress), minutes each on the real stack"
	@echo "make soak       the corpus until SOAK_MIN=1000 scenarios ran in one guest; fails on growth"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
