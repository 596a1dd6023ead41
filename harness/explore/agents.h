/*
 * agents.h — explore's cases on kept agents (issue 31): the case is parsed
 * in this process (no file, no `rdmacheck run`), run on the real stack's
 * engine (stack.h) over agents kept from one case to the next (pool.h: a
 * reset each confirms holds nothing, as `run` keeps them) and judged here as
 * `run` judges a file (run_scenario, run-ahead when no step may kill the
 * kernel, the same again without it when run-ahead could not judge a step).
 *
 * The agents are those of a topology: a host's own (forked into their
 * namespaces) or agents listening on other kernels (mode hosts), among them
 * the one guest of explore --stack=vm (guest.h). With a guest, a case whose
 * agents vanish is the guest's death: its kernel panicked (KERNEL_CRASH) or
 * it stopped answering (TIMEOUT), judged as `run` judges a VM that died
 * (death.h: a declared crash is an xfail), and the guest is booted again for
 * the next case.
 *
 * Lanes (explore --jobs=N on a VM, guest.h): N struct ex_agents on the one
 * guest, each on its own agents of the same nodes; a batch's cases are
 * shared out among them in contiguous shares and run side by side, one
 * thread a lane, each case judged as alone. A case that ends in an ERROR
 * there (an agent or the guest gone, whichever lane) is run again after
 * them, alone, on lane 0 with the guest's death judged as above (the guest
 * booted again first when it ended or an agent no longer answers), so that
 * a death is the case's that causes it, as with one lane.
 */
#ifndef RDMACHECK_EXPLORE_AGENTS_H
#define RDMACHECK_EXPLORE_AGENTS_H

#include "harness/explore/case.h"
#include "harness/explore/exec.h"
#include "harness/explore/guest.h"
#include "harness/run/pool.h"

struct ex_agents {
	const struct topo *t;       /* the nodes (the guest's g->t with a guest) */
	struct ex_guest *guest;     /* NULL: agents not ours to boot again */
	struct m_profile prof;      /* the profile results are judged against */
	int step_ms;
	int allow_crash;            /* run steps the profile says may kill the kernel (a guest's) */
	struct stack_pool pool;
	struct stack *st;
	unsigned long reboots;      /* the guest booted again after it ended */
	double secs_start, secs_run, secs_stop; /* where a case's time went: its agents' hello, its
	                                           steps and end judged (run_scenario), their reset */
	unsigned long waits;        /* answers the steps waited for (stack.h: round trips to the agents) */
	unsigned boot;              /* with a guest: the boot whose agents the pool holds */
	unsigned long reruns;       /* lane 0: cases of the lanes run again alone after an ERROR */
	struct ex_exec_link x;      /* with a guest that runs one (ex_agents_exec): its executor */
	int exec;                   /* 1: one lane's cases go to the executor, not step by step to the agents */
	unsigned xboot;             /* the boot the executor was dialled on */
	unsigned long xagents;      /* cases run on the agents instead: a step may kill the kernel, or the
	                               executor was lost under them */
	char err[512];              /* the last infrastructure error */
};

/*
 * Ready a for cases on topology t (a guest's topology when guest is not
 * NULL; both must outlive a), judged against prof: every agent started or
 * dialled once (stack_pool_prestart). 0 or -errno with a->err.
 */
int ex_agents_open(struct ex_agents *a, const struct topo *t, struct ex_guest *guest, const struct m_profile *prof,
		   int step_ms, int allow_crash);

/*
 * Run case c and judge it into *r (release with result_clear). The steps
 * the stack began are r->steps_run. Returns 0 with any verdict (an agent
 * that could not start is an ERROR), or -ENOMEM, or -EIO when the guest
 * could not be booted again (a->err says why).
 */
int ex_agents_run(struct ex_agents *a, const struct ex_case *c, struct result *r);

/*
 * Run cases[0..n) on the nl lanes a[0..nl) (each opened by ex_agents_open on
 * its own agents of the same nodes, a[0] with the guest, if any: the others
 * with it too) side by side, one thread a lane, and judge each into rs[i]
 * as ex_agents_run does; steps begun into *steps. nl 1: ex_agents_run case
 * by case. Returns 0, or -ENOMEM, or -EIO as ex_agents_run (a[0].err); the
 * cases not run then are ERRORs saying so.
 */
int ex_agents_run_lanes(struct ex_agents *a, unsigned nl, const struct ex_case *cases, size_t n, struct result *rs,
			unsigned long *steps);

/*
 * Run a's cases (one lane) on the guest's executor (exec.h: the guest's
 * g->exec), dialled now and again after each boot: a batch's cases that no
 * step of may kill the kernel go to it, several in flight, each record
 * judged here; the others, and those whose answer never came (the executor
 * or the guest lost under them: the guest checked, booted again if it
 * ended or hung), run on the agents as ex_agents_run runs them, a death
 * judged there. 0 or -errno with a->err (the executor cannot be dialled).
 */
int ex_agents_exec(struct ex_agents *a);

/* Stop the kept agents. */
void ex_agents_close(struct ex_agents *a);

#endif
