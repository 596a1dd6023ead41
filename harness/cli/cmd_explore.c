/*
 * cmd_explore.c — `rdmacheck explore` (issue 13): options, the corpus'
 * coverage the generator starts from, the stack, the final summary. The
 * work is harness/explore/ (explore.h).
 */
#define _GNU_SOURCE /* realpath */
#include "harness/cli/cli.h"
#include "harness/base/proc.h"
#include "harness/corpus/load.h"
#include "harness/base/proc.h"
#include "harness/explore/agents.h"
#include "harness/explore/explore.h"
#include "harness/run/be_model.h"
#include "harness/suite/interrupt.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_explore[] =
	"usage: rdmacheck explore [--seed=N] [--steps=N | --time=DURATION] [--nodes=MIN-MAX] [--api=FAMILY,...]\n"
	"                         [--profile=NAME[:MAJ.MIN]] [--stack=auto|host|vm|model] [--sim=NAME]\n"
	"                         [--out=DIR] [--jobs=N] [--case-steps=N] [--batch=N] [--timeout=S]\n"
	"                         [--corpus=DIR] [--shrink-rounds=N] [--topology=FILE] [--until=N[:F[:S]]] [--print] [--progress]\n"
	"                         [--resume=DIR] [--exec=yes|no]\n"
	"Generate random multi-node scenarios from the model's state, run them on the stack judged\n"
	"as `run` judges, and shrink every divergence to the smallest scenario that still shows it,\n"
	"written to DIR/NNN-<rule>-<outcome>.scn.\n"
	"  --seed      the generator's seed (default 1); the same seed gives the same steps\n"
	"  --steps     stop after N generated steps (default 2000); --time: after DURATION (S, Ss, Mm, Hh)\n"
	"  --nodes     nodes per scenario (default 2-3)\n"
	"  --api       API families to draw from: verbs, rpma, dat, mrapi, rpmem; each\n"
	"              scenario draws from one of them (default verbs,rpma,dat)\n"
	"  --profile   the profile results are judged against (default rxe)\n"
	"  --stack     where to run: as for `run` (default auto; host: no step the --profile says\n"
	"              may kill the kernel is generated); vm: one guest booted for the whole run,\n"
	"              running only the nodes' agents (and the executor of --exec=yes), the cases\n"
	"              judged here (a guest that dies is booted again); model: the model in this process,\n"
	"              simulating --sim (default: the --profile) with its declared deviations shown\n"
	"              wherever they apply, so it diverges only where the two profiles differ\n"
	"  --sim       on a real stack: the profile (default rxe) whose model shrinks a divergence\n"
	"              first, in process, when it shows it too; the stack confirms the shrunk case\n"
	"  --out       where shrunk scenarios and the summary (summary.md, summary.html) go (default build/explore)\n"
	"  --resume    keep the cases that reached a new rule or allowed-set alternative in DIR, and\n"
	"              start from what DIR's files reach (a campaign resumed; same seed, same steps)\n"
	"  --jobs      runs of a batch side by side (default 1); on --stack=vm the batch's cases side\n"
	"              by side on N sets of agents in the one guest (N at most 4, N x the largest\n"
	"              node count at most 16), each case judged as alone\n"
	"  --case-steps steps per generated scenario (default 24); --batch: scenarios per run (default\n"
	"              1 on the model, 24 on a real stack: one guest boot each)\n"
	"  --corpus    the scenarios whose coverage weights the generator (default scenarios/)\n"
	"  --topology  run the cases in this process on the agents of these nodes (a file of\n"
	"              netns/topology up, or mode hosts: agents listening, RDMACHECK_AGENT_TOKEN),\n"
	"              kept from case to case; no step that may kill the kernel is generated\n"
	"  --shrink-rounds  rounds of shrinking on the stack per divergence (default 8 on a real\n"
	"              stack, each a run; the model's own pre-shrink is not bounded by it)\n"
	"  --until     stop once N distinct declared deviations of the stack's profile (its --sim\n"
	"              model shows them) were found, in cases of at least F families (default 1),\n"
	"              each shrunk to at most S steps (default: any); the budget (--steps,\n"
	"              --time) still bounds the run\n"
	"  --exec      on --stack=vm with --jobs=1: send whole cases to the guest's executor (yes), or\n"
	"              run them from here on the guest's agents, step by step (no, the default:\n"
	"              faster under TCG, docs/explore.md)\n"
	"  --print     print every generated scenario; --progress: a progress line per batch even\n"
	"              when stderr is no terminal\n"
	"Exit: 0 no divergence, 1 divergences found, 2 usage, 3 infrastructure.\n";

