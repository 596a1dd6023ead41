/*
 * runner.h — the coordinator's core: run one parsed scenario on an engine
 * (backend.h) with the reference model alongside, step by step, and judge.
 *
 * For every step the model gives two allowed sets: the generic reading of
 * the specification and the profile's (a provider's declared deviations).
 * The step passes when reality is in (expect ∩ generic set); it is an xfail
 * when reality is outside that but in the profile's set (a declared
 * deviation: its rule and citation are reported); otherwise it fails, and
 * the scenario stops there (the model cannot follow reality). Besides each
 * step's outcome the runner checks, unasked, the peer QP's state and receive
 * completion the model predicts, and at the end every buffer's bytes.
 *
 * In lint mode the engine is the model itself (be_model_ops, generic
 * profile, taking the alternatives `expect` names) and every outcome a step's
 * `expect` lists must be allowed by the generic set: otherwise the scenario
 * and the model disagree and a human must decide which is wrong.
 */
#ifndef RDMACHECK_RUNNER_H
#define RDMACHECK_RUNNER_H

#include "harness/run/backend.h"
#include "harness/lang/scn.h"
#include "model/model.h"

enum verdict { V_PASS, V_FAIL, V_XFAIL, V_SKIP, V_ERROR, V_COUNT_ };

/* "pass", "fail", "xfail", "skip", "error"; "?" out of range. */
const char *verdict_str(enum verdict v);
int verdict_parse(const char *name, enum verdict *out);

struct result {
	char file[512];
	char title[512];
	enum verdict v;
	char reason[512];   /* one line: why it failed / was skipped / errored / xfailed */
	char *detail;       /* more lines (malloc'd), or NULL: for fail and xfail the why; for
	                       any verdict the notes ("  note: ..."), e.g. where reality stayed
	                       in the specification's set but left the profile's (the profile's
	                       deviation may be stale) */
	uint32_t line;      /* the deciding step's line, 0 if none */
	double secs;
	unsigned steps_run, steps;
	/* The rules that decided the alternatives the run followed (semantic
	 * coverage): bit r of rules[r / 8] for enum m_rule r. */
	uint8_t rules[(M_RULE_COUNT_ + 7) / 8];
	/* Run-ahead (run_opts.ahead) could not judge a step exactly: an ERROR that asks
	 * the caller to run the scenario again without run-ahead, and judge it from that run. */
	uint8_t rerun;
};

/* Set / test rule r in a result's rule set. */
void result_rule_add(struct result *r, enum m_rule rule);
int result_rule_has(const struct result *r, enum m_rule rule);

/* Release r->detail. */
void result_clear(struct result *r);
/*
 * Make t's text r's detail in place of what it held (t is taken: left
 * empty). Returns 0, or -ENOMEM when t ran out of memory while written (t
 * freed, r's detail as it was).
 */
struct text;
int result_take_detail(struct result *r, struct text *t);

enum run_mode { RUN_REAL, RUN_LINT };

struct run_opts {
	enum run_mode mode;
	struct m_profile prof;     /* the stack's profile (lint: generic) */
	uint32_t engine_caps;      /* capabilities the engine offers besides the profile's (M_CAP_*) */
	int allow_crash;           /* execute steps whose only allowed outcome kills the kernel */
	int trace;                 /* add a detail line per step run: "  trace: line N: STEP -> REAL;
	                              allowed: SET" (what reality did, what the specification allows) */
	int model_engine;          /* RUN_REAL on the model engine itself (--stack=model): what the
	                              file says that the model does not allow is the file's error,
	                              found and said as lint does (on_disagree), before the step
	                              runs, not judged as a stack's failure */
	int ahead;                 /* run-ahead: send the engine steps before the earlier ones are
	                              answered where it can take them (backend_ops.ahead: object calls
	                              and posts of one node); the judging is the same, step by step,
	                              or, where a peer QP's state was seen only after later steps ran
	                              and they may have changed it, result.rerun. Never for a
	                              scenario whose steps may kill the kernel: a step sent ahead runs
	                              even when an earlier one ends the scenario */
	/*
	 * Called before every step runs (NULL: not called), with the step, the
	 * model's sets and, when the profile says this step kills the kernel,
	 * crash = 1. For streaming progress out of a machine that may die.
	 */
	void (*on_step)(void *ctx, const struct scn_file *f, size_t step, const struct m_pred *gen,
			const struct m_pred *prof, int crash);
	/*
	 * Called for every disagreement between the file and the model (NULL:
	 * not called) — an outcome an expect names that the model does not
	 * allow, an expected query value or checked byte the model does not
	 * hold — with the step, where in the file (line, col), the message (no
	 * "line N:") and the word it is about (an outcome's name, or NULL).
	 * RUN_LINT: the walk then goes on along the model's reading, so every
	 * disagreement of a file is reported (without the callback the first
	 * one ends the walk); the verdict is still FAIL with the first one as
	 * the reason. RUN_REAL with model_engine: the first one ends the
	 * scenario as its FAIL.
	 */
	void (*on_disagree)(void *ctx, const struct scn_file *f, size_t step, uint32_t line, uint32_t col,
			    const char *msg, const char *word);
	void *ctx;
};

/* The capabilities f's `require` lines name (M_CAP_*; a name no model capability has: none). */
uint32_t run_required_caps(const struct scn_file *f);

