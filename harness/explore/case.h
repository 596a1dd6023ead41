/*
 * case.h — what `rdmacheck explore` (issue 13) generates, runs and shrinks:
 * a case is a scenario held as its node count and its step lines, in the
 * scenario language (scenarios/README.md). It becomes scenario text with
 * ex_case_text and is parsed by the real parser and judged by run_scenario,
 * exactly as `rdmacheck run` judges a file, so a case written out reproduces
 * by construction.
 *
 * A divergence is summed up by a signature (struct ex_sig): the verdict's
 * class, the call of the deciding step, what reality did and the rule IDs
 * of the set the model allowed. Two runs show "the same divergence" when
 * their signatures are equal; the shrinker keeps only candidates that do.
 *
 * Errors follow HACKING.md: 0 or a negative errno.
 */
#ifndef RDMACHECK_EXPLORE_CASE_H
#define RDMACHECK_EXPLORE_CASE_H

#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <stddef.h>

#define EX_LINE_MAX 256u

struct ex_case {
	unsigned nnodes;   /* nodes a, b, c, … */
	size_t n, cap;
	char (*lines)[EX_LINE_MAX]; /* step lines, without the node header */
};

/* Append one step line (copied). 0, -ENOMEM or -E2BIG (line too long). */
int ex_case_push(struct ex_case *c, const char *line);
/* Drop the last line (no-op when empty). */
void ex_case_pop(struct ex_case *c);
/* *dst = a copy of src (dst is overwritten, not released). 0 or -ENOMEM. */
int ex_case_copy(struct ex_case *dst, const struct ex_case *src);
/* Release the lines; the case is empty afterwards. */
void ex_case_free(struct ex_case *c);
/* The name of node i: "a", "b", … (i < 16). */
const char *ex_node_name(unsigned i);

/*
 * The case as scenario text: header (may be NULL: none; else copied first,
 * ending in a newline), "require rpma" / "dapl" / "mrapi" / "rpmem" when a
 * step calls that family, "nodes a b …", then the steps. *text is malloc'd,
 * NUL-terminated. 0 or -ENOMEM.
 */
int ex_case_text(const struct ex_case *c, const char *header, char **text);

/* c's text parsed, as ex_eval_run parses it, into *f (NULL: it does not parse; else release with scn_free). 0 or -ENOMEM. */
int ex_case_parse(const struct ex_case *c, struct scn_file **f);

/* The line number of the first step in ex_case_text's text without a header (after require, nodes). */
uint32_t ex_case_first_line(const struct ex_case *c);

/* ------------------------------------------------------ signatures -- */

enum ex_class { EX_NONE, EX_FAIL, EX_CRASH, EX_TIMEOUT, EX_ERROR };

struct ex_sig {
	enum ex_class cls;
	unsigned step;          /* index of the deciding step in the case */
	char call[32];          /* its call ("write") */
	char real[48];          /* what reality did ("LOC_QP_OP_ERR"), or the kind of mismatch */
	char rules[160];        /* the allowed set's rule IDs, sorted, blank-separated */
	char allowed[256];      /* the allowed set as run prints it (for the file's header) */
};

/* "none", "fail", "crash", "timeout", "error"; "?" out of range. */
const char *ex_class_str(enum ex_class c);
/* The class named name; 0 or -EINVAL. */
int ex_class_parse(const char *name, enum ex_class *out);

/*
 * The signature of result r of case c (whose text f was parsed from; f
 * may be NULL when it could not be parsed). A PASS, XFAIL or SKIP has cls
 * EX_NONE. rules_hint (may be NULL) gives the rule IDs when the result's
 * detail has no "allowed:" line (a kernel crash, a hang).
 */
void ex_sig_of(const struct ex_case *c, const struct scn_file *f, const struct result *r, const char *rules_hint,
	       struct ex_sig *s);
/* Equal signatures (class, call, reality, rules; not the step index). */
int ex_sig_same(const struct ex_sig *a, const struct ex_sig *b);

/* ------------------------------------------- the model, in process -- */

/*
 * One run of a case in this process, on the model engine simulating profile
 * sim (ops: be_model_ops, or a wrapper around it whose engine is a struct
 * be_model), judged against profile judge as `run` judges.
 */
struct ex_hold;

/* Keys of struct ex_eval.last_costly: struct m_alt.dev is a byte. */
#define M_COSTLY_KEYS 256