struct xargs {
	struct ex_opts o;
	const char *stack, *profile, *sim, *corpus, *api, *topology;
	int step_s, progress, exec;
	unsigned jobs;
	unsigned long batch;
};

/* N or MIN-MAX into lo, hi (within 1..max). 0 or -EINVAL. */
static int parse_range(const char *v, unsigned max, unsigned *lo, unsigned *hi)
{
	char *end;
	unsigned long a = strtoul(v, &end, 10), b = a;

	if (*end == '-')
		b = strtoul(end + 1, &end, 10);
	if (*end || a < 1 || b < a || b > max)
		return -EINVAL;
	*lo = (unsigned)a;
	*hi = (unsigned)b;
	return 0;
}

static int parse_ulong(const char *v, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(v, &end, 10);
	return *v && !*end && !errno ? 0 : -EINVAL;
}

/* --api=verbs,rpma,dat,mrapi,rpmem into bits 1 << enum m_family. 0 or -EINVAL (an unknown or empty family). */
static int parse_apis(const char *v, unsigned *out)
{
	static const struct { const char *name; enum m_family api; } fams[] = {
		{ "verbs", M_FAM_VERBS }, { "rpma", M_FAM_RPMA }, { "dat", M_FAM_DAT },
		{ "mrapi", M_FAM_MRAPI }, { "rpmem", M_FAM_RPMEM },
	};
	char buf[128], *save = NULL;

	*out = 0;
	snprintf(buf, sizeof(buf), "%s", v);
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t k = 0;

		while (k < sizeof(fams) / sizeof(fams[0]) && strcmp(w, fams[k].name) != 0)
			k++;
		if (k == sizeof(fams) / sizeof(fams[0]))
			return -EINVAL;
		*out |= 1u << fams[k].api;
	}
	return *out ? 0 : -EINVAL;
}

/* --until=N[:F[:S]] into o's goal: N 1..EX_FOUND_MAX, F 1..M_FAM_COUNT_ (default 1), S (default 0: any). */
static int parse_until(const char *v, struct ex_opts *o)
{
	char buf[48], *w[3] = { buf, NULL, NULL };
	unsigned long n[3] = { 0, 1, 0 };

	snprintf(buf, sizeof(buf), "%s", v);
	for (int k = 1; k < 3 && w[k - 1]; k++) {
		w[k] = strchr(w[k - 1], ':');
		if (w[k])
			*w[k]++ = '\0';
	}
	for (int k = 0; k < 3; k++)
		if (w[k] && (parse_ulong(w[k], &n[k]) || !n[k]))
			return -EINVAL;
	if (n[0] > EX_FOUND_MAX || n[1] > M_FAM_COUNT_ || n[2] > 256)
		return -EINVAL;
	o->goal_devs = (unsigned)n[0];
	o->goal_fams = (unsigned)n[1];
	o->goal_steps = (unsigned)n[2];
	return 0;
}

