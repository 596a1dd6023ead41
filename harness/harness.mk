# harness/: everything between a scenario file and a report, by layer, lowest
# first (harness/LAYERS lists the includes each folder may make; make lint checks):
#   base/        text buffers, atomic files, option reading, processes, exit statuses
#   lang/        the scenario language: lexer, parser, call tables, diagnostics, printer (libscn.a)
#   run/         the coordinator: resolution, the family hooks (family.h), the model engine, the
#                real stack's engine and its transport to the agents, the runner that judges
#   agent/       the per-node agent process (core, request loop)
#   api/<family> one folder per API family: its calls, resolution, model op, stack and agent code
#   corpus/      which scenario files: collecting, loading, selection, shards, reruns, history
#   report/      text/TAP/JUnit, the results directory, semantic coverage and its page
#   nodes/       the machines scenarios run on: VMs per node, devices, profiles, consoles, records
#   suite/       the outer and inner run of rdmacheck run: rounds, jobs, careful, interrupts
#   explore/     rdmacheck explore: generator, cases, shrinker
#   cli/         build/rdmacheck: argv into a request for one of the above

# The real stack's libraries the agents use: only build/rdmacheck-agent links
# them (build/rdmacheck starts without them). libdat2 is not linked: the
# agent dlopen()s it after writing the node's dat.conf (harness/api/dat/agent_dat.c).
# -lpthread: libmrapi-rdma (lib/mrapi).
STACK_LIBS := -libverbs -lrdmacm -lrpma -ldl -lpthread
# The run's results.jsonl is written with Jansson (harness/report/results.c); the
# agents' network handshake is HMAC-SHA256 from OpenSSL's libcrypto
# (harness/run/remote.c): the coordinator's only libraries besides libc.
HARNESS_LIBS := -ljansson -lcrypto -pthread # -pthread: explore's lanes (harness/explore/agents.c)

# libstack.a: the real stack's coordinator side (the line protocol, the engine,
# the transport to the agents, every family's stack_<family>.c): no stack library.
STACK_SRCS := harness/run/proto.c harness/run/steptime.c harness/run/stack.c harness/run/agents.c harness/run/pool.c \
              $(sort $(wildcard harness/api/*/stack_*.c))
STACK_LIB  := $(BUILD)/libstack.a
$(STACK_LIB): $(STACK_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL += $(STACK_LIB)

# libagent.a: the agent side (harness/agent/, every family's agent_<family>.c),
# which needs the stack's headers and libraries: build/rdmacheck-agent, the unit tests.
AGENT_MAIN := harness/agent/main.c
AGENT_SRCS := $(filter-out $(AGENT_MAIN),$(sort $(wildcard harness/agent/*.c))) \
              $(sort $(wildcard harness/api/*/agent_*.c))
AGENT_LIB  := $(BUILD)/libagent.a
$(AGENT_LIB): $(AGENT_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

# The real-traffic smoke test (tests/smoke/run drives it on a topology).
SMOKE_BIN := $(BUILD)/tests/rc-smoke
$(SMOKE_BIN): $(BUILD)/tests/smoke/rc_smoke.o $(BUILD)/tests/smoke/vnode.o $(STACK_LIB) $(AGENT_LIB) $(TOPO_LIB) $(MODEL_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -libverbs
BINS_ALL += $(SMOKE_BIN)

# libscn.a: the scenario language front end (lexer, parser, AST, call table).
SCN_SRCS := $(sort $(wildcard harness/lang/*.c))
SCN_LIB  := $(BUILD)/libscn.a
$(SCN_LIB): $(SCN_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL += $(SCN_LIB)

# libharness.a: the coordinator (runner, resolution, model backend, reports,
# records, CLI pieces); build/rdmacheck is harness/cli/rdmacheck.c linked with everything.
HARNESS_DIRS := base run corpus report nodes suite explore cli api api/*
HARNESS_SRCS := $(filter-out $(STACK_SRCS) $(AGENT_SRCS) $(AGENT_MAIN) harness/cli/rdmacheck.c,\
                  $(sort $(wildcard $(HARNESS_DIRS:%=harness/%/*.c))))
HARNESS_LIB  := $(BUILD)/libharness.a
$(HARNESS_LIB): $(HARNESS_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL := $(HARNESS_LIB) $(LIBS_ALL)

# build/rdmacheck links no stack library (ldd shows Jansson and libc only): it needs neither
# librpma nor libibverbs to start, and builds without their headers
# (make rdmacheck; ci/deps --for=model). The agents it runs on a real stack are
# build/rdmacheck-agent, the agent side linked in whole so the registry's weak
# agent hooks resolve there.
RDMACHECK_BIN := $(BUILD)/rdmacheck
$(RDMACHECK_BIN): $(BUILD)/harness/cli/rdmacheck.o $(LIBS_ALL)
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/harness/cli/rdmacheck.o -Wl,--start-group $(LIBS_ALL) -Wl,--end-group \
		$(HARNESS_LIBS)
BINS_ALL += $(RDMACHECK_BIN)
.PHONY: rdmacheck
rdmacheck: $(RDMACHECK_BIN)

AGENT_BIN := $(BUILD)/rdmacheck-agent
$(AGENT_BIN): $(AGENT_MAIN:%.c=$(BUILD)/%.o) $(AGENT_SRCS:%.c=$(BUILD)/%.o) $(LIBS_ALL) $(FAMILY_LIBS)
	$(CC) $(LDFLAGS) -o $@ $(AGENT_MAIN:%.c=$(BUILD)/%.o) $(AGENT_SRCS:%.c=$(BUILD)/%.o) \
		-Wl,--start-group $(LIBS_ALL) $(FAMILY_LIBS) -Wl,--end-group $(STACK_LIBS) $(HARNESS_LIBS)
BINS_ALL += $(AGENT_BIN)

# The version --version prints: the VERSION file at the top (CHANGELOG.md says what each brought).
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0-dev)
$(BUILD)/harness/base/opts.o: CPPFLAGS += -DRDMACHECK_VERSION='"$(VERSION)"'
$(BUILD)/harness/base/opts.o: VERSION
