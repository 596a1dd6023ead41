# lib/rpmem/: librpmem-rpma (PMDK's librpmem API over librpma) and its target
# daemon rpmemd-rpma. See lib/rpmem/README.md.
RPMEM_LIB_SRCS := lib/rpmem/poolset.c lib/rpmem/hdr.c lib/rpmem/pool.c lib/rpmem/proto.c \
                  lib/rpmem/command.c lib/rpmem/lanes.c lib/rpmem/client.c lib/rpmem/persist.c \
                  lib/rpmem/serve.c lib/rpmem/rpmemd_config.c lib/rpmem/zygote.c
RPMEM_LIB_OBJS := $(RPMEM_LIB_SRCS:%.c=$(BUILD)/%.o)
RPMEM_LIB      := $(BUILD)/librpmem-rpma.a
# PMDK's names: the shared object librpmem.so.1 (soname librpmem.so.1, symbol
# version node LIBRPMEM_1.0 as PMDK's librpmem.link, only the public API of
# librpmem.h global: lib/rpmem/librpmem.sym) and librpmem.so for -lrpmem.
RPMEM_SO       := $(BUILD)/librpmem.so.1
RPMEM_SO_LINK  := $(BUILD)/librpmem.so
RPMEM_SYMS     := lib/rpmem/librpmem.sym
RPMEM_MAP      := $(BUILD)/lib/rpmem/librpmem.map
# The installed static library: one relocatable object with only the public
# API global (the internal rpmem_* names cannot clash with a program's).
RPMEM_PUB_LIB  := $(BUILD)/lib/rpmem/librpmem.a
RPMEMD_BIN     := $(BUILD)/rpmemd-rpma
RPMEM_EXAMPLE  := $(BUILD)/rpmem-example
RPMEM_CONNECT  := $(BUILD)/rpmem-connect
RPMEM_ZYGOTE   := $(BUILD)/rpmemd-zygote
RPMEM_TEST_BIN := $(BUILD)/tests/rpmem-test
RPMEM_LIBS     := -lrpma -libverbs -lrdmacm -lpthread

# Position-independent, so the same objects make the static and the shared library.
$(RPMEM_LIB_OBJS) $(BUILD)/lib/rpmem/rpmemd.o $(BUILD)/lib/rpmem/rpmemd_main.o: CFLAGS += -fPIC -pthread
# rpmemd -V: the version of the PMDK API it serves, and this project's.
$(BUILD)/lib/rpmem/rpmemd.o: CPPFLAGS += -DRPMEMD_VERSION_STR='"1.12.1 (rdmacheck $(shell cat VERSION), librpma)"'

