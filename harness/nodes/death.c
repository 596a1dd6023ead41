/* death.c — a scenario's verdict when its machine died (death.h). */
#include "harness/nodes/death.h"
#include "harness/nodes/console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void death_judge(struct result *r, const struct rec_state *s, int panicked, const char *who, const char *console,
		 char **tail)
{
	char excerpt[2048];

	console_excerpt(console, excerpt, sizeof(excerpt));
	free(r->detail);
	r->detail = strdup(excerpt[0] ? excerpt : "  (no console lines about it)\n");
	if (tail) {
		free(*tail);
		*tail = console_tail(console, 200); /* the results directory's console.txt */
	}
	r->line = s->step_line;
	if (panicked && s->step_crash) {
		r->v = V_XFAIL;
		snprintf(r->reason, sizeof(r->reason), "line %u: KERNEL_CRASH%s, declared deviation %.400s", s->step_line,
			 who, s->step_note);
		/* expected: one console line in the report, the whole dump in the results directory */
		excerpt[strcspn(excerpt, "\n")] = '\0';
		free(r->detail);
		r->detail = excerpt[0] ? strdup(excerpt) : NULL;
	} else {
		r->v = V_FAIL;
		snprintf(r->reason, sizeof(r->reason), "line %u: %s%s%s", s->step_line,
			 panicked ? "KERNEL_CRASH (the guest kernel died; no profile predicts it)" :
				    "TIMEOUT (the guest stopped answering)",
			 who, s->started ? "" : " before the scenario started");
	}
}
