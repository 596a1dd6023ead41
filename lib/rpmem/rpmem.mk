# lib/rpmem/: librpmem-rpma (PMDK's librpmem API over librpma) and its target
# daemon rpmemd-rpma. See lib/rpmem/README.md.
RPMEM_LIB_SRCS := lib/rpmem/poolset.c lib/rpmem/hdr.c lib/rpmem/pool.c lib/rpmem/proto.c \
                  lib/rpmem/command.c lib/rpmem/lanes.c lib/rpmem/client.c lib/rpmem/persist.c \
                  lib/rpmem/serve.c
RPMEM_LIB_OBJS := $(RPMEM_LIB_SRCS:%.c=$(BUILD)/%.o)
RPMEM_LIB      := $(BUILD)/librpmem-rpma.a
RPMEM_SO       := $(BUILD)/librpmem-rpma.so
RPMEMD_BIN     := $(BUILD)/rpmemd-rpma
RPMEM_EXAMPLE  := $(BUILD)/rpmem-example
RPMEM_CONNECT  := $(BUILD)/rpmem-connect
RPMEM_TEST_BIN := $(BUILD)/tests/rpmem-test
RPMEM_LIBS     := -lrpma -libverbs -lrdmacm -lpthread

# Position-independent, so the same objects make the static and the shared library.
$(RPMEM_LIB_OBJS) $(BUILD)/lib/rpmem/rpmemd.o: CFLAGS += -fPIC -pthread

$(RPMEM_LIB): $(RPMEM_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

$(RPMEM_SO): $(RPMEM_LIB_OBJS)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,librpmem-rpma.so -o $@ $^ $(RPMEM_LIBS)

$(RPMEMD_BIN): $(BUILD)/lib/rpmem/rpmemd.o $(RPMEM_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(RPMEM_LIBS)

$(RPMEM_CONNECT): $(BUILD)/lib/rpmem/connect.o $(RPMEM_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(RPMEM_LIBS)

$(RPMEM_EXAMPLE): $(BUILD)/lib/rpmem/example.o $(RPMEM_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(RPMEM_LIBS)

$(RPMEM_TEST_BIN): $(BUILD)/tests/rpmem/rpmem_test.o $(RPMEM_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(RPMEM_LIBS)

# The unit tests (tests/unit/test_lib_rpmem.c) and the agent link the static
# library; build/rdmacheck does not (it needs no stack library).
FAMILY_LIBS += $(RPMEM_LIB)
BINS_ALL += $(RPMEM_SO) $(RPMEMD_BIN) $(RPMEM_CONNECT) $(RPMEM_EXAMPLE) $(RPMEM_TEST_BIN)

# The real-stack test and the per-call figures (a 2-node rxe topology; VM
# when the host has no rxe).
.PHONY: rpmem-real rpmem-bench
rpmem-real: $(RPMEMD_BIN) $(RPMEM_TEST_BIN) $(RPMEM_EXAMPLE)
	ci/stack --stack=$(STACK) -- tests/rpmem/run
rpmem-bench: $(RPMEMD_BIN) $(RPMEM_TEST_BIN) $(RPMEM_EXAMPLE)
	ci/stack --stack=$(STACK) -- tests/rpmem/run --bench