$(RPMEM_LIB): $(RPMEM_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

$(RPMEM_MAP): $(RPMEM_SYMS)
	@mkdir -p $(dir $@)
	{ echo 'LIBRPMEM_1.0 {'; echo '	global:'; sed 's/.*/		&;/' $<; echo '	local:'; echo '		*;'; echo '};'; } > $@

$(RPMEM_SO): $(RPMEM_LIB_OBJS) $(RPMEM_MAP)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,librpmem.so.1 -Wl,--version-script=$(RPMEM_MAP) \
		-o $@ $(RPMEM_LIB_OBJS) $(RPMEM_LIBS)

$(RPMEM_SO_LINK): $(RPMEM_SO)
	ln -sf $(notdir $<) $@

$(RPMEM_PUB_LIB): $(RPMEM_LIB_OBJS) $(RPMEM_SYMS)
	@mkdir -p $(dir $@)
	$(LD) -r -o $(@:.a=.o) $(RPMEM_LIB_OBJS)
	objcopy --keep-global-symbols=$(RPMEM_SYMS) $(@:.a=.o)
	rm -f $@ && $(AR) rcs $@ $(@:.a=.o)

$(RPMEMD_BIN): $(BUILD)/lib/rpmem/rpmemd_main.o $(BUILD)/lib/rpmem/rpmemd.o $(RPMEM_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(RPMEM_LIBS)

# The daemon forked per session instead of exec'd (rpmem_serve's; rpmem_int.h).
$(RPMEM_ZYGOTE): $(BUILD)/lib/rpmem/zygote_main.o $(BUILD)/lib/rpmem/rpmemd.o $(RPMEM_LIB)
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
BINS_ALL += $(RPMEM_SO) $(RPMEM_SO_LINK) $(RPMEMD_BIN) $(RPMEM_CONNECT) $(RPMEM_ZYGOTE) $(RPMEM_EXAMPLE) $(RPMEM_TEST_BIN)

# The real-stack test and the per-call figures (a 2-node rxe topology; VM
# when the host has no rxe).
.PHONY: rpmem-real rpmem-bench
rpmem-real: $(RPMEMD_BIN) $(RPMEM_TEST_BIN) $(RPMEM_EXAMPLE) $(RPMEM_INSTALLED_T)
	ci/stack --stack=$(STACK) -- tests/rpmem/run
rpmem-bench: $(RPMEMD_BIN) $(RPMEM_TEST_BIN) $(RPMEM_EXAMPLE)
	ci/stack --stack=$(STACK) -- tests/rpmem/run --bench

# make install (when the stack's headers are here, as for the agent): PMDK's
# file names under PREFIX, so that `cc app.c -lrpmem` (or pkg-config librpmem)
# and dlopen("librpmem.so.1") find this library, and the client's default
# command "rpmemd" finds the daemon.
.PHONY: install-rpmem uninstall-rpmem
# $(call RPMEM_INSTALL,ROOT): the files under ROOT (DESTDIR + PREFIX), PREFIX in librpmem.pc.
define RPMEM_INSTALL
	install -d $(1)/lib/pkgconfig $(1)/include $(1)/bin
	install -m 755 $(RPMEM_SO) $(1)/lib/librpmem.so.1
	ln -sf librpmem.so.1 $(1)/lib/librpmem.so
	install -m 644 $(RPMEM_PUB_LIB) $(1)/lib/librpmem.a
	install -m 644 lib/rpmem/librpmem.h $(1)/include/librpmem.h
	install -m 755 $(RPMEMD_BIN) $(1)/bin/rpmemd
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/rpmem/librpmem.pc.in \
		> $(1)/lib/pkgconfig/librpmem.pc
endef
install-rpmem: $(RPMEM_SO) $(RPMEM_PUB_LIB) $(RPMEMD_BIN)
	$(call RPMEM_INSTALL,$(DESTDIR)$(PREFIX))
uninstall-rpmem:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,lib/librpmem.so.1 lib/librpmem.so lib/librpmem.a include/librpmem.h \
	      bin/rpmemd lib/pkgconfig/librpmem.pc)

# The same install, staged in the build (DESTDIR=$(RPMEM_STAGE), PREFIX=/usr),
# and a client built against it as PMDK's users build theirs (pkg-config
# librpmem, NEEDED librpmem.so.1): tests/rpmem/run runs it with the staged
# rpmemd on PATH.
RPMEM_STAGE        := $(BUILD)/rpmem-stage
RPMEM_INSTALLED_T  := $(BUILD)/tests/rpmem-installed-test
$(RPMEM_STAGE)/usr/lib/pkgconfig/librpmem.pc: PREFIX = /usr
$(RPMEM_STAGE)/usr/lib/pkgconfig/librpmem.pc: $(RPMEM_SO) $(RPMEM_PUB_LIB) $(RPMEMD_BIN) lib/rpmem/librpmem.h \
		lib/rpmem/librpmem.pc.in
	$(call RPMEM_INSTALL,$(RPMEM_STAGE)/usr)
$(RPMEM_INSTALLED_T): tests/rpmem/installed_test.c $(RPMEM_STAGE)/usr/lib/pkgconfig/librpmem.pc
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $$(PKG_CONFIG_PATH=$(RPMEM_STAGE)/usr/lib/pkgconfig \
		PKG_CONFIG_SYSROOT_DIR=$(RPMEM_STAGE) pkg-config --cflags --libs librpmem)
BINS_ALL += $(RPMEM_INSTALLED_T)

# A libpmemobj program of ours whose pool has a remote replica
# (tests/rpmem/pmemobj-run), when Debian's libpmemobj-dev is here (ci/deps
# --for=real).
ifneq ($(shell pkg-config --exists libpmemobj 2>/dev/null && echo yes),)
PMEMOBJ_TEST_BIN := $(BUILD)/tests/pmemobj-test
$(PMEMOBJ_TEST_BIN): $(BUILD)/tests/rpmem/pmemobj_test.o
	$(CC) $(LDFLAGS) -o $@ $^ $(shell pkg-config --libs libpmemobj)
BINS_ALL += $(PMEMOBJ_TEST_BIN)
endif

# tests/unit/test_lib_rpmem_zygote.c starts the zygote next to the unit tests' directory.
unit: $(RPMEM_ZYGOTE)