/* Options into *a; returns 0, 1 (help printed) or -EINVAL (message printed). */
static int parse_args(int argc, char **argv, struct xargs *a)
{
	for (int i = 1; i < argc; i++) {
		const char *v = strchr(argv[i], '=');
		unsigned long n = 0;
		int bad = 0;

		v = v ? v + 1 : "";
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage_explore, stdout);
			return 1;
		} else if (strncmp(argv[i], "--seed=", 7) == 0) {
			bad = parse_ulong(v, &n);
			a->o.seed = n;
		} else if (strncmp(argv[i], "--steps=", 8) == 0) {
			bad = parse_ulong(v, &a->o.steps);
		} else if (strncmp(argv[i], "--time=", 7) == 0) {
			char num[24], unit = *v ? v[strlen(v) - 1] : 0;
			unsigned long mul = unit == 'h' ? 3600 : unit == 'm' ? 60 : 1;

			snprintf(num, sizeof(num), "%.*s", (int)strlen(v) - (strchr("smh", unit) && unit ? 1 : 0), v);
			bad = parse_ulong(num, &n) || !n || n > 7 * 86400 / mul;
			a->o.time_s = (double)(n * mul);
			a->o.steps = 0;
		} else if (strncmp(argv[i], "--resume=", 9) == 0 && *v) {
			a->o.resume = v;
		} else if (strncmp(argv[i], "--nodes=", 8) == 0) {
			bad = parse_range(v, SCN_NODES_MAX, &a->o.gen.nodes_min, &a->o.gen.nodes_max) ||
			      a->o.gen.nodes_min < 2;
		} else if (strncmp(argv[i], "--api=", 6) == 0) {
			bad = parse_apis(v, &a->o.gen.apis);
			a->api = v;
		} else if (strncmp(argv[i], "--profile=", 10) == 0 && *v) {
			a->profile = v;
		} else if (strncmp(argv[i], "--sim=", 6) == 0 && *v) {
			a->sim = v;
		} else if (strncmp(argv[i], "--stack=", 8) == 0) {
			bad = strcmp(v, "auto") && strcmp(v, "host") && strcmp(v, "vm") && strcmp(v, "model");
			a->stack = v;
		} else if (strncmp(argv[i], "--out=", 6) == 0 && *v) {
			a->o.out = v;
		} else if (strncmp(argv[i], "--topology=", 11) == 0 && *v) {
			a->topology = v;
		} else if (strncmp(argv[i], "--corpus=", 9) == 0 && *v) {
			a->corpus = v;
		} else if (strncmp(argv[i], "--jobs=", 7) == 0) {
			bad = parse_ulong(v, &n) || !n || n > EX_JOBS_MAX;
			a->jobs = (unsigned)n;
		} else if (strncmp(argv[i], "--case-steps=", 13) == 0) {
			bad = parse_ulong(v, &n) || n < 2 || n > 256;
			a->o.gen.steps = (unsigned)n;
		} else if (strncmp(argv[i], "--batch=", 8) == 0) {
			bad = parse_ulong(v, &a->batch) || !a->batch || a->batch > 1000;
		} else if (strncmp(argv[i], "--shrink-rounds=", 16) == 0) {
			bad = parse_ulong(v, &n) || !n;
			a->o.shrink_rounds = (unsigned)n;
		} else if (strncmp(argv[i], "--until=", 8) == 0) {
			bad = parse_until(v, &a->o);
		} else if (strncmp(argv[i], "--exec=", 7) == 0) {
			bad = strcmp(v, "yes") && strcmp(v, "no");
			a->exec = strcmp(v, "yes") == 0;
		} else if (strcmp(argv[i], "--progress") == 0) {
			a->progress = 1;
		} else if (strcmp(argv[i], "--print") == 0) {
			a->o.print = stdout;
		} else if (strncmp(argv[i], "--timeout=", 10) == 0) {
			bad = parse_ulong(v, &n) || !n || n > 3600;
			a->step_s = (int)n;
		} else {
			bad = 1;
		}
		if (bad) {
			fprintf(stderr, "rdmacheck explore: bad option '%s'\n%s", argv[i], usage_explore);
			return -EINVAL;
		}
	}
	return 0;
}

/* This executable (exe) and the checkout above it (root), as `run` finds them (proc.h, cli.h). */
static int self_and_root(char *exe, size_t elen, char *root, size_t rlen)
{
	int rc = self_exe(exe, elen);

	return rc ? rc : cli_find_root(root, rlen);
}

/* Seed cov with the rules the corpus exercises (walked on the model as `coverage` does). */
static unsigned corpus_cov(const char *dir, struct ex_cov *cov)
{
	char *paths[] = { (char *)dir };
	struct filelist fl;
	struct scn_file **files;
	struct m_profile gen;

	memset(cov, 0, sizeof(*cov));
	if (access(dir, R_OK) || cli_load(1, paths, &fl, &files))
		return 0;
	m_profile_get("generic", 0, &gen);
	for (size_t i = 0; i < fl.n; i++) {
		struct run_opts ro = { .mode = RUN_LINT, .prof = gen, .engine_caps = cli_all_caps() };
		struct be_model eng;
		struct result r;

		if (bm_init(&eng, files[i], &gen) == 0 && run_scenario(files[i], &be_model_ops, &eng, &ro, &r) == 0) {
			ex_cov_add(cov, &r);
			result_clear(&r);
		}
		bm_free(&eng);
	}
	cli_unload(&fl, files);
	return ex_cov_reached(cov);
}

