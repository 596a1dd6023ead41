/* agents.c — explore's cases on kept agents, judged in this process (agents.h). */
#include "harness/explore/agents.h"
#include "harness/corpus/crash_pred.h"
#include "harness/nodes/death.h"
#include "harness/run/resolve.h"
#include "harness/run/steptime.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ex_agents_open(struct ex_agents *a, const struct topo *t, struct ex_guest *guest, const struct m_profile *prof,
		   int step_ms, int allow_crash)
{
	memset(a, 0, sizeof(*a));
	a->t = t;
	a->guest = guest;
	a->prof = *prof;
	a->step_ms = step_ms;
	a->allow_crash = allow_crash;
	a->st = calloc(1, sizeof(*a->st));
	if (!a->st)
		return -ENOMEM;
	stack_pool_init(&a->pool, t, step_ms);
	a->pool.keep_remote = 1; /* one session per agent for the whole exploration */
	a->boot = guest ? guest->boots : 0;
	if (stack_pool_prestart(&a->pool, (unsigned)t->n)) {
		snprintf(a->err, sizeof(a->err), "%s", a->pool.why);
		stack_pool_close(&a->pool);
		free(a->st);
		a->st = NULL;
		return -EIO;
	}
	return 0;
}

void ex_agents_close(struct ex_agents *a)
{
	if (!a->st)
		return;
	if (a->exec)
		ex_exec_link_close(&a->x);
	stack_pool_close(&a->pool);
	free(a->st);
	a->st = NULL;
}

/* What the runner began last (on_step's context). */
struct track {
	struct rec_state s;         /* the step, whether the profile says it kills the kernel, the deviation */
	const struct m_profile *prof;
};

static void on_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		    const struct m_pred *prof, int crash)
{
	struct track *t = ctx;

	(void)gen;
	t->s.started = 1;
	t->s.step_line = f->steps[si].line;
	t->s.step_crash = crash;
	t->s.step_note[0] = '\0';
	if (crash) /* as the inner runner's records say it */
		run_crash_note(t->prof, prof, t->s.step_note, sizeof(t->s.step_note));
}

/* One run of f on the kept agents with options o into *r. 0 or -ENOMEM. */
static int run_once(struct ex_agents *a, const struct scn_file *f, const struct run_opts *o, struct result *r)
{
	double t0 = now_s(), t1;
	int rc;

	if (stack_pool_start(&a->pool, a->st, f)) {
		memset(r, 0, sizeof(*r));
		r->v = V_ERROR;
		snprintf(r->reason, sizeof(r->reason), "cannot start the agents: %.440s", a->st->err);
		a->secs_start += now_s() - t0;
		return 0;
	}
	t1 = now_s();
	a->secs_start += t1 - t0;
	rc = run_scenario(f, &stack_ops, a->st, o, r);
	a->waits += a->st->waits;
	t0 = now_s();
	a->secs_run += t0 - t1;
	if (!rc && r->v == V_ERROR && a->st->err[0] && !strstr(r->reason, a->st->err)) {
		size_t l = strlen(r->reason);

		snprintf(r->reason + l, sizeof(r->reason) - l, " (%.300s)", a->st->err);
	}
	stack_pool_stop(&a->pool, a->st); /* reset: each agent confirms it holds nothing */
	a->secs_stop += now_s() - t0;
	return rc;
}

/*
 * After an ERROR with a guest: when the guest has ended (or its agents no
 * longer answer: it is stopped), judge r as `run` judges a VM that died
 * under the scenario and boot the guest again. When the guest runs and its
 * kernel refuses or closes the connection to an agent at once (no wait for
 * it: the guest's network answers), the agent ended, not the guest: r stays
 * the ERROR of an agent that died (as `run` judges one) and the guest is
 * booted again for fresh agents. 0, or -EIO (no new boot).
 */
static int reopen(struct ex_agents *a);

