# harness/: programs that talk to the real stack.

# The real stack's libraries the agents use. libdat2 is not linked: the
# agent dlopen()s it after writing the node's dat.conf (harness/agent_dat.c).
STACK_LIBS := -libverbs -lrdmacm -lrpma -ldl

# libagent.a: the coordinator<->agent protocol and the verbs node (real stack).
AGENT_SRCS := harness/proto.c harness/vnode.c harness/agent.c harness/agent_verbs.c harness/agent_rpma.c \
              harness/agent_dat.c harness/be_verbs.c harness/be_rpma.c harness/be_dat.c
AGENT_LIB  := $(BUILD)/libagent.a
$(AGENT_LIB): $(AGENT_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

# The real-traffic smoke test (tests/smoke/run drives it on a topology).
SMOKE_BIN := $(BUILD)/tests/rc-smoke
$(SMOKE_BIN): $(BUILD)/tests/smoke/rc_smoke.o $(AGENT_LIB) $(TOPO_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -libverbs
BINS_ALL += $(SMOKE_BIN)

# libscn.a: the scenario language front end (lexer, parser, AST, call table).
SCN_SRCS := $(sort $(wildcard harness/scn_*.c))
SCN_LIB  := $(BUILD)/libscn.a
$(SCN_LIB): $(SCN_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL += $(SCN_LIB)

# libharness.a: the coordinator (runner, model backend, reports, records, CLI
# pieces); build/rdmacheck is harness/rdmacheck.c linked with everything.
HARNESS_SRCS := $(filter-out $(SCN_SRCS) $(AGENT_SRCS) harness/rdmacheck.c,$(sort $(wildcard harness/*.c)))
HARNESS_LIB  := $(BUILD)/libharness.a
$(HARNESS_LIB): $(HARNESS_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL := $(HARNESS_LIB) $(LIBS_ALL)

RDMACHECK_BIN := $(BUILD)/rdmacheck
$(RDMACHECK_BIN): $(BUILD)/harness/rdmacheck.o $(HARNESS_LIB) $(AGENT_LIB) $(LIBS_ALL)
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/harness/rdmacheck.o -Wl,--start-group $(LIBS_ALL) $(AGENT_LIB) -Wl,--end-group $(STACK_LIBS)
BINS_ALL += $(RDMACHECK_BIN)