/*
 * run_walk's options for f (*o: RUN_LINT, prof with what f requires,
 * engine_caps; no callbacks) and the profile its model engine simulates
 * (*sim: bm_init the engine with it), for a caller that walks in parts
 * (run_begin, run_fork: the expect mutation test).
 */
void run_walk_setup(const struct scn_file *f, const struct m_profile *prof, uint32_t engine_caps, struct run_opts *o,
		    struct m_profile *sim);

/*
 * Walk f on the model alone (RUN_LINT: lint, predict, coverage) and judge it
 * into *r (release with result_clear): the device is prof's with the
 * capabilities f requires, the runner judges by the generic reading of it
 * (bm_generic) and the engine simulates that same reading, so the set an
 * expect is checked against and the set the engine draws from are one.
 * engine_caps: run_opts'. on_step and on_disagree (NULL: none) with ctx are
 * run_opts'. Returns r->v.
 */
enum verdict run_walk(const struct scn_file *f, const struct m_profile *prof, uint32_t engine_caps,
		      void (*on_step)(void *, const struct scn_file *, size_t, const struct m_pred *,
				      const struct m_pred *, int),
		      void (*on_disagree)(void *, const struct scn_file *, size_t, uint32_t, uint32_t, const char *,
					  const char *),
		      void *ctx, struct result *r);

/*
 * Run f on engine (ops, be), judging against the model. Fills *r (file and
 * title included). Returns 0 when a verdict was reached (any verdict), or
 * -ENOMEM.
 */
int run_scenario(const struct scn_file *f, const struct backend_ops *ops, void *be,
		 const struct run_opts *o, struct result *r);

/*
 * run_scenario in parts, for a caller that judges many scenarios sharing
 * their first steps (explore's generator: one prefix, many next steps)
 * without running those steps again. x is a buffer of run_size() bytes
 * (the model's 0.5 MB: reuse it). run_scenario is run_begin, run_steps to
 * the end, run_end.
 */
struct run;
size_t run_size(void);
/*
 * Start judging f (as run_scenario: *r reset, file and title): 0 ready for
 * run_steps, 1 when the verdict is already in *r (a skip: nothing to step
 * or end), or a negative errno (nothing to release).
 */
int run_begin(struct run *x, const struct scn_file *f, const struct backend_ops *ops, void *be,
	      const struct run_opts *o, struct result *r);
/*
 * Run the steps before step upto not run yet, unless a step ended the
 * scenario (the file may have grown since by scn_append_step). Returns 1
 * once one has.
 */
int run_steps(struct run *x, size_t upto);
/*
 * dst = a copy of run src (begun, not ended) that goes on over f, a file
 * whose first steps are src's file's (src's own file, grown by
 * scn_append_step), on engine be (a copy of src's engine in its state), with
 * options o, into result *r (src's result so far). src is untouched. 0 or
 * -ENOMEM (dst needs no release then).
 */
int run_fork(struct run *dst, const struct run *src, const struct scn_file *f, void *be,
	     const struct run_opts *o, struct result *r);
/*
 * Judge the end (every buffer against the model, when every step ran), hand
 * the detail to *r and release the run. 0 or -ENOMEM.
 */
int run_end(struct run *x);
/* Release a begun run without judging its end (its result stays partial). */
void run_drop(struct run *x);

/*
 * The reason a scenario cannot run with these capabilities (a `require`
 * line or a call no engine here implements), written into why; returns 1
 * if it must be skipped, else 0.
 */
int run_unsupported(const struct scn_file *f, uint32_t caps, char *why, size_t len);

/* Format an allowed set: "REM_ACCESS_ERR [RA-KEY-1], SUCCESS [..]" (only
 * alternatives in expect when s is not NULL). */
void run_format_set(const struct m_pred *p, const struct scn_step *s, char *buf, size_t len);

/*
 * Find the profile's deviation that makes outcome o allowed for pred: the one
 * an alternative giving o names as its decision (struct m_alt.dev), else the
 * first deviation of a rule of such an alternative that lists o. Returns it or
 * NULL.
 */
const struct m_deviation *run_deviation(const struct m_profile *p, const struct m_pred *pred, struct m_outcome o);

/*
 * The note a step's record carries when pred (the profile's prediction) has a
 * kernel-crash alternative: "RULE: citation" of the deviation that allows it
 * ("?: ?" if none does; the last such alternative's), into buf. buf is "" when
 * pred has no crash alternative.
 */
void run_crash_note(const struct m_profile *p, const struct m_pred *pred, char *buf, size_t len);

/*
 * Kernel WARNs a profile declares (struct m_kwarn; harness/run/kwarn_steps.c), scoped
 * to the steps whose prediction pp (under p) names their rule: the longest
 * step budget they declare for such a step (0: none), and the rows they add
 * to list (distinct, at most cap; n rows there before). Returns the new count.
 */
uint32_t run_kwarn_ms(const struct m_profile *p, const struct m_pred *pp);
size_t run_kwarn_add(const struct m_profile *p, const struct m_pred *pp, const struct m_kwarn **list, size_t n,
		     size_t cap);
/*
 * A step the engine gave no answer to within its budget (rc -ETIMEDOUT) whose
 * prediction pp under the profile has the hang alternative (M_OUT_HANG, a
 * declared deviation): *real is that outcome, judged as any other (an xfail),
 * and the scenario stops at it. Returns 1 then, else 0 (*real untouched).
 */
int run_declared_hang(const struct m_pred *pp, int rc, struct hres *real);

#endif