static int guest_died(struct ex_agents *a, const struct rec_state *s, struct result *r)
{
	int rc, agent_gone = 0;

	if (!ex_guest_ended(a->guest, 0)) {
		/* Running: when its agents answer again, the ERROR was the case's own (judged as run judges it) */
		rc = stack_pool_prestart(&a->pool, (unsigned)a->t->n);
		if (rc == 0)
			return 0;
		if (!ex_guest_ended(a->guest, 5000)) { /* ci/vm sees a panic within a second of QEMU's end */
			agent_gone = rc != -ETIMEDOUT; /* answered, but by no agent */
			ex_guest_kill(a->guest);
			a->guest->status = agent_gone ? -1 : 121; /* its agents do not answer: it hung */
		}
	}
	if (agent_gone) {
		size_t l = strlen(r->reason);

		snprintf(r->reason + l, sizeof(r->reason) - l, " (the agent ended while the guest ran: %.200s)",
			 a->pool.why);
		fprintf(stderr, "rdmacheck explore: an agent ended while the guest ran (boot %u): booting it again\n",
			a->guest->boots);
	} else {
		death_judge(r, s, a->guest->status == 120, "", a->guest->console, NULL);
		fprintf(stderr, "rdmacheck explore: the guest ended under a case (boot %u, ci/vm exit %d): booting it "
			"again\n", a->guest->boots, a->guest->status);
	}
	stack_pool_close(&a->pool); /* the agents died with their guest, or are restarted by its next boot */
	if (ex_guest_reboot(a->guest, a->err, sizeof(a->err)))
		return -EIO;
	a->reboots++;
	return reopen(a);
}

/* Run case c into *r; with judge_death, an ERROR with a guest is looked at as guest_died says. */
static int run_case(struct ex_agents *a, const struct ex_case *c, struct result *r, int judge_death)
{
	struct track t = { .prof = &a->prof };
	struct run_opts o = { .mode = RUN_REAL, .prof = a->prof, .allow_crash = a->allow_crash, .on_step = on_step,
			      .ctx = &t };
	struct cli_pred pred;
	struct scn_file *f;
	int rc = ex_case_parse(c, &f);

	memset(r, 0, sizeof(*r));
	if (rc)
		return rc;
	if (!f) {
		r->v = V_ERROR;
		snprintf(r->reason, sizeof(r->reason), "the generated case does not parse");
		return 0;
	}
	cli_predict(f, &a->prof, NULL, &pred);
	o.ahead = pred.crash_si < 0; /* a step sent ahead runs even when an earlier one ends the scenario */
	if (run_unsupported(f, a->prof.caps, r->reason, sizeof(r->reason))) {
		r->v = V_SKIP;
	} else if (!a->allow_crash && cli_crash_reason(f, &pred, r->reason, sizeof(r->reason))) {
		r->v = V_SKIP; /* a kernel that must survive: not one step of it runs */
	} else {
		rc = run_once(a, f, &o, r);
		if (!rc && r->rerun) { /* run-ahead could not judge a step exactly: again without it */
			result_clear(r);
			o.ahead = 0;
			memset(&t.s, 0, sizeof(t.s));
			rc = run_once(a, f, &o, r);
		}
		if (!rc && r->v == V_ERROR && a->guest && judge_death)
			rc = guest_died(a, &t.s, r);
	}
	scn_free(f);
	return rc;
}

int ex_agents_run(struct ex_agents *a, const struct ex_case *c, struct result *r)
{
	return run_case(a, c, r, 1);
}

/* ------------------------------------------------------------- lanes -- */

/* a's pool again, on the guest's current boot: every agent dialled. 0 or -EIO with a->err. */
static int reopen(struct ex_agents *a)
{
	stack_pool_close(&a->pool);
	stack_pool_init(&a->pool, a->t, a->step_ms);
	a->pool.keep_remote = 1;
	a->boot = a->guest ? a->guest->boots : 0;
	if (stack_pool_prestart(&a->pool, (unsigned)a->t->n)) {
		snprintf(a->err, sizeof(a->err), "after the guest's boot %u: %.400s", a->boot, a->pool.why);
		return -EIO;
	}
	return 0;
}

