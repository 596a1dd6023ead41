/* rejudge.c — `rdmacheck rejudge`: its options into a request for harness/suite/rejudge.c. */
#include "harness/cli/cli.h"
#include "harness/base/opts.h"
#include "harness/suite/rejudge.h"

#include <stdio.h>

static const char usage_rejudge[] =
	"usage: rdmacheck rejudge [--verbose] [--root=DIR] [--profile=NAME] [--no-record-ok] RESULTS...\n"
	"Judge a recorded run again against the model of today, without the stack: each\n"
	"scenario of RESULTS (a results directory or its results.jsonl) that holds a record\n"
	"of reality (its \"tape\") runs on an engine answering from that record, with the live\n"
	"run's profile, kernel and settings. Prints every file whose verdict is not the live\n"
	"run's (flip), whose record does not hold what today's run asks (short: the live run\n"
	"stopped earlier or did not look; mismatch: another call than the file's) or that\n"
	"has no record (no-record: a machine died under it), then the counts.\n"
	"  --verbose       a line for every file\n"
	"  --root=DIR      the record's scenario paths are relative to DIR\n"
	"  --profile=NAME  judge the recorded reality against profile NAME (generic, rxe, ...)\n"
	"                  at the record's kernel version instead of the live run's: a file\n"
	"                  whose verdict that changes is listed as a flip\n"
	"  --no-record-ok  files without a record are listed, not a failure\n"
	"Exit: 0 every file judged as live, 1 one was not, 2 usage or unreadable input.\n";

int cmd_rejudge(int argc, char **argv)
{
	static const struct option lopts[] = { { "verbose", no_argument, NULL, 'v' },
					       { "root", required_argument, NULL, 'r' },
					       { "no-record-ok", no_argument, NULL, 'n' },
					       { "profile", required_argument, NULL, 'p' },
					       { "help", no_argument, NULL, 'h' },
					       { 0, 0, 0, 0 } };
	struct rj_opts o = { 0 };
	struct rj_sum s;
	int c, no_record_ok = 0;
	size_t bad;

	while ((c = cli_getopt(argc, argv, "rejudge", "hv", lopts)) != -1) {
		switch (c) {
		case 'v': o.verbose = 1; break;
		case 'r': o.root = optarg; break;
		case 'n': no_record_ok = 1; break;
		case 'p': o.profile = optarg; break;
		case 'h': fputs(usage_rejudge, stdout); return 0;
		default: fputs(usage_rejudge, stderr); return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs(usage_rejudge, stderr);
		return EXIT_USAGE;
	}
	if (rejudge((size_t)(argc - optind), argv + optind, &o, stdout, &s))
		return EXIT_USAGE;
	bad = s.n[RJ_FLIP] + s.n[RJ_SHORT] + s.n[RJ_MISMATCH] + s.n[RJ_UNREADABLE] + (no_record_ok ? 0 : s.n[RJ_NORECORD]);
	printf("%zu %s: %zu the live verdict (%zu of them with another reason text), %zu flipped, %zu short, "
	       "%zu mismatched, %zu without a record, %zu unreadable (%.1f s)\n",
	       s.files, cli_plural(s.files, "file", "files"), s.n[RJ_SAME], s.reason_differs, s.n[RJ_FLIP], s.n[RJ_SHORT],
	       s.n[RJ_MISMATCH], s.n[RJ_NORECORD], s.n[RJ_UNREADABLE], s.secs);
	return bad ? EXIT_FAILED : 0;
}
