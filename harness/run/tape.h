/*
 * tape.h — a run's record of reality, complete enough to judge it again
 * (`rdmacheck rejudge`, issue 30): every answer the runner took from the
 * engine, in order, and the run's setting (engine, profile, kernel,
 * run-ahead, crash steps allowed).
 *
 * The recorder (tape_rec.c) is an engine wrapped around another: each call
 * goes to the inner engine and its answer is written down. The player
 * (tape_play.c) is an engine that answers each call from such a record, so
 * that the runner (runner.c) judges the recorded reality against the model
 * of today, in process, without the stack.
 *
 * A record is one JSON value (Jansson) per event; a run's detail carries
 * them as lines TAPE_MARK JSON (records.h takes detail lines out of a VM;
 * the outer runner moves them into results.jsonl's "tape" object). The
 * first is the head, an object:
 *   {"tape":1,"engine":NAME,"profile":NAME,"kver":K,"kernel":UNAME_R,"ahead":0|1,"crash":0|1,
 *    "chain":0|1,"steps":[STEP...]}
 * (chain: the engine posts a chain in one call, exec_chain; STEP: each step
 * of the file as tape_step_text writes it, its arguments without its
 * expectations: a record is of the file whose steps are these, whatever
 * it expects of them)
 * then one array per engine call, its first element the call's letter:
 *   ["x", OP, NODE, OBJ, CHAIN_POS, REFUSED, RC, RES]      exec (RES null when RC < 0)
 *   ["c", [[OP, NODE, OBJ, CHAIN_POS, REFUSED]...], RC, [RES...]]  exec_chain
 *     RES = [OUTCOME, WC_OPCODE|null, {QUERY_KEY: VALUE...}]
 *   ["r", OBJ, OFF, REMOTE, RC, ADDR, KEY]                 ref
 *   ["a", OBJ, ATTR, RC, VALUE]                            attr
 *   ["m", OBJ, OFF, LEN, RC, BYTES]                        read (contiguous reads joined; BYTES:
 *                                                          runs "HH*N" and literal hex, ',' between)
 *   ["p", QP, RC, STATE|null, RECV|null, [WC_OPCODE, HAS_IMM, IMM, BYTE_LEN]|null]   peer
 *   ["b", OBJ, RC, HEX]                                    blob
 *   ["h", OP, NODE, OBJ, RC]                               ahead
 *   ["w", TEXT|null]                                       why
 * Names, not numbers, where the model has them (outcomes, opcodes, states,
 * statuses, operations, attributes, query keys): a record stays readable by
 * a model whose enums have grown. Numbers above 2^63 are stored as their
 * two's-complement int64 (Jansson's integers) and read back exactly.
 */
#ifndef RDMACHECK_TAPE_H
#define RDMACHECK_TAPE_H

#include "harness/run/backend.h"
#include "harness/run/runner.h"
#include "harness/base/text.h"

#include <stddef.h>
#include <stdint.h>

#define TAPE_MARK "  tape: "
#define TAPE_VERSION 1

/* A record's head: the run's setting. */
struct tape_head {
	char engine[32];     /* the engine's backend_ops.name ("stack", "model") */
	char profile[32];    /* the run's profile */
	uint32_t kver;       /* its kernel (KVER) */
	char kernel[128];    /* uname -r of the machine the run was on */
	int ahead;           /* run_opts.ahead */
	int crash;           /* run_opts.allow_crash */
	int chain;           /* the engine had exec_chain (else the runner ran a chain's WRs one by one) */
};

/*
 * Step s of f as a record's head names it: its canonical text
 * (scn_step_format) without `expect`, into buf. Returns buf.
 */
const char *tape_step_text(const struct scn_file *f, const struct scn_step *s, char *buf, size_t len);
/*
 * Whether f's steps are the ones the head h (a json_t object) names: 0, or
 * -EINVAL with the first that is not (its line, both texts) in err.
 */
int tape_steps_check(const void *h, const struct scn_file *f, char *err, size_t errlen);

