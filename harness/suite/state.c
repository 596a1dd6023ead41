/*
 * state.c — the outer run's state as results arrive (suite.h): printing what
 * arrived in order, finishing what will not run, marking an interrupted run,
 * the records file of nodes run in this process. outer.c and on_nodes.c both
 * take these steps.
 */
#define _GNU_SOURCE /* strsignal */
#include "harness/suite/suite.h"
#include "harness/base/exits.h"
#include "harness/base/proc.h"
#include "harness/suite/interrupt.h"
#include "harness/suite/round.h"
#include "harness/suite/rundir.h"
#include "harness/report/report.h"
#include "harness/report/results.h"
#include "harness/report/tape_out.h"
#include "harness/run/tape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Print every result that arrived, in order. */
void outer_print_ready(struct outer *o)
{
	int on_model = o->a->stack && strcmp(o->a->stack, "model") == 0;

	while (o->printed < o->fl.n && o->st[o->printed].finished) {
		size_t k = o->printed;
		char *tape = tape_take(&o->rs[k]); /* what reality answered: for the results only */
		char *trace = results_take_trace(&o->rs[k], o->a->trace); /* every run traces: for the results */
		struct tape_head h;

		/* on the model every record's engine is the model: no head to read (a scenario's steps are in it) */
		if (tape && !o->ran_kernel[0] && !on_model && tape_head_read(tape, &h) == 0 &&
		    strcmp(h.engine, "model") != 0)
			snprintf(o->ran_kernel, sizeof(o->ran_kernel), "%s", h.kernel); /* what ran: outer_ran_on */

		if (o->res.jsonl && !o->st[k].not_run) {
			results_scenario(&o->res, k, &o->rs[k], trace, o->st[k].kernel, o->console_txt[k]);
			results_tape(&o->res, o->rs[k].file, tape, o->st[k].kernel);
		}
		free(trace);
		free(tape);
		report_progress(o->fl.n, o->fl.n, "");
		if (!o->st[k].not_run)
			report_result(stdout, o->a->format, o->shown++, &o->rs[k]);
		o->printed++;
	}
}

/*
 * After Ctrl-C or SIGTERM (interrupt.h): a scenario that was running is an
 * ERROR at the step it had reached; every other one without a result (the
 * held-back crash-predicted ones before the running one too) was not run.
 */
void outer_mark_interrupted(struct outer *o)
{
	int sig = interrupt_caught();

	if (!sig)
		return;
	for (size_t i = 0; i < o->fl.n; i++) {
		struct result *r = &o->rs[i];

		if (o->st[i].finished)
			continue;
		o->st[i].finished = 1;
		if (!o->st[i].started) {
			r->v = V_SKIP;
			snprintf(r->reason, sizeof(r->reason), "not run: the run was interrupted (%s)", strsignal(sig));
			o->st[i].not_run = 1;
			o->not_run++;
			continue;
		}
		r->v = V_ERROR;
		r->line = o->st[i].step_line;
		snprintf(r->reason, sizeof(r->reason), "line %u: interrupted (%s)", r->line, strsignal(sig));
	}
}

/* Every scenario from `from` on that has no result yet gets verdict v and reason. */
void outer_finish_rest(struct outer *o, size_t from, enum verdict v, const char *reason)
{
	for (size_t i = from; i < o->fl.n; i++)
		if (!o->st[i].finished) {
			o->rs[i].v = v;
			snprintf(o->rs[i].reason, sizeof(o->rs[i].reason), "%s", reason);
			o->st[i].finished = 1;
		}
}


/* o->root, build/run in it, and o->rec there (records-PID.txt). 0 or EXIT_INFRA. */
int outer_records_here(struct outer *o, char *dir, size_t len)
{
	if (cli_find_root(o->root, sizeof(o->root)) != 0 && !getcwd(o->root, sizeof(o->root)))
		return EXIT_INFRA;
	snprintf(dir, len, "%s/build", o->root);
	mkdir(dir, 0755);
	snprintf(dir, len, "%s/build/run", o->root);
	mkdir(dir, 0755);
	rundir_claim(dir);
	snprintf(o->rec, sizeof(o->rec), "%s/records-%ld.txt", dir, (long)getpid());
	return 0;
}
