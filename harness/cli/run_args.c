/* run_args.c — `rdmacheck run`'s options (run_args.h): the one place they are read. */
#include "harness/cli/run_args.h"
#include "harness/corpus/held.h"
#include "harness/corpus/load.h"
#include "harness/base/exits.h"
#include "harness/suite/jobs.h"
#include "harness/base/opts.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage_run[] =
	"usage: rdmacheck run [--stack=auto|host|vm|vms|model] [--format=text|tap] [--junit=FILE]\n"
	"                     [--timeout=S] [--profile=NAME[:MAJ.MIN]] [--trace] [--results=DIR]\n"
	"                     [--fresh-agents] [--jobs=N] [--vm-cpus=N] [--times=RESULTS]\n"
	"                     [-k PATTERN] [--exclude=PATTERN] [--rule=ID] [--rerun-failed[=DIR]]\n"
	"                     [--shard=I/N [--shard-times=RESULTS]] [--repeat=N] [--shuffle [--seed=N]]\n"
	"                     [--list] [--device=DEV | --topology=FILE] PATH...\n"
	"Run scenarios (files, or directories searched for *.scn) on the real stack and on the\n"
	"reference model side by side, and report every step where reality leaves the allowed set.\n"
	"  --stack    auto (default): this host if its rxe works in network namespaces, else\n"
	"             the disposable VM (ci/stack); host, vm: insist; model: the model alone;\n"
	"             vms: a disposable VM per node (ci/vms), each node a kernel of its own\n"
	"  --vm-mem   MiB of memory per node guest of --stack=vms (default 128)\n"
	"  --vm-cpus  virtual CPUs of the disposable VM's guest (--stack=vm; default 1: on\n"
	"             2 host CPUs under TCG the corpus took as long on one as on two, with\n"
	"             a fifth less CPU time); a side round's guest has one\n"
	"  --format   text (default): a line per scenario, details for failures; tap: TAP 13\n"
	"  --junit    also write JUnit XML to FILE\n"
	"  --timeout  seconds one step may take (default 10)\n"
	"  --profile  the stack's declared deviations (default rxe, the running kernel's version)\n"
	"  --trace    print every step with what reality answered (writing and debugging scenarios)\n"
	"  --results  the results directory (default build/results/UTC-PID, build/results/latest)\n"
	"  --fresh-agents  start every scenario's node agents anew (default: an agent is kept\n"
	"             for the next scenario when, reset, it confirms it holds nothing)\n"
	"  --jobs     scenarios run at once on the real stack through ci/stack (host, vm;\n"
	"             default 2, at most 16): N streams on one topology, each with its own\n"
	"             agents; librpma, uDAPL, librpmem and MRAPI scenarios one at a time, those\n"
	"             the model says may kill the kernel alone and last (in the VM the first in\n"
	"             the main guest, each other in a guest of its own beside it, two at a\n"
	"             time, unless --jobs=1); reported in list order\n"
	"  --times    the durations an earlier run recorded (its results directory or\n"
	"             results.jsonl; default the checkout's record, " HELD_RECORD "):\n"
	"             in the VM, with --jobs above 1, a scenario recorded at " HELD_MIN_TEXT " s or more\n"
	"             (the corpus's verbs/290, 50 s asleep in the kernel) starts first, in\n"
	"             a guest of its own beside the main one, as does one that registers\n"
	"             more than " HELD_PIN_TEXT " MiB (its guest gets the memory)\n"
	"Selection (each option may be given several times; PATTERN is a glob, or else a\n"
	"substring, matched against the path and the title):\n"
	"  -k PATTERN          only scenarios matching one of the patterns\n"
	"  --exclude=PATTERN   not the scenarios matching it\n"
	"  --rule=ID           only scenarios that cite or exercise rule ID (rdmacheck explain ID)\n"
	"  --rerun-failed[=DIR]  only what failed (FAIL, ERROR) in the last run's results\n"
	"                      (build/results/latest/results.jsonl; RDMACHECK_RESULTS=DIR for DIR/latest),\n"
	"                      or in DIR: a results directory (--results=DIR, a CI artifact), its\n"
	"                      results.jsonl, or a directory with a latest link\n"
	"  --shard=I/N         job I's share of N parallel jobs: every job given the same paths\n"
	"                      takes a disjoint, balanced share, together the whole selection\n"
	"                      (under GitLab's parallel: jobs, CI_NODE_INDEX/CI_NODE_TOTAL);\n"
	"                      join the shards' results with rdmacheck merge\n"
	"  --shard-times=RESULTS  balance the shares by the durations an earlier run recorded\n"
	"                      (its results directory or results.jsonl; the same for every job)\n"
	"  --repeat=N          every scenario N times\n"
	"  --shuffle           in a random order; --seed=N makes it that order again (printed)\n"
	"  --list              print what would run, with titles, and stop\n"
	"On a device this host already has (not the nodes the harness builds):\n"
	"  --device=DEV        one node on RDMA device DEV (rxe0, siw0, mlx5_0); its driver\n"
	"                      chooses the profile (rxe; any other: the specification)\n"
	"On nodes that exist already (agents listening on other kernels: mode hosts):\n"
	"  --topology=FILE     the nodes as netns/topo.h describes them; each agent= is dialled\n"
	"                      with the secret in the file RDMACHECK_AGENT_TOKEN names\n"
	"Verdicts: pass, fail, xfail (a declared deviation of the profile), skip, error.\n"
	"Exit: 0 nothing failed, 1 a scenario failed, 2 usage error or a file that does not parse\n"
	"(or cannot be read; reported as an ERROR, the rest runs), 3 infrastructure error,\n"
	"77 every scenario skipped (nothing ran), 130 interrupted (Ctrl-C, SIGTERM).\n";