/* The recorder: ops is the table to run with (its be is the tape_rec itself). */
struct tape_rec {
	struct backend_ops ops;           /* the inner engine's hooks, each one recorded */
	const struct backend_ops *in;
	void *be;
	struct text t;                    /* the lines so far */
	int32_t robj;                     /* a read being joined: its object (-1 none), */
	uint64_t roff;                    /* its offset, */
	uint8_t *rbuf;                    /* bytes (malloc'd) */
	size_t rlen, rcap;
	int oom;
};

/*
 * Record the engine (in, be) for one run of f (NULL: a file that did not
 * parse) with options o (their profile, run-ahead and crash setting and f's
 * steps go into the head; the kernel is this machine's uname). Run with
 * &tr->ops, tr.
 */
void tape_rec_init(struct tape_rec *tr, const struct backend_ops *in, void *be, const struct run_opts *o,
		   const struct scn_file *f);
/*
 * Append the record to r->detail (TAPE_MARK lines) and release what tr
 * holds. 0, or -ENOMEM (r->detail as it was).
 */
int tape_rec_finish(struct tape_rec *tr, struct result *r);
/* Release what tr holds without handing it over. */
void tape_rec_drop(struct tape_rec *tr);

/*
 * Take the TAPE_MARK lines out of r->detail: returns their JSON texts, one a
 * line (malloc'd; NULL when there are none or memory ran out, then
 * r->detail is left as it was).
 */
char *tape_take(struct result *r);

/* The head of a record (the lines tape_take gave; NULL: none) into *hd. 0, or -EINVAL. */
int tape_head_read(const char *lines, struct tape_head *hd);

/*
 * A JSON string (json_t *, new reference; NULL on -ENOMEM) of s (NULL: ""),
 * every byte outside printable ASCII as '?' (newlines and tabs kept when
 * lines is set): an engine's reason or a kernel's lines may hold any byte,
 * and Jansson takes only UTF-8.
 */
void *tape_json_ascii(const char *s, int lines);

/* Encode n bytes as a record's BYTES (malloc'd, NULL on -ENOMEM). */
char *tape_bytes_encode(const uint8_t *b, size_t n);
/* Decode BYTES into *out (malloc'd), its count in *n. 0 or -EINVAL / -ENOMEM. */
int tape_bytes_decode(const char *s, uint8_t **out, size_t *n);

/* How a replay went (tape_play.status). */
enum tape_status {
	TAPE_EXACT,     /* every call the run made was answered from the record */
	TAPE_SHORT,     /* the run asked for reality the live run did not observe */
	TAPE_MISMATCH,  /* the record is not of this scenario (another call at a step) */
};
/* "exact", "short", "mismatch"; "?" out of range. */
const char *tape_status_str(enum tape_status s);

struct tape_play {
	struct backend_ops ops;   /* the player's table (its be is the tape_play itself) */
	struct tape_head head;
	void *head_json;          /* the head as read (json_t), for tape_steps_check */
	void *events;             /* json_t array of the calls (the head excluded) */
	size_t n, seg, nx;        /* events; the current segment [seg, nx): the calls after the last exec */
	uint8_t *used;            /* events consumed (peer looks, aheads, whys, execs) */
	uint8_t *bytes;           /* the decoded bytes of event bytes_ev, a recorded read (NULL: none yet): a */
	size_t bytes_ev;          /* check or the end reads them in chunks, decoded once */
	uint8_t taint[SCN_OBJS_MAX]; /* a QP whose recorded look with a receive this run did not take */
	char why[512];            /* the answer to why() */
	enum tape_status status;
	char note[512];           /* the first thing that made the status other than exact */
};

/*
 * Read a record (the lines tape_take gave, or the "tape" array of
 * results.jsonl as text lines): its head into tp->head, its calls ready to
 * answer. 0, or -EINVAL with the reason in err (a head missing or of
 * another version, a line that is not JSON).
 */
int tape_play_init(struct tape_play *tp, const char *lines, char *err, size_t errlen);
/* The same from a JSON array of events, head first (borrowed; a reference is taken). */
int tape_play_init_json(struct tape_play *tp, void *array, char *err, size_t errlen);
void tape_play_free(struct tape_play *tp);

#endif
