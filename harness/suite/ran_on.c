/*
 * ran_on.c — what a run of `rdmacheck run` ran on, as its reports name it
 * (suite.h: outer_ran_on, outer_stack_choice): the stack that turned out,
 * not the --stack asked for ("auto").
 */
#include "harness/suite/suite.h"

#include <stdio.h>
#include <string.h>

#define CHOICE_MARK "ci/stack: real stack: "

void outer_stack_choice(const char *log, char *where, size_t len)
{
	FILE *f = fopen(log, "r");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, CHOICE_MARK, strlen(CHOICE_MARK)) == 0) {
			line[strcspn(line, "\r\n")] = '\0';
			snprintf(where, len, "%s", line + strlen(CHOICE_MARK));
			break;
		}
	fclose(f);
}

void outer_ran_on(const struct outer *o, const struct m_profile *prof, char *buf, size_t len)
{
	const char *stack = o->a->stack ? o->a->stack : "auto";
	char kernel[sizeof(o->ran_kernel) + 16] = "";

	if (o->ran_kernel[0])
		snprintf(kernel, sizeof(kernel), ", Linux %s", o->ran_kernel);
	if (strcmp(stack, "model") == 0)
		snprintf(buf, len, "the model simulating profile %s %u.%u", prof->name, prof->kernel / 1000,
			 prof->kernel % 1000);
	else if (o->a->device)
		snprintf(buf, len, "device %s on this host%s", o->a->device, kernel);
	else if (o->a->topology)
		snprintf(buf, len, "the nodes of %s", o->a->topology);
	else if (strcmp(stack, "vms") == 0)
		snprintf(buf, len, "a VM per node (ci/vms)");
	else if (strcmp(o->ran_where, "vm") == 0)
		snprintf(buf, len, "soft-RoCE (rxe) in a VM (ci/vm%s)", kernel);
	else if (strcmp(o->ran_where, "host") == 0)
		snprintf(buf, len, "soft-RoCE (rxe) on this host (%s)", kernel[0] ? kernel + 2 : "its kernel");
	else
		snprintf(buf, len, "no real stack (ci/stack found none: stack.log says why)");
}