enum {
	OPT_STACK = 256, OPT_FORMAT, OPT_JUNIT, OPT_TIMEOUT, OPT_PROFILE, OPT_TRACE, OPT_VERSION,
	OPT_INNER, OPT_RECORDS, OPT_INNER_LIST, OPT_BASE, OPT_CAREFUL, OPT_DEFER, OPT_FRESH,
	OPT_EXCLUDE, OPT_RULE, OPT_RERUN, OPT_REPEAT, OPT_SHUFFLE, OPT_SEED, OPT_LIST, OPT_DEVICE, OPT_RESULTS,
	OPT_SHARD, OPT_SHARD_TIMES, OPT_TOPOLOGY, OPT_VM_MEM, OPT_VM_CPUS, OPT_JOBS, OPT_TIMES,
};

/* Append v to one of the selection's lists; 0 or -E2BIG. */
static int sel_push(const char **list, size_t *n, const char *v)
{
	if (*n >= SEL_MAX)
		return -E2BIG;
	list[(*n)++] = v;
	return 0;
}

/* (run_args.h) */
int run_parse(int argc, char **argv, struct run_args *a)
{
	static const struct option lopts[] = {
		{ "stack", required_argument, NULL, OPT_STACK },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "fresh-agents", no_argument, NULL, OPT_FRESH },
		{ "exclude", required_argument, NULL, OPT_EXCLUDE },
		{ "rule", required_argument, NULL, OPT_RULE },
		{ "rerun-failed", optional_argument, NULL, OPT_RERUN },
		{ "repeat", required_argument, NULL, OPT_REPEAT },
		{ "shuffle", no_argument, NULL, OPT_SHUFFLE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "results", required_argument, NULL, OPT_RESULTS },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "shard-times", required_argument, NULL, OPT_SHARD_TIMES },
		{ "topology", required_argument, NULL, OPT_TOPOLOGY },
		{ "vm-mem", required_argument, NULL, OPT_VM_MEM },
		{ "vm-cpus", required_argument, NULL, OPT_VM_CPUS },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "times", required_argument, NULL, OPT_TIMES },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		/* between the outer run and the inner one (not for users) */
		{ "inner", no_argument, NULL, OPT_INNER },
		{ "records", required_argument, NULL, OPT_RECORDS },
		{ "inner-list", required_argument, NULL, OPT_INNER_LIST },
		{ "base", required_argument, NULL, OPT_BASE },
		{ "careful", required_argument, NULL, OPT_CAREFUL },
		{ "defer-crashes", no_argument, NULL, OPT_DEFER },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = cli_getopt(argc, argv, "run", "hk:", lopts)) != -1) {
		const char *v = optarg;
		char *end;
		long s;

		switch (c) {
		case 'h':
			fputs(usage_run, stdout);
			return -1;
		case OPT_VERSION:
			cli_version();
			return -1;
		case OPT_STACK: {
			static const char *const stacks[] = { "auto", "host", "vm", "vms", "model" };
			const char *near = cli_closest(v, stacks, sizeof(stacks) / sizeof(stacks[0]));
			size_t k = 0;

			while (k < sizeof(stacks) / sizeof(stacks[0]) && strcmp(v, stacks[k]))
				k++;
			if (k == sizeof(stacks) / sizeof(stacks[0])) { /* a line, not the whole usage */
				fprintf(stderr, "rdmacheck run: unknown stack '%s'%s%s%s; one of auto|host|vm|vms|model\n", v,
					near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
				return -2;
			}
			a->stack = stacks[k];
			break;
		}
		case OPT_FORMAT:
			if (report_format_parse(v, &a->format))
				goto bad;
			break;
		case OPT_JUNIT:
			if (!*v)
				goto bad;
			a->junit = v;
			break;
		case OPT_TIMEOUT:
			if (cli_int_in(v, 1, 3600, &a->step_s))
				goto bad;
			break;
		case OPT_PROFILE:
			if (!*v)
				goto bad;
			a->profile = v;
			a->profile_set = 1;
			break;
		case OPT_TRACE:
			a->trace = 1;
			break;
		case OPT_FRESH:
			a->fresh_agents = 1;
			break;
		case OPT_RESULTS:
			if (!*v)
				goto bad;
			a->results = v;
			break;
		case OPT_INNER:
			a->inner = 1;
			break;
		case OPT_RECORDS:
			a->records = v;
			break;
		case OPT_INNER_LIST:
			a->list = v;
			break;
		case OPT_BASE:
			a->base = strtoul(v, NULL, 10);
			break;
		case OPT_CAREFUL:
			a->careful = v;
			break;
		case OPT_DEFER:
			a->defer_crashes = 1;
			break;
		case 'k':
		case OPT_EXCLUDE:
			if (!*v || (c == 'k' ? sel_push(a->sel.keep, &a->sel.nkeep, v) :
					       sel_push(a->sel.drop, &a->sel.ndrop, v))) {
				fprintf(stderr, "rdmacheck run: an empty pattern, or more than %d of them\n", SEL_MAX);
				return -2;
			}
			break;
		case OPT_RULE:
			if (a->sel.nrule >= SEL_MAX || cli_rule("rdmacheck run --rule", v, &a->sel.rule[a->sel.nrule]))
				return -2;
			a->sel.nrule++;
			break;
		case OPT_RERUN:
			a->rerun_failed = 1;
			a->sel.rerun_from = optarg;
			break;
		case OPT_REPEAT:
			s = strtol(v, &end, 10);
			if (*end || s < 1 || s > SEL_REPEAT_MAX) {
				fprintf(stderr, "rdmacheck run: --repeat is 1 to %d\n", SEL_REPEAT_MAX);
				return -2;
			}
			a->sel.repeat = (unsigned)s;
			break;
		case OPT_SHUFFLE:
			a->sel.shuffle = 1;
			break;
		case OPT_SEED:
			errno = 0;
			a->sel.seed = strtoull(v, &end, 10);
			if (*end || !*v || errno || *v == '-') {
				fprintf(stderr, "rdmacheck run: --seed is a number\n");
				return -2;
			}
			a->seeded = 1;
			break;
		case OPT_LIST:
			a->show_list = 1;
			break;
		case OPT_SHARD:
			if (shard_parse(v, &a->sel.shard)) {
				fprintf(stderr, "rdmacheck run: --shard takes I/N, job I of N (1 <= I <= N <= %d), not '%s'\n",
					SHARD_MAX, v);
				return -2;
			}
			a->shard_set = 1;
			break;
		case OPT_SHARD_TIMES:
			if (!*v)
				goto bad;
			a->sel.times_path = v;
			break;
		case OPT_TIMES:
			if (!*v)
				goto bad;
			a->times = v;
			break;
		case OPT_VM_MEM:
			if (cli_int_in(v, 64, 65536, &a->vm_mem))
				goto bad;
			break;
		case OPT_VM_CPUS:
			if (cli_int_in(v, 1, 64, &a->vm_cpus))
				goto bad;
			break;
		case OPT_JOBS:
			if (cli_int_in(v, 1, JOBS_MAX, &a->jobs))
				goto bad;
			break;
		case OPT_TOPOLOGY:
			if (!*v)
				goto bad;
			a->topology = v;
			break;
		case OPT_DEVICE:
			if (!*v)
				goto bad_device;
			a->device = v;
			break;
		default:
			return -2;
		}
	}
	if (a->device && strcmp(a->stack, "auto") != 0 && strcmp(a->stack, "host") != 0) {
		fprintf(stderr, "rdmacheck run: --device runs on this host's device: not with --stack=%s\n", a->stack);
		return -2;
	}
	if (a->topology && (a->device || (strcmp(a->stack, "auto") != 0 && strcmp(a->stack, "host") != 0))) {
		fprintf(stderr, "rdmacheck run: --topology runs on the nodes it names: not with %s\n",
			a->device ? "--device" : "--stack=vm, vms or model");
		return -2;
	}
	if (!a->shard_set && !a->inner) {
		char err[256];
		int e = shard_env(&a->sel.shard, err, sizeof(err));

		if (e < 0) {
			fprintf(stderr, "rdmacheck run: %s\n", err);
			return -2;
		}
	}
	if (a->sel.shuffle && !a->seeded && !a->inner) { /* a seed to print, so the order can be had again */
		a->sel.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
		a->sel.seed %= 1000000000ull;
	}
	return optind;
bad_device:
	fprintf(stderr, "rdmacheck run: --device needs a device name (rxe0, siw0, mlx5_0)\n");
	return -2;
bad:
	for (size_t i = 0; lopts[i].name; i++)
		if (lopts[i].val == c)
			fprintf(stderr, "rdmacheck run: bad value '%s' for --%s\n%s", optarg, lopts[i].name, usage_run);
	return -2;
}
