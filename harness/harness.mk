# harness/: everything between a scenario file and a report, by layer:
#   lang/        the scenario language: lexer, parser, call tables, diagnostics, printer (libscn.a)
#   run/         the coordinator: resolution, the backend table, the model engine, the real
#                stack's engine and its transport to the agents, the runner that judges
#   api/<family> one folder per API family: its resolution, backend requests and agent code
#   agent/       the per-node agent process (core, request loop, the verbs node)
#   cli/         build/rdmacheck: main, run, reports, records, coverage, files

# The real stack's libraries the agents use. libdat2 is not linked: the
# agent dlopen()s it after writing the node's dat.conf (harness/api/dat/agent_dat.c).
# libmrapi-rdma (build/libmrapi-rdma.a, in LIBS_ALL) needs -lpthread.
STACK_LIBS := -libverbs -lrdmacm -lrpma -ldl -lpthread

# libagent.a: the coordinator<->agent protocol, the agent, and every family's
# agent and real-stack backend code.
AGENT_SRCS := $(sort $(wildcard harness/agent/*.c)) harness/run/proto.c harness/run/stack.c harness/run/agents.c \
              $(sort $(wildcard harness/api/*/agent_*.c harness/api/*/stack_*.c))
AGENT_LIB  := $(BUILD)/libagent.a
$(AGENT_LIB): $(AGENT_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

# The real-traffic smoke test (tests/smoke/run drives it on a topology).
SMOKE_BIN := $(BUILD)/tests/rc-smoke
$(SMOKE_BIN): $(BUILD)/tests/smoke/rc_smoke.o $(BUILD)/tests/smoke/vnode.o $(AGENT_LIB) $(TOPO_LIB) $(MODEL_LIB)
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
HARNESS_SRCS := $(filter-out $(AGENT_SRCS) harness/cli/rdmacheck.c,\
                  $(sort $(wildcard harness/run/*.c harness/cli/*.c harness/api/*.c harness/api/*/*.c)))
HARNESS_LIB  := $(BUILD)/libharness.a
$(HARNESS_LIB): $(HARNESS_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL := $(HARNESS_LIB) $(LIBS_ALL)

RDMACHECK_BIN := $(BUILD)/rdmacheck
$(RDMACHECK_BIN): $(BUILD)/harness/cli/rdmacheck.o $(HARNESS_LIB) $(AGENT_LIB) $(LIBS_ALL)
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/harness/cli/rdmacheck.o -Wl,--start-group $(LIBS_ALL) $(AGENT_LIB) -Wl,--end-group $(STACK_LIBS)
BINS_ALL += $(RDMACHECK_BIN)
