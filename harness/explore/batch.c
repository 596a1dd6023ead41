/* batch.c — running batches of cases in process or through `rdmacheck run` (batch.h). */
#define _GNU_SOURCE /* getline */
#include "harness/explore/batch.h"
#include "harness/base/proc.h"
#include "harness/explore/agents.h"
#include "harness/base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const kind_names[] = { "model", "run", "agents" };

const char *ex_stack_kind_str(enum ex_stack_kind k)
{
	return (unsigned)k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : "?";
}

int ex_stack_kind_parse(const char *name, enum ex_stack_kind *out)
{
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (strcmp(name, kind_names[i]) == 0) {
			*out = (enum ex_stack_kind)i;
			return 0;
		}
	return -EINVAL;
}

/* ---------------------------------------------------------- in process -- */

int ex_stack_hold_eval(struct ex_stack *s, struct ex_eval **own)
{
	*own = NULL;
	if (s->ev)
		return 0;
	*own = s->ev = malloc(sizeof(*s->ev));
	return s->ev ? 0 : -ENOMEM;
}

void ex_stack_drop_eval(struct ex_stack *s, struct ex_eval *own)
{
	if (!own)
		return;
	s->ev = NULL;
	free(own);
}

struct ex_eval *ex_stack_eval(const struct ex_stack *s, struct ex_eval **own)
{
	*own = s->ev ? NULL : malloc(sizeof(**own));
	return s->ev ? s->ev : *own;
}

static int run_model(struct ex_stack *s, const struct ex_case *cases, size_t n, struct result *rs)
{
	struct ex_eval *own, *e = ex_stack_eval(s, &own);
	int rc = 0;

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		rc = ex_eval_run(&cases[i], &s->judge, &s->sim, s->ops, e);
		if (rc)
			break;
		rs[i] = e->r;
		e->r.detail = NULL; /* moved to rs[i] */
		s->steps += rs[i].steps_run;
		ex_eval_free(e);
	}
	free(own);
	return rc;
}

/*
 * The model engine simulating its profile with the profile's deviations
 * first: where the profile allows an outcome the generic profile does not,
 * that outcome is simulated (a stack showing its declared deviations).
 */
static int deviating_exec(void *be, const struct hcall *c, struct hres *r)
{
	struct hcall cc = *c;
	struct m_pred p, g;

	if (bm_predict(be, c, &p, &g) == 0) {
		cc.nprefer = 0;
		for (unsigned i = 0; i < p.n && cc.nprefer < SCN_OUTCOMES_MAX; i++)
			if (model_pred_find(&g, p.alt[i].out) < 0)
				cc.prefer[cc.nprefer++] = p.alt[i].out;
		for (size_t k = 0; k < c->nprefer && cc.nprefer < SCN_OUTCOMES_MAX; k++)
			cc.prefer[cc.nprefer++] = c->prefer[k];
	}
	return be_model_ops.exec(be, &cc, r);
}

const struct backend_ops *ex_deviating_ops(void)
{
	static struct backend_ops o; /* be_model_ops with exec wrapped; the same bytes every call */

	o = be_model_ops;
	o.name = "model-deviating";
	o.exec = deviating_exec;
	return &o;
}

/* ----------------------------------------------- through rdmacheck run -- */

/* Write cases as DIR/cNNNNN.scn; their paths into paths[i] (malloc'd). */
static int write_batch(struct ex_stack *s, const struct ex_case *cases, size_t n, char **paths)
{
	char dir[4200];

	snprintf(dir, sizeof(dir), "%s/b%05lu", s->workdir, s->batches);
	if (mkdir(s->workdir, 0755) && errno != EEXIST)
		return -errno;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		char *text;
		FILE *f;
		int rc;

		if (asprintf(&paths[i], "%s/c%05zu.scn", dir, i) < 0)
			return -ENOMEM;
		rc = ex_case_text(&cases[i], NULL, &text);
		if (rc)
			return rc;
		f = fopen(paths[i], "w");
		if (!f || fputs(text, f) < 0) {
			rc = -errno;
			free(text);
			if (f)
				fclose(f);
			return rc ? rc : -EIO;
		}
		free(text);
		if (fclose(f))
			return -errno;
	}
	return 0;
}

