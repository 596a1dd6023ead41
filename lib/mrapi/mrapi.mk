# lib/mrapi/: libmrapi-rdma, MRAPI remote memory over RDMA (lib/mrapi/README.md).
# build/libmrapi-rdma.a (linked into the agent and the unit tests), build/libmrapi-rdma.so,
# the two-process example, and the real-stack test driver (make mrapi-real,
# run where rxe is: ci/stack --stack=vm -- make mrapi-real).
MRAPI_SRCS := $(sort $(wildcard lib/mrapi/*.c))
MRAPI_LIB  := $(BUILD)/libmrapi-rdma.a
MRAPI_SO   := $(BUILD)/libmrapi-rdma.so
MRAPI_LDLIBS := -libverbs -lrdmacm -lpthread -lcrypto

$(MRAPI_LIB): $(MRAPI_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
FAMILY_LIBS += $(MRAPI_LIB)

# The shared object: the same sources compiled position-independent.
$(BUILD)/pic/lib/mrapi/%.o: lib/mrapi/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c -o $@ $<
$(MRAPI_SO): $(MRAPI_SRCS:%.c=$(BUILD)/pic/%.o) lib/mrapi/mrapi.map
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libmrapi-rdma.so -Wl,--version-script=lib/mrapi/mrapi.map \
		-o $@ $(filter %.o,$^) $(MRAPI_LDLIBS)
BINS_ALL += $(MRAPI_SO)

MRAPI_EXAMPLE := $(BUILD)/mrapi-example
$(MRAPI_EXAMPLE): $(BUILD)/lib/mrapi/example/rmem_pair.o $(MRAPI_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(MRAPI_LDLIBS)
BINS_ALL += $(MRAPI_EXAMPLE)

MRAPI_REAL := $(BUILD)/tests/mrapi-real
$(MRAPI_REAL): $(BUILD)/tests/mrapi/mrapi_real.o $(MRAPI_LIB) $(BUILD)/libtopo.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(MRAPI_LDLIBS)
BINS_ALL += $(MRAPI_REAL)

.PHONY: mrapi-real
mrapi-real: $(MRAPI_REAL) $(MRAPI_EXAMPLE)
	tests/mrapi/run
