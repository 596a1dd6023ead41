# lib/mrapi/: libmrapi-rdma, MRAPI remote memory over RDMA (lib/mrapi/README.md).
# build/libmrapi-rdma.a (linked into the agent and the unit tests), build/libmrapi-rdma.so,
# the two-process example, and the real-stack test driver (make mrapi-real,
# run where rxe is: ci/stack --stack=vm -- make mrapi-real).
MRAPI_SRCS := $(sort $(wildcard lib/mrapi/*.c)) $(COMMON_SRCS) # lib/common's too: the libraries stand alone
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

# make install (PREFIX, DESTDIR as the Makefile's): include/mrapi.h and include/mca.h (the
# reference implementation's declarations, lib/mrapi/README.md), lib/libmrapi-rdma.so and .a,
# lib/pkgconfig/mrapi.pc (cc app.c $(pkg-config --cflags --libs mrapi)). Where libibverbs and
# librdmacm are not installed the library is not built, and not installed.
INSTALL_MRAPI := $(shell pkg-config --exists libibverbs librdmacm 2>/dev/null && echo yes)
.PHONY: install-mrapi uninstall-mrapi
install: install-mrapi
uninstall: uninstall-mrapi
install-mrapi: $(if $(INSTALL_MRAPI),$(MRAPI_SO) $(MRAPI_LIB))
ifeq ($(INSTALL_MRAPI),yes)
	install -D -m 644 lib/mrapi/mrapi.h $(DESTDIR)$(PREFIX)/include/mrapi.h
	install -D -m 644 lib/mrapi/mca.h $(DESTDIR)$(PREFIX)/include/mca.h
	install -D -m 755 $(MRAPI_SO) $(DESTDIR)$(PREFIX)/lib/libmrapi-rdma.so
	install -D -m 644 $(MRAPI_LIB) $(DESTDIR)$(PREFIX)/lib/libmrapi-rdma.a
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/mrapi/mrapi.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/mrapi.pc
else
	@echo "make install: no libibverbs/librdmacm: libmrapi-rdma is not installed (ci/deps --for=real)"
endif
uninstall-mrapi:
	rm -f $(DESTDIR)$(PREFIX)/include/mrapi.h $(DESTDIR)$(PREFIX)/include/mca.h \
	      $(DESTDIR)$(PREFIX)/lib/libmrapi-rdma.so $(DESTDIR)$(PREFIX)/lib/libmrapi-rdma.a \
	      $(DESTDIR)$(PREFIX)/lib/pkgconfig/mrapi.pc

# Two threads of one process as two nodes (tests/mrapi/mrapi_threads.c), run by tests/mrapi/run.
MRAPI_THREADS := $(BUILD)/tests/mrapi-threads
$(MRAPI_THREADS): $(BUILD)/tests/mrapi/mrapi_threads.o $(MRAPI_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(MRAPI_LDLIBS)
BINS_ALL += $(MRAPI_THREADS)
mrapi-real: $(MRAPI_THREADS)