/* The rules the exploration (cov, after) reached that the corpus (before) does not. */
static void new_rules(const struct ex_cov *before, const struct ex_cov *after)
{
	unsigned n = 0;

	printf("explore: rules reached that the corpus does not:");
	for (unsigned r = 0; r < M_RULE_COUNT_; r++)
		if (after->hits[r] && !before->hits[r]) {
			printf(" %s", m_rule_info((enum m_rule)r)->id);
			n++;
		}
	printf("%s\n", n ? "" : " none");
}

static void summary(const struct xargs *a, const struct ex_summary *s, unsigned corpus_rules)
{
	const char *sim = a->sim ? a->sim : a->profile;

	printf("explore: %lu steps in %lu scenarios generated; the stack (%s) ran %lu steps in %.1f s "
	       "(%.0f real steps/s)\n",
	       s->steps, s->cases, a->stack, s->real_steps, s->stack_secs,
	       s->stack_secs > 0 ? (double)s->real_steps / s->stack_secs : 0.0);
	printf("explore: elapsed %.1f s exploring: the stack %.1f s, the generator and the judging of what it ran %.1f s\n",
	       s->secs, s->stack_secs, s->secs - s->stack_secs);
	printf("explore: %u distinct rules exercised (the corpus: %u)\n", s->rules, corpus_rules);
	printf("explore: %u divergences, %zu distinct signatures, each shrunk once (seen: its divergences):\n",
	       s->divergences, s->nfound);
	for (size_t i = 0; i < s->nfound; i++)
		printf("  %s  %s gave %s [%s], %zu -> %zu steps, seen %lu%s%s%s%s%s\n",
		       s->found[i].path[0] ? s->found[i].path : "-", s->found[i].sig.call, s->found[i].sig.real,
		       s->found[i].sig.rules, s->found[i].from, s->found[i].to, s->found[i].count,
		       s->found[i].deviation[0] ? " (" : "", s->found[i].deviation[0] ? sim : "",
		       s->found[i].deviation[0] ? ": declared deviation " : "", s->found[i].deviation,
		       s->found[i].deviation[0] ? ")" : "");
	if (s->over)
		printf("explore: and %lu divergences of %zu%s further distinct signatures, not shrunk (the table of %zu is full)\n",
		       s->over, s->nover, s->over_lost ? " or more" : "", s->nfound);
	if (a->o.goal_devs) {
		unsigned devs, fams;

		ex_goal_count(&a->o, s, &devs, &fams);
		printf("explore: goal %s: %u distinct declared deviations of %u families (--until=%u:%u:%u)\n",
		       ex_goal_met(&a->o, s) ? "reached" : "not reached", devs, fams, a->o.goal_devs, a->o.goal_fams,
		       a->o.goal_steps);
	}
	printf("explore: to reproduce: rdmacheck explore --seed=%llu --profile=%s --stack=%s --api=%s%s%s\n",
	       (unsigned long long)a->o.seed, a->profile, a->stack, a->api, a->sim ? " --sim=" : "", a->sim ? a->sim : "");
}

/* The kept agents of --stack=vm (its guest booted first, for the largest node count) or --topology. */
struct kept {
	struct ex_guest g;
	struct topo t;
	struct ex_agents ag[EX_GUEST_LANES_MAX]; /* a lane each (--jobs on the guest); ag[0] alone otherwise */
	unsigned lanes;
	int guest;
};

