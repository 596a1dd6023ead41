# model/: the reference model, a static library with no I/O.
MODEL_SRCS := $(sort $(wildcard model/*.c model/*/*.c))
MODEL_LIB  := $(BUILD)/libmodel.a
ifneq ($(MODEL_SRCS),)
$(MODEL_LIB): $(MODEL_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL += $(MODEL_LIB)
endif