/* Undo the YAML double-quoted escapes of report.c in place. */
static void yaml_unquote(char *s)
{
	char *w = s;

	for (; *s && *s != '"'; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*w++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* The case index of a TAP test line "… - DIR/cNNNNN.scn: TITLE …", or -1. */
static long tap_index(const char *line)
{
	const char *c = strstr(line, ".scn");

	while (c && c > line && c[-1] >= '0' && c[-1] <= '9')
		c--;
	if (!c || c == line || c[-1] != 'c')
		return -1;
	return strtol(c, NULL, 10);
}

/* Read run's TAP report from f into rs (n cases). Returns the number of test lines read. */
static size_t read_tap(FILE *f, struct result *rs, size_t n)
{
	char *line = NULL;
	size_t cap = 0, got = 0;
	long cur = -1;
	int in_detail = 0;
	struct text det = { 0 };

	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "ok ", 3) == 0 || strncmp(line, "not ok ", 7) == 0) {
			const char *todo = strstr(line, " # TODO "), *skip = strstr(line, " # SKIP ");

			if (cur >= 0 && (size_t)cur < n && det.s)
				rs[cur].detail = text_take(&det);
			text_free(&det);
			in_detail = 0;
			cur = tap_index(line);
			if (cur < 0 || (size_t)cur >= n)
				continue;
			got++;
			rs[cur].reason[0] = '\0';
			rs[cur].v = line[0] == 'o' ? (skip ? V_SKIP : V_PASS) : todo ? V_XFAIL : V_FAIL;
			if (todo || skip)
				snprintf(rs[cur].reason, sizeof(rs[cur].reason), "%s", (todo ? todo : skip) + 8);
		} else if (cur >= 0 && (size_t)cur < n) {
			if (strncmp(line, "  verdict: ", 11) == 0) {
				verdict_parse(line + 11, &rs[cur].v);
			} else if (strncmp(line, "  message: \"", 12) == 0) {
				yaml_unquote(line + 12);
				snprintf(rs[cur].reason, sizeof(rs[cur].reason), "%s", line + 12);
			} else if (strncmp(line, "  line: ", 8) == 0) {
				rs[cur].line = (uint32_t)strtoul(line + 8, NULL, 10);
			} else if (strcmp(line, "  detail: |") == 0) {
				in_detail = 1;
			} else if (in_detail && strncmp(line, "    ", 4) == 0) {
				text_addf(&det, "%s\n", line + 4);
			} else {
				in_detail = 0;
			}
		}
	}
	if (cur >= 0 && (size_t)cur < n && det.s)
		rs[cur].detail = text_take(&det);
	text_free(&det);
	free(line);
	return got;
}

/* `rdmacheck run … -- paths[0..n)` with its TAP report into file tap; its pid into *pid. 0 or -errno. */
static int spawn_run(const struct ex_stack *s, char **paths, size_t n, const char *tap, pid_t *pid)
{
	char stack_opt[64], prof_opt[96], tmo_opt[32];
	char **argv = calloc(n + 8, sizeof(*argv));
	pid_t self;
	int fd;

	if (!argv)
		return -ENOMEM;
	snprintf(stack_opt, sizeof(stack_opt), "--stack=%s", s->stack);
	snprintf(prof_opt, sizeof(prof_opt), "--profile=%s", s->profile_arg);
	snprintf(tmo_opt, sizeof(tmo_opt), "--timeout=%d", s->step_s);
	argv[0] = (char *)s->exe;
	argv[1] = "run";
	argv[2] = stack_opt;
	argv[3] = prof_opt;
	argv[4] = tmo_opt;
	argv[5] = "--format=tap";
	argv[6] = "--";
	for (size_t i = 0; i < n; i++)
		argv[7 + i] = paths[i];
	fd = open(tap, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(argv);
		return -errno;
	}
	fflush(NULL);
	self = getpid();
	*pid = fork();
	if (*pid == 0) {
		if (proc_die_with(self, SIGTERM) == -ESRCH) /* a killed explore's runs stop (as after Ctrl-C) */
			_exit(127);
		dup2(fd, STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd);
	free(argv);
	return *pid < 0 ? -errno : 0;
}

/*
 * The batch through rdmacheck run: s->jobs runs side by side over
 * contiguous shares of it (each its own agents and topology; a share of a
 * VM stack would be a guest of its own: one job there), their reports read
 * back once all have ended.
 */
static int run_real(struct ex_stack *s, const struct ex_case *cases, size_t n, struct result *rs)
{
	size_t jobs = s->jobs > 1 && strcmp(s->stack, "vm") != 0 ? s->jobs : 1, got = 0;
	char **paths = calloc(n, sizeof(*paths)), tap[4300];
	pid_t pids[EX_JOBS_MAX] = { 0 };
	int rc, failed = 0;

	jobs = jobs > n ? n : jobs > EX_JOBS_MAX ? EX_JOBS_MAX : jobs;
	rc = paths ? write_batch(s, cases, n, paths) : -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		memset(&rs[i], 0, sizeof(rs[i]));
		rs[i].v = V_ERROR;
		snprintf(rs[i].reason, sizeof(rs[i].reason), "not reported by rdmacheck run");
	}
	for (size_t j = 0; !rc && j < jobs; j++) {
		size_t lo = n * j / jobs, hi = n * (j + 1) / jobs;

		snprintf(tap, sizeof(tap), "%s/b%05lu/tap%zu", s->workdir, s->batches, j);
		rc = spawn_run(s, paths + lo, hi - lo, tap, &pids[j]);
	}
	for (size_t j = 0; j < jobs; j++) {
		int st = 0;
		FILE *f;

		if (pids[j] <= 0)
			continue;
		while (waitpid(pids[j], &st, 0) < 0 && errno == EINTR)
			kill(pids[j], SIGTERM); /* explore interrupted: its runs stop too (run's own interrupt) */
		/* run: 0 nothing failed, 1 a scenario failed; anything else is the harness's trouble */
		failed |= !WIFEXITED(st) || WEXITSTATUS(st) > 1;
		snprintf(tap, sizeof(tap), "%s/b%05lu/tap%zu", s->workdir, s->batches, j);
		f = fopen(tap, "r");
		if (f) {
			got += read_tap(f, rs, n); /* indices are the batch's: each share fills its own */
			fclose(f);
		}
		unlink(tap);
	}
	if (!rc && failed && got < n)
		rc = -EIO;
	for (size_t i = 0; i < n; i++) /* the steps begun: all of a pass, up to the deciding one otherwise */
		s->steps += rs[i].v == V_PASS ? cases[i].n :
			    rs[i].line >= ex_case_first_line(&cases[i]) ? rs[i].line - ex_case_first_line(&cases[i]) + 1 : 0;
	for (size_t i = 0; paths && i < n; i++) {
		if (paths[i])
			unlink(paths[i]); /* the batch is judged: its files are done with */
		free(paths[i]);
	}
	if (paths && paths[0]) {
		char dir[4200];

		snprintf(dir, sizeof(dir), "%s/b%05lu", s->workdir, s->batches);
		rmdir(dir);
	}
	free(paths);
	return rc;
}