/* Ready k for a's cases, judged against prof: 0, or EXIT_INFRA with the reason said. */
static int kept_up(const struct xargs *a, const char *root, const struct m_profile *prof, struct kept *k)
{
	const struct topo *t = &k->t;
	char err[600];
	int rc;

	if (a->topology) {
		if (topo_load(a->topology, &k->t, err, sizeof(err))) {
			fprintf(stderr, "rdmacheck explore: --topology=%s: %s\n", a->topology, err);
			return EXIT_INFRA;
		}
	} else {
		fprintf(stderr, "rdmacheck explore: booting one guest for %u nodes (ci/vm, ci/vm-agents)\n",
			a->o.gen.nodes_max);
		k->g.stop = interrupt_caught; /* Ctrl-C, SIGTERM: the guest stopped, its directory removed */
		k->lanes = a->jobs > 1 ? a->jobs : 1;
		if (ex_guest_start(&k->g, root, a->o.gen.nodes_max, k->lanes, err, sizeof(err))) {
			fprintf(stderr, "rdmacheck explore: %s\n", err);
			ex_guest_stop(&k->g);
			return EXIT_INFRA;
		}
		k->guest = 1;
		t = &k->g.t;
	}
	if (t->n < a->o.gen.nodes_max) {
		fprintf(stderr, "rdmacheck explore: the topology has %zu nodes, --nodes asks up to %u\n", t->n,
			a->o.gen.nodes_max);
		return EXIT_INFRA;
	}
	if (!k->lanes)
		k->lanes = 1; /* --topology: its one set of agents */
	for (unsigned l = 0; l < k->lanes; l++) {
		rc = ex_agents_open(&k->ag[l], k->guest ? (l ? &k->g.lane[l] : &k->g.t) : t, k->guest ? &k->g : NULL,
				    prof, a->step_s * 1000, k->guest);
		if (rc) {
			fprintf(stderr, "rdmacheck explore: the nodes' agents%s: %s\n", l ? " of a lane" : "",
				rc == -ENOMEM ? strerror(ENOMEM) : k->ag[l].err);
			while (l--)
				ex_agents_close(&k->ag[l]);
			return EXIT_INFRA;
		}
	}
	if (k->guest && k->lanes == 1 && a->exec && ex_agents_exec(&k->ag[0])) { /* whole cases to the guest's executor */
		fprintf(stderr, "rdmacheck explore: %s\n", k->ag[0].err);
		ex_agents_close(&k->ag[0]);
		return EXIT_INFRA;
	}
	return 0;
}