/* A case not run: the ERROR that says why. */
static void not_run(struct result *r, const char *why)
{
	memset(r, 0, sizeof(*r));
	r->v = V_ERROR;
	snprintf(r->reason, sizeof(r->reason), "not run: %.480s", why);
}

/* One lane's share of a batch, run in a thread of its own. */
struct share {
	struct ex_agents *a;
	const struct ex_case *cases;
	struct result *rs;
	const unsigned char *alone; /* the cases left for after the lanes (may_kill) */
	size_t lo, hi;
	int rc;
	pthread_t tid;
};

static void *share_main(void *arg)
{
	struct share *sh = arg;

	for (size_t i = sh->lo; i < sh->hi; i++) {
		if (sh->alone[i])
			continue;
		if (!sh->rc)
			sh->rc = run_case(sh->a, &sh->cases[i], &sh->rs[i], 0);
		if (sh->rc)
			not_run(&sh->rs[i], strerror(-sh->rc));
	}
	return NULL;
}

/*
 * The process's memos the runs fill as they first ask (the call table's
 * lookups, each call's kind, whether steps are timed): filled here, before
 * the lanes' threads, so that those only read them.
 */
static void memos_filled(void)
{
	for (size_t i = 0; i < scn_call_count(); i++) {
		scn_call_get(i);
		resolve_call_kind(i);
	}
	steptime_now();
}

/*
 * After the lanes: whether the guest still runs and every lane's agents
 * answer; if not, the guest is booted again and every lane dialled anew.
 * 0, or -EIO with a[0].err.
 */
static int lanes_healthy(struct ex_agents *a, unsigned nl)
{
	int ok = !ex_guest_ended(a[0].guest, 0);

	for (unsigned l = 0; l < nl && ok; l++)
		ok = stack_pool_prestart(&a[l].pool, (unsigned)a[l].t->n) == 0;
	if (ok)
		return 0;
	fprintf(stderr, "rdmacheck explore: the guest or an agent ended under the lanes (boot %u): booting it again, "
		"the cases that ended in an ERROR run again alone\n", a[0].guest->boots);
	if (ex_guest_reboot(a[0].guest, a[0].err, sizeof(a[0].err)))
		return -EIO;
	a[0].reboots++;
	return 0;
}

/* ------------------------------------------------------ the executor -- */

/* The executor of the guest's current boot, dialled. 0 or -EIO with a->err. */
static int exec_dial(struct ex_agents *a)
{
	char token[PATH_MAX + 48];

	ex_exec_link_close(&a->x);
	snprintf(token, sizeof(token), "%s/token", a->guest->dir);
	a->xboot = a->guest->boots;
	if (ex_exec_link_open(&a->x, a->guest->exec, token)) {
		snprintf(a->err, sizeof(a->err), "%s", a->x.err);
		return -EIO;
	}
	return 0;
}

int ex_agents_exec(struct ex_agents *a)
{
	if (!a->guest || !a->guest->exec[0]) {
		snprintf(a->err, sizeof(a->err), "no executor in this guest");
		return -EINVAL;
	}
	a->x.fd = -1;
	a->exec = 1;
	return exec_dial(a);
}

/*
 * After the executor was lost: the guest booted again when it ended or
 * hung (its agents do not answer), the pool and the executor dialled anew.
 * 0 or -EIO with a->err.
 */
static int exec_recover(struct ex_agents *a)
{
	fprintf(stderr, "rdmacheck explore: %s (boot %u)\n", a->x.err, a->guest->boots);
	if (!ex_guest_ended(a->guest, 5000) && !stack_pool_prestart(&a->pool, (unsigned)a->t->n) && !exec_dial(a))
		return 0; /* the guest and its agents answer, the executor again: the cases run on the agents */
	fprintf(stderr, "rdmacheck explore: the guest ended, hung or lost its executor (ci/vm exit %d): booting it "
		"again; the cases in flight run on its agents\n", a->guest->status);
	stack_pool_close(&a->pool);
	if (ex_guest_reboot(a->guest, a->err, sizeof(a->err)))
		return -EIO;
	a->reboots++;
	return reopen(a) ? -EIO : exec_dial(a);
}

