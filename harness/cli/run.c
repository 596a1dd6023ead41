/*
 * run.c — `rdmacheck run`: its command line (run_args.c) into a request for
 * the suite: the inner run inside the VM (harness/suite/inner.c) or the outer
 * run (harness/suite/outer.c).
 */
#include "harness/cli/cli.h"
#include "harness/cli/run_args.h"
#include "harness/suite/inner.h"
#include "harness/nodes/vms.h"
#include "harness/suite/interrupt.h"

int cli_run(int argc, char **argv)
{
	struct run_args a = { .stack = "auto", .profile = "rxe", .format = REPORT_TEXT, .step_s = 10, .vm_mem = VMS_MEM_MB };
	int first = run_parse(argc, argv, &a);

	if (first < 0)
		return first == -1 ? 0 : EXIT_USAGE;
	a.sel.stop = interrupt_caught; /* --repeat=N's loading ends at Ctrl-C too */
	if (a.inner)
		return cli_run_inner(&a);
	return suite_run(&a, argc - first, argv + first);
}
