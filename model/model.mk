# model/: the reference model, a static library with no I/O.
#   model.h                        the public API (each family's part via families.h)
#   families.def ops.def state.def the registry: families, their operations, their state
#   family.c                       the registry's table; model_init/predict/apply/query
#   verbs/ rpma/ dat/ mrapi/        one folder per family (verbs: what the others run on)
#   state.c names.c profile.c rules.c rules.def query.c   shared by every family
MODEL_SRCS := $(sort $(wildcard model/*.c model/*/*.c))
MODEL_LIB  := $(BUILD)/libmodel.a
ifneq ($(MODEL_SRCS),)
$(MODEL_LIB): $(MODEL_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
LIBS_ALL += $(MODEL_LIB)
endif