/* The batch on the kept agents, judged here: case by case, or side by side on the lanes (agents.h). */
static int run_agents(struct ex_stack *s, const struct ex_case *cases, size_t n, struct result *rs)
{
	return ex_agents_run_lanes(s->agents, s->lanes ? s->lanes : 1, cases, n, rs, &s->steps);
}

int ex_stack_run(struct ex_stack *s, const struct ex_case *cases, size_t n, struct result *rs)
{
	double t0 = now_s();
	int rc;

	if (!n)
		return 0;
	rc = s->kind == EX_STACK_MODEL ? run_model(s, cases, n, rs) :
	     s->kind == EX_STACK_AGENTS ? run_agents(s, cases, n, rs) : run_real(s, cases, n, rs);
	s->batches++;
	s->cases += n;
	s->secs += now_s() - t0;
	return rc;
}

int ex_stack_sig(const struct ex_stack *s, const struct ex_case *c, const struct result *r, struct ex_sig *sig)
{
	struct ex_eval *own, *e;
	struct scn_file *f;
	struct ex_case pre;
	int rc;

	/* The case parsed (for the deciding step's call), and the model's set at that step. */
	int parsed;

	rc = ex_case_parse(c, &f);
	if (rc)
		return rc;
	ex_sig_of(c, f, r, NULL, sig);
	parsed = f != NULL;
	scn_free(f);
	if (sig->cls == EX_NONE || sig->rules[0] || !parsed)
		return 0;
	e = ex_stack_eval(s, &own);
	if (!e)
		return -ENOMEM;
	rc = ex_case_copy(&pre, c);
	if (rc)
		goto out;
	pre.n = sig->step + 1 <= pre.n ? sig->step + 1 : pre.n;
	rc = ex_eval_run(&pre, &s->judge, &s->judge, NULL, e);
	if (rc == 0) {
		if (e->nseen == pre.n)
			snprintf(sig->rules, sizeof(sig->rules), "%s", e->step_rules);
		ex_eval_free(e);
	}
	ex_case_free(&pre);
out:
	free(own);
	return rc;
}

int ex_stack_deviation(const struct ex_stack *s, const struct ex_case *c, char *buf, size_t len)
{
	struct ex_eval *own, *e = ex_stack_eval(s, &own);
	const char *d;
	int rc;

	buf[0] = '\0';
	if (!e)
		return -ENOMEM;
	rc = ex_eval_run(c, &s->sim, &s->sim, ex_deviating_ops(), e);
	if (!rc) {
		d = e->r.v == V_XFAIL ? strstr(e->r.reason, "declared deviation ") : NULL;
		if (d)
			snprintf(buf, len, "%.*s", (int)strcspn(d + 19, " "), d + 19);
		ex_eval_free(e);
	}
	free(own);
	return rc;
}