/* Whether case c goes to the executor: 1 with its text and file, 0 judged here or for the agents (*r set: judged). */
static int exec_route(struct ex_agents *a, const struct ex_case *c, struct result *r, char **text, struct scn_file **f,
		      int *agents)
{
	struct scn_diags d;
	struct cli_pred pred;
	int rc;

	*agents = 0;
	*f = NULL;
	memset(r, 0, sizeof(*r));
	rc = ex_case_text(c, NULL, text);
	if (rc)
		return rc;
	rc = scn_parse_text(*text, strlen(*text), "explore.scn", f, &d);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		r->v = V_ERROR;
		snprintf(r->reason, sizeof(r->reason), "the generated case does not parse");
		return 0;
	}
	cli_predict(*f, &a->prof, NULL, &pred);
	if (run_unsupported(*f, a->prof.caps, r->reason, sizeof(r->reason)))
		r->v = V_SKIP;
	else if (!a->allow_crash && cli_crash_reason(*f, &pred, r->reason, sizeof(r->reason)))
		r->v = V_SKIP; /* a kernel that must survive: not one step of it runs */
	else if (pred.crash_si >= 0)
		*agents = 1; /* a death under it is judged step by step on the agents */
	else
		return 1;
	return 0;
}

/* The batch cases[0..n) on the executor and the agents (ex_agents_exec). */
static int run_exec(struct ex_agents *a, const struct ex_case *cases, size_t n, struct result *rs, unsigned long *steps)
{
	char **texts = calloc(n ? n : 1, sizeof(*texts));
	struct scn_file **files = calloc(n ? n : 1, sizeof(*files));
	size_t *idx = calloc(n ? n : 1, sizeof(*idx)), m = 0, routed = 0;
	uint8_t *agents = calloc(n ? n : 1, 1), *lost = calloc(n ? n : 1, 1);
	struct result *xr = calloc(n ? n : 1, sizeof(*xr));
	int rc = texts && files && idx && agents && lost && xr ? 0 : -ENOMEM;

	for (; routed < n && !rc; routed++) {
		char *text = NULL;
		struct scn_file *f = NULL;
		int ag = 0, to = exec_route(a, &cases[routed], &rs[routed], &text, &f, &ag);

		if (to < 0) {
			rc = to;
			break;
		}
		if (to) {
			texts[m] = text;
			files[m] = f;
			idx[m++] = routed;
			continue;
		}
		agents[routed] = (uint8_t)ag;
		free(text);
		scn_free(f);
	}
	if (!rc && m && a->xboot != a->guest->boots)
		rc = exec_dial(a);
	if (!rc && m) {
		double t0 = now_s();

		rc = ex_exec_run(&a->x, &a->prof, a->allow_crash, a->step_ms, texts, files, m, xr, lost);
		a->secs_run += now_s() - t0;
	}
	for (size_t k = 0; k < m; k++) {
		if (rc)
			not_run(&rs[idx[k]], a->err[0] ? a->err : strerror(-rc));
		else if (lost[k])
			agents[idx[k]] = 1; /* run again on the agents, where a death under it is judged */
		else
			rs[idx[k]] = xr[k];
	}
	if (!rc && m && lost[m - 1])
		rc = exec_recover(a);
	for (size_t i = 0; i < n; i++) {
		if (i >= routed) {
			not_run(&rs[i], strerror(-rc));
		} else if (agents[i]) {
			if (!rc && a->boot != a->guest->boots)
				rc = reopen(a);
			if (!rc) {
				rc = run_case(a, &cases[i], &rs[i], 1);
				a->xagents++;
			}
			if (rc)
				not_run(&rs[i], a->err[0] ? a->err : strerror(-rc));
		}
		*steps += rs[i].steps_run;
	}
	for (size_t k = 0; k < m; k++) {
		free(texts[k]);
		scn_free(files[k]);
	}
	free(texts);
	free(files);
	free(idx);
	free(agents);
	free(lost);
	free(xr);
	return rc;
}

