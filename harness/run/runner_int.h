/*
 * runner_int.h — what the runner's files share (private to harness/run):
 * the state of one scenario's run, how a verdict is said, and the parts of
 * judging a step that live beside runner.c (run_peer.c: what the peer QP
 * and the completions show).
 */
#ifndef RDMACHECK_RUNNER_INT_H
#define RDMACHECK_RUNNER_INT_H

#include "harness/run/runner.h"
#include "harness/run/backend.h"
#include "harness/run/be_model.h"
#include "harness/base/text.h"

#include <stddef.h>
#include <stdint.h>

/* Run-ahead: a peer check left to a later look (run_verdict.c). */
struct run_pend {
	uint8_t on;
	int state;      /* enum m_qp_state the model says the peer stays in */
	int32_t peer;   /* the peer QP */
	uint32_t line, last; /* the posts whose check waits: lines line..last */
	size_t next;    /* the step that may carry it on */
};

/* One outcome an iteration's expect list names (run_seen.c). */
struct run_seen_out {
	struct m_outcome o;
	size_t step;       /* the first iteration that names it */
	unsigned given;    /* iterations that gave it (the real stack; the model's own walk: took it) */
	uint8_t allowed;   /* the model's own walk: allowed at some iteration */
};

/* What the iterations of one step line of a repeat block gave, for its `seen` groups (run_seen.c). */
struct run_seen {
	uint32_t line;     /* the body's line */
	unsigned n;        /* iterations judged */
	unsigned other;    /* of them, those that gave an outcome their list does not name (a deviation) */
	unsigned nout;
	struct run_seen_out out[2 * SCN_OUTCOMES_MAX]; /* the outcomes the lists name, each once */
};

/* One scenario's run (runner.c: run_scenario). */
struct run {
	const struct scn_file *f;
	const struct backend_ops *ops;
	void *be;
	const struct run_opts *o;
	struct result *r;
	struct text detail;
	int xfails;
	int loose; /* lint went on past this step's disagreement: follow the model whatever expect says */
	int32_t refused; /* in a chain of WRs: the errno the post refused an earlier one with (LP-7) */
	uint8_t chain_pos; /* in a chain: the step's place */
	uint8_t chain_early; /* a chain's step before its last: the peer QP's state is the whole chain's */
	size_t advance;  /* steps the last run_step took (a chain: all of its) */
	uint32_t eng_inv; /* the step's SEND_WITH_INV rkey on the engine that ran it (engine_call; 0 none): what
	                     the peer's invalidated_rkey is judged against (run_peer.c) */
	uint32_t wcf_noted[8]; /* the lines whose RECV-WC-1 deviation a note said (run_peer.c: once a line, */
	uint8_t nwcf_noted;    /* a repeat body's too; past 8 lines, no more) */
	size_t sent; /* run-ahead: the steps before this one were sent to the engine */
	struct run_pend pend; /* run-ahead: a peer check waiting for a later look */
	size_t si;       /* the next step to run */
	int stopped;     /* a step ended the scenario (at step si) */
	struct run_seen *seen; /* the `seen` groups' lines, nseen of them (run_seen.c; owned) */
	size_t nseen;
	double t0;       /* when it began */
	struct be_model bm; /* the oracle; last: run_scenario zeroes the members before it (bm_init sets it) */
};

/* The file is judged against the model itself: lint, or a run on the model engine (run_opts.model_engine). */
static inline int run_judges_file(const struct run *x)
{
	return x->o->mode == RUN_LINT || x->o->model_engine;
}

/*
 * A query step s (run_query.c): every result reality reports against what
 * the model knows of it, and the step's KEY=VALUE expectations against
 * reality (lint: against the model). op is the model operation of the step.
 */
void run_judge_query(struct run *x, const struct scn_step *s, const struct m_op *op, const struct hres *real);

/* Record the deciding verdict v at line (the first fail/error wins over xfail), its reason from fmt. */
void run_say(struct run *x, enum verdict v, uint32_t line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * A disagreement between the file and the model at step s (line, col): the
 * scenario's FAIL and, when lint goes on, reported to on_disagree (word: the
 * word it is about, or NULL). Returns 1 when the walk must stop here, 0 when
 * it goes on.
 */
int run_disagree(struct run *x, const struct scn_step *s, uint32_t line, uint32_t col, const char *word,
		 const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/*
 * Step s was judged (out: what it gave). With `seen` groups, note out for
 * its line (allowed non-NULL: the model's own walk, lint or --stack=model:
 * every expect outcome allowed notes as given, the walk showing what the
 * iterations may give). 0, or -ENOMEM.
 */
int run_seen_note(struct run *x, const struct scn_step *s, const struct m_pred *allowed, struct m_outcome out);
/*
 * The model's own walk (a simulating engine's call c for step s): the
 * outcomes of s's expect list no iteration has given yet preferred first,
 * so the walk goes where the groups and the list need an iteration to go.
 */
void run_seen_prefer(const struct run *x, const struct scn_step *s, struct hcall *c);
/* Every step ran: each `seen` group some iteration gave, or a FAIL at its line (lint: a disagreement). */
void run_seen_judge(struct run *x);
/* dst's own copy of src's notes (run_fork). 0 or -ENOMEM. */
int run_seen_copy(struct run *dst, const struct run *src);
/* Release x's notes. */
void run_seen_free(struct run *x);

/* "node.name" of object o of f into buf (len bytes; "?" for no such object). Returns buf. */
const char *run_obj_name(const struct scn_file *f, int32_t o, char *buf, size_t len);

/*
 * Among the alternatives of p equal to reality's outcome (alternative
 * first's), find one whose peer effects match what the peer QP of step s
 * really shows (its state, its receive completion and that completion's
 * fields), waiting a little for them. Returns its index, or -1 with a fail
 * (or, run-ahead having run later steps first, an ERROR asking for a run
 * without it: result.rerun) recorded.
 */
int run_match_peer(struct run *x, const struct scn_step *s, const struct m_pred *p, int first);

/*
 * Run-ahead: leave the peer check of post s (peer QP peer_obj; alternative
 * first's outcome) to one look after a later post on its QP, when that
 * post was sent ahead and the model says the peer stays in one state that
 * is not ERR with no receive (run_verdict.c says why this is exact).
 * Returns the alternative the check would pick on seeing that state, or -1
 * when s's check must be made now.
 */
int run_peer_defer(struct run *x, const struct scn_step *s, const struct m_pred *p, int first, int32_t peer_obj);

/*
 * Make the peer check left by run_peer_defer, if any, with seen (a look at
 * that peer QP made now) or, seen NULL, a look of its own; a state other
 * than the model's is an ERROR asking for a run without run-ahead
 * (result.rerun). Called before any other check, verdict or end: a step
 * looking at the same peer passes its own look, as a look of its own would
 * take the receive completion that step waits for. Returns 1 when that
 * ERROR was said, else 0.
 */
int run_peer_settle(struct run *x, const struct hpeer *seen);

/*
 * The opcode of step s's successful completion, when the engine reported it
 * (real), against the WR's (ibv_poll_cq(3)). Returns 1 when they agree or it
 * was not reported, 0 with a fail recorded.
 */
int run_send_wc_judged(struct run *x, const struct scn_step *s, const struct m_pred *p, const struct hres *real);

#endif