int cmd_explore(int argc, char **argv)
{
	struct xargs a = { .o = { .seed = 1, .steps = 2000, .gen = { .nodes_min = 2, .nodes_max = 3, .steps = 24,
								   .proposals = 6,
								   .apis = 1u << M_FAM_VERBS | 1u << M_FAM_RPMA |
									   1u << M_FAM_DAT } },
			   .stack = "auto", .profile = "rxe", .api = "verbs,rpma,dat", .step_s = 10, .exec = 0 };
	char root[PATH_MAX], exe[PATH_MAX], work[PATH_MAX + 64], out[PATH_MAX + 32], corpus[PATH_MAX + 32];
	struct ex_stack st = { 0 };
	struct kept *k = NULL;
	struct ex_summary *sum;
	struct ex_cov cov, corpus_only, run = { 0 }; /* run: the generated cases' rules alone (ex_gen_opts.run) */
	unsigned corpus_rules;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc > 0 ? 0 : EXIT_USAGE;
	st.kind = strcmp(a.stack, "model") == 0 ? EX_STACK_MODEL :
		  a.topology || strcmp(a.stack, "vm") == 0 ? EX_STACK_AGENTS : EX_STACK_RUN;
	if (a.topology && st.kind == EX_STACK_MODEL) {
		fprintf(stderr, "rdmacheck explore: --topology runs on real nodes, not with --stack=model\n");
		return EXIT_USAGE;
	}
	if (!a.sim && st.kind != EX_STACK_MODEL)
		a.sim = "rxe"; /* the real stack is rxe: its profile's model shrinks first */
	if (cli_profile(a.profile, &st.judge) || (a.sim && cli_profile(a.sim, &st.sim)))
		return EXIT_USAGE;
	if (!a.sim)
		st.sim = st.judge;
	else if (st.kind == EX_STACK_MODEL)
		st.ops = ex_deviating_ops(); /* a stand-in for the stack: its declared deviations shown */
	if (self_and_root(exe, sizeof(exe), root, sizeof(root))) {
		fprintf(stderr, "rdmacheck explore: cannot find the checkout (ci/stack) above this executable\n");
		return EXIT_INFRA;
	}
	snprintf(work, sizeof(work), "%s/build/explore-work-%ld", root, (long)getpid());
	snprintf(out, sizeof(out), "%s/build/explore", root);
	snprintf(corpus, sizeof(corpus), "%s/scenarios", root);
	a.o.gen.judge = st.judge;
	/* This host's own kernel: never a step the profile says may kill it (a VM's guest is disposable). */
	a.o.gen.no_crash = strcmp(a.stack, "host") == 0 || a.topology;
	/* A declared hang costs the step timeout on the stack each time, a crash a boot: one step a deviation a run. */
	a.o.gen.costly_cases = 1;
	a.o.stack_name = a.topology ? "topology" : a.stack;
	a.o.out = a.o.out ? a.o.out : out;
	a.o.progress = isatty(STDERR_FILENO) ? 1 : a.progress ? 2 : 0;
	a.o.stop = interrupt_caught; /* the batch in flight ends, then the guest and the files are cleaned up */
	interrupt_install();
	/* a run per batch, or a guest whose death costs a boot: shrink on the model first */
	st.costly = st.kind == EX_STACK_RUN || (st.kind == EX_STACK_AGENTS && !a.topology);
	st.exe = exe;
	st.stack = a.stack;
	st.profile_arg = a.profile;
	st.workdir = work;
	st.step_s = a.step_s;
	st.jobs = a.jobs;
	a.o.batch = a.batch ? (unsigned)a.batch : st.kind == EX_STACK_MODEL ? 1 : 24;
	if (!a.o.shrink_rounds && st.costly)
		a.o.shrink_rounds = 8; /* each round on the stack costs a run (a guest boot on a VM) */
	corpus_rules = corpus_cov(a.corpus ? a.corpus : corpus, &cov);
	corpus_only = cov;
	sum = calloc(1, sizeof(*sum));
	if (!sum)
		return EXIT_INFRA;
	if (st.kind == EX_STACK_AGENTS) {
		k = calloc(1, sizeof(*k));
		rc = k ? kept_up(&a, root, &st.judge, k) : EXIT_INFRA;
		if (rc) {
			if (k && k->guest)
				ex_guest_stop(&k->g);
			free(k);
			free(sum);
			return interrupt_caught() ? EXIT_INTERRUPTED : rc;
		}
		st.agents = k->ag;
		st.lanes = k->lanes;
	}
	a.o.gen.run = &run;
	rc = ex_explore(&a.o, &st, &cov, sum);
	if (k) {
		if (k->guest)
			printf("explore: one guest for %u nodes, booted %u time%s (%lu after it died)\n", k->g.nodes,
			       k->g.boots, k->g.boots == 1 ? "" : "s", k->ag[0].reboots);
		unsigned started = 0, kept = 0, dropped = 0; /* the lanes' figures summed */
		double hello = 0, run = 0, reset = 0;
		unsigned long waits = 0;

		for (unsigned l = 0; l < k->lanes; l++) {
			started += k->ag[l].pool.started;
			kept += k->ag[l].pool.kept;
			dropped += k->ag[l].pool.dropped;
			hello += k->ag[l].secs_start;
			run += k->ag[l].secs_run;
			reset += k->ag[l].secs_stop;
			waits += k->ag[l].waits;
		}
		printf("explore: agents started %u, kept across cases %u, stopped and started again %u\n",
		       started, kept, dropped);
		printf("explore: the cases' time on the agents: %.2f s their hello, %.2f s the steps and the end judged, "
		       "%.2f s their reset; %lu answers waited for\n", hello, run, reset, waits);
		if (k->ag[0].exec)
			printf("explore: the executor in the guest answered %lu cases (%.2f s waiting for its answers, "
			       "%.2f s judging its records here); %lu cases ran on the agents instead (%lu of them lost by "
			       "the executor)\n", k->ag[0].x.cases, k->ag[0].x.secs_wait, k->ag[0].x.secs_judge,
			       k->ag[0].xagents, k->ag[0].x.lost);
		if (k->lanes > 1)
			printf("explore: %u lanes of agents in the guest, their times summed; %lu cases run again alone "
			       "after an ERROR\n", k->lanes, k->ag[0].reruns);
		for (unsigned l = 0; l < k->lanes; l++)
			ex_agents_close(&k->ag[l]);
		if (k->guest)
			ex_guest_stop(&k->g);
		free(k);
	}
	rmdir(work); /* the batches' files are removed as they are judged */
	if (rc)
		fprintf(stderr, "rdmacheck explore: %s\n", strerror(-rc));
	summary(&a, sum, corpus_rules);
	new_rules(&corpus_only, &cov);
	rc = interrupt_caught() ? EXIT_INTERRUPTED : rc ? EXIT_INFRA : sum->nfound ? EXIT_FAILED : 0;
	free(sum);
	return rc;
}