/* Does the model say a step of c may kill the kernel under a's profile (1; 0 not, or c does not parse)? */
static int may_kill(const struct ex_agents *a, const struct ex_case *c)
{
	struct cli_pred pred;
	struct scn_file *f;

	if (ex_case_parse(c, &f) || !f)
		return 0;
	cli_predict(f, &a->prof, NULL, &pred);
	scn_free(f);
	return pred.crash_si >= 0;
}

int ex_agents_run_lanes(struct ex_agents *a, unsigned nl, const struct ex_case *cases, size_t n, struct result *rs,
			unsigned long *steps)
{
	struct share sh[EX_GUEST_LANES_MAX] = { 0 };
	size_t lanes = nl < 1 ? 1 : nl > EX_GUEST_LANES_MAX ? EX_GUEST_LANES_MAX : nl, errors = 0;
	unsigned char *alone = NULL;
	int rc = 0, par = 0;

	lanes = lanes > n ? (n ? n : 1) : lanes;
	if (lanes == 1 && a[0].exec)
		return run_exec(&a[0], cases, n, rs, steps);
	for (size_t l = 0; l < lanes && !rc; l++) /* a lane still on the agents of a boot gone: dialled anew */
		if (a[l].guest && a[l].boot != a[l].guest->boots)
			rc = reopen(&a[l]);
	if (lanes > 1 && !rc && !(alone = calloc(n, 1)))
		rc = -ENOMEM;
	if (lanes > 1 && !rc) {
		size_t started = 0;

		par = 1;
		/* A case that may kill the kernel runs after the lanes, alone: its death would take
		 * the other lanes' cases in flight with it (each then run again alone). */
		for (size_t i = 0; i < n; i++)
			alone[i] = (unsigned char)may_kill(&a[0], &cases[i]);
		memos_filled();
		for (size_t l = 0; l < lanes; l++) {
			sh[l] = (struct share){ .a = &a[l], .cases = cases, .rs = rs, .alone = alone,
						.lo = n * l / lanes, .hi = n * (l + 1) / lanes };
			if (pthread_create(&sh[l].tid, NULL, share_main, &sh[l])) {
				share_main(&sh[l]); /* no thread: its share runs here */
				continue;
			}
			started |= (size_t)1 << l;
		}
		for (size_t l = 0; l < lanes; l++) {
			if (started & ((size_t)1 << l))
				pthread_join(sh[l].tid, NULL);
			rc = rc ? rc : sh[l].rc;
		}
		for (size_t i = 0; i < n; i++)
			errors += !alone[i] && rs[i].v == V_ERROR;
		if (!rc && errors && a[0].guest)
			rc = lanes_healthy(a, (unsigned)lanes);
	}
	for (size_t i = 0; i < n; i++) {
		int later = par && alone[i], again = par && !later && rs[i].v == V_ERROR && a[0].guest;

		if (par && !again && !later) {
			*steps += rs[i].steps_run;
			continue;
		}
		if (again) {
			result_clear(&rs[i]);
			a[0].reruns++;
		}
		if (!rc && a[0].guest && a[0].boot != a[0].guest->boots)
			rc = reopen(&a[0]);
		if (!rc)
			rc = run_case(&a[0], &cases[i], &rs[i], 1);
		if (rc) { /* the stack cannot run: every case left is the harness's error */
			not_run(&rs[i], a[0].err);
			continue;
		}
		*steps += rs[i].steps_run;
	}
	free(alone);
	return rc;
}
