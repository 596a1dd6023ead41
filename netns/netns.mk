# netns/: the reader of topology description files (libtopo.a).
TOPO_SRCS := $(sort $(wildcard netns/*.c))
TOPO_LIB  := $(BUILD)/libtopo.a
ifneq ($(TOPO_SRCS),)
$(TOPO_LIB): $(TOPO_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL += $(TOPO_LIB)
endif
