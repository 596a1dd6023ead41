/*
 * batch.h — where `rdmacheck explore` runs its cases: a batch of cases in,
 * one judged result per case out, judged as `rdmacheck run` judges.
 *
 *  - in process (EX_STACK_MODEL): the model engine simulating a profile
 *    (`--stack=model`; the sim profile is the judge's unless told), or any
 *    backend wrapping it (a deliberately broken model, for the shrinker's
 *    tests). No root, no RDMA.
 *  - the real stack (EX_STACK_RUN): the batch is written as .scn files and
 *    `rdmacheck run --stack=S --profile=P --format=tap FILE…` runs them —
 *    the very command a user runs, with its host/VM choice, its agents, its
 *    kernel-panic detection (KERNEL_CRASH, a fresh guest, the run goes on)
 *    and hang detection (TIMEOUT). Its TAP report is read back into results.
 *    One batch, one guest boot: explore and the shrinker batch their cases.
 *  - kept agents (EX_STACK_AGENTS, agents.h): each case parsed and judged in
 *    this process on the real stack's engine, over agents kept from one case
 *    to the next (a host's topology, agents on other kernels, or the one
 *    guest of --stack=vm, booted once and again only when it dies; with
 *    --jobs=N there, N lanes of agents in it, a batch's cases side by side).
 */
#ifndef RDMACHECK_EXPLORE_STACK_H
#define RDMACHECK_EXPLORE_STACK_H

#include "harness/explore/case.h"

enum ex_stack_kind { EX_STACK_MODEL, EX_STACK_RUN, EX_STACK_AGENTS };

struct ex_agents;

#define EX_JOBS_MAX 16

/* "model", "run", "agents"; "?" out of range. */
const char *ex_stack_kind_str(enum ex_stack_kind k);
/* The kind named name; 0 or -EINVAL. */
int ex_stack_kind_parse(const char *name, enum ex_stack_kind *out);

struct ex_stack {
	enum ex_stack_kind kind;
	struct m_profile judge;            /* the profile results are judged against */
	/* EX_STACK_MODEL */
	struct m_profile sim;              /* the profile the model engine simulates */
	const struct backend_ops *ops;     /* NULL: be_model_ops; else a wrapper of it */
	/* EX_STACK_RUN */
	const char *exe;                   /* build/rdmacheck */
	const char *stack;                 /* --stack= for run: auto, host, vm */
	const char *profile_arg;           /* --profile= for run, as the user wrote it */
	const char *workdir;               /* where batch files go */
	int step_s;                        /* --timeout= */
	int costly;                        /* each run costs much (a guest boot): fewer cases a round */
	unsigned jobs;                     /* runs side by side over shares of a batch (not on a VM) */
	/* EX_STACK_AGENTS */
	struct ex_agents *agents;          /* the kept agents cases run on (agents.h): lanes of them */
	unsigned lanes;                    /* how many (0 or 1: one, case by case) */
	/* counters */
	unsigned long cases, steps, batches;
	double secs;                       /* time spent running cases */
	struct ex_eval *ev;                /* the buffer of its runs in this process (NULL: each call
	                                      allocates one; ex_stack_hold_eval) */
};

/*
 * Give s an evaluation buffer (s->ev) for the runs in this process its calls
 * make, unless it has one. *own receives what to pass to ex_stack_drop_eval
 * (NULL if s had one). 0 or -ENOMEM.
 */
int ex_stack_hold_eval(struct ex_stack *s, struct ex_eval **own);
void ex_stack_drop_eval(struct ex_stack *s, struct ex_eval *own);
/* s->ev, or a new buffer into *own (free it after; NULL: out of memory). */
struct ex_eval *ex_stack_eval(const struct ex_stack *s, struct ex_eval **own);

/*
 * The model engine with its profile's deviations first: where the profile it
 * simulates allows an outcome the generic profile does not, that outcome is
 * simulated — a stand-in for a stack that shows every declared deviation
 * (be_model_ops picks the first allowed alternative, often the generic one).
 */
const struct backend_ops *ex_deviating_ops(void);

/*
 * Run cases[0..n) and fill rs[i] (release each with result_clear).
 * Returns 0, or a negative errno when the stack could not run at all
 * (-EIO: rdmacheck run failed as infrastructure or its report was cut).
 */
int ex_stack_run(struct ex_stack *s, const struct ex_case *cases, size_t n, struct result *rs);

/*
 * The signature of result r of case c. A result without an allowed set in
 * its detail (a kernel crash, a hang) takes the rule IDs of the model's
 * set for the step it stopped at. 0 or -ENOMEM.
 */
int ex_stack_sig(const struct ex_stack *s, const struct ex_case *c, const struct result *r, struct ex_sig *sig);

/*
 * The declared deviation of s->sim (the profile the stack is taken to be)
 * that accounts for case c: c run on the model simulating that profile with
 * its deviations shown (ex_deviating_ops) and judged against it gives an
 * XFAIL naming one. Its rule ID goes to buf ("" none). 0 or -ENOMEM.
 */
int ex_stack_deviation(const struct ex_stack *s, const struct ex_case *c, char *buf, size_t len);

#endif