struct ex_eval {
	struct scn_file *f;      /* the parsed case; NULL if it does not parse */
	struct ex_hold *held;    /* f is this hold's file grown by the case's last step (ex_hold_next) */
	int eng_live;
	struct result r;
	size_t nseen;            /* steps the runner began */
	struct m_pred last_gen;  /* the generic set of the last step begun */
	unsigned last_rules_n;
	int last_crash;          /* the judging profile allows a kernel crash at the last step begun */
	int last_costly;         /* the judging profile lets the last step begun never end or kill the kernel
	                            (M_OUT_HANG, M_OUT_CRASH): 1 + the deviation's index (struct m_alt.dev;
	                            M_COSTLY_KEYS - 1 for none), else 0 */
	char step_rules[160];    /* the rule IDs of the last step begun's generic set */
	struct be_model eng;     /* the engine after the run (its model, its handles); last: the
	                            members before it are what a run zeroes besides the engine's init */
};

/*
 * Run c. Returns 0 with *e filled (a case that does not parse: e->f NULL,
 * e->r.v V_ERROR, an empty engine), or -ENOMEM. e need not be zeroed: use
 * one buffer for many runs (its 0.5 MB engine is initialised once a run).
 * Release with ex_eval_free.
 */
int ex_eval_run(const struct ex_case *c, const struct m_profile *judge, const struct m_profile *sim,
		const struct backend_ops *ops, struct ex_eval *e);
void ex_eval_free(struct ex_eval *e);

/*
 * A case run on the model to its last step and held there, before its end
 * is judged, so that cases adding one step to it are judged without running
 * its steps again (explore's generator: many proposals after one prefix).
 * ex_hold_next gives what ex_eval_run gives for such a case, byte for byte:
 * the held file grows by the new line (scn_append_step), the held run and
 * engine are copied (run_fork, bm_clone) and go on over it. A case the hold
 * cannot extend (another node count or family header, the held run already
 * ended, a step the stack cannot run) is run whole by ex_eval_run.
 */
struct ex_hold {
	const struct m_profile *judge, *sim;
	const struct backend_ops *ops;
	struct run_opts o, o_next;      /* the held run's, the copy's (its ctx: the case's ex_eval) */
	struct scn_mark mark;           /* what the new step added to the held file */
	size_t n, textlen;              /* the held case's steps, the length of its text */
	uint32_t first;                 /* the line of its first step */
	int live;                       /* the run is held (begun, every step run, not ended) */
	struct run *x, *x_next;         /* the held run, the copy's buffer (run_size() each) */
	struct ex_eval e;               /* the held case's run so far (its file, engine, result) */
};

/* A new hold with its buffers (about 1.5 MB; reuse it), holding nothing, or NULL. Release with ex_hold_delete. */
struct ex_hold *ex_hold_new(void);
void ex_hold_delete(struct ex_hold *h);
/*
 * Run c on the model as ex_eval_run does and hold it before its end: h->e
 * is then the run so far (a case that does not parse, or whose run a step
 * ended, is run whole there). judge, sim and ops must outlive the hold's use.
 * 0 or -ENOMEM. Release with ex_hold_release before the next ex_hold_run.
 */
int ex_hold_run(struct ex_hold *h, const struct ex_case *c, const struct m_profile *judge,
		const struct m_profile *sim, const struct backend_ops *ops);
/*
 * Judge c, the held case with one more step, into e as ex_eval_run would
 * (with the hold's profiles and engine). One such e at a time per hold:
 * ex_eval_free it before the next call or ex_hold_release. 0 or -ENOMEM.
 */
int ex_hold_next(struct ex_hold *h, const struct ex_case *c, struct ex_eval *e);
/*
 * Hold c, the held case with one more step, instead: the held run goes on
 * over that step (a case it cannot extend is run whole, as ex_hold_run).
 * h->e is then as ex_hold_run(c) leaves it. 0 or -ENOMEM.
 */
int ex_hold_grow(struct ex_hold *h, const struct ex_case *c);
/* Judge the held case's end: h->e is then what ex_eval_run gives for it. 0 or -ENOMEM (h->e released). */
int ex_hold_end(struct ex_hold *h);
void ex_hold_release(struct ex_hold *h);

/* The rule IDs of a set, sorted and unique, blank-separated, into buf. */
void ex_pred_rules(const struct m_pred *p, char *buf, size_t len);

#endif
