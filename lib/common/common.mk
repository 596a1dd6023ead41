# lib/common/: what the libraries and the harness share below both of them
# (LAYERS: lib/common, the lowest layer): build/libcommon.a, in every program
# the checkout links (LIBS_ALL). lib/mrapi's libraries take its objects in too
# (mrapi.mk: MRAPI_SRCS), so that an installed libmrapi-rdma needs nothing else.
COMMON_SRCS := $(sort $(wildcard lib/common/*.c))
COMMON_LIB  := $(BUILD)/libcommon.a
$(COMMON_LIB): $(COMMON_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL += $(COMMON_LIB)
# Position-independent, for the shared objects that take them in (libmrapi-rdma.so).
$(BUILD)/pic/lib/common/%.o: lib/common/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c -o $@ $<
