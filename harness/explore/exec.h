/*
 * exec.h — the in-guest executor of `rdmacheck explore --stack=vm` (issue
 * 31): a long-lived `rdmacheck exec` in the guest, beside its TCP agents
 * (ci/vm-agents), that takes whole cases from the host, runs each over its
 * own local agents (kept from one case to the next, each reset confirmed, as
 * `run` keeps them: pool.h) with the runner and the model alongside, and
 * sends back per case the record of what the real stack answered (tape.h:
 * the record `run --results` writes and `rdmacheck rejudge` judges). The host
 * judges each record against its model as it arrives (tape_play: the verdict
 * a live run gives) while the guest runs the next cases, so a step costs
 * the guest's local round trips instead of a host↔guest one.
 *
 * The peer proves it holds the run's secret first (remote.h's handshake, as
 * the agents do); then, one line and one body each:
 *   host -> guest   "case ID PROFILE KVER CRASH AHEAD LEN" then LEN bytes of scenario text
 *   guest -> host   "exec 1" once, after the handshake (its greeting)
 *                   "record ID VERDICT LEN" then LEN bytes: the record's lines (TAPE JSON, one a line)
 *                   "error ID LEN" then LEN bytes: why the case could not run (no record)
 *                   "refused WHY" then the connection closes (a request out of bounds)
 * ID is the host's number of the case (decimal, echoed), PROFILE the
 * profile's name ([A-Za-z0-9_.-], at most 31 bytes) and KVER its kernel
 * (m_profile_get), CRASH 1 when steps the profile says may kill the kernel
 * may run, AHEAD 1 to run it with run-ahead (the host's prediction: no step
 * of it may kill the kernel; the guest does not walk the model for it under
 * TCG), VERDICT the guest's own verdict of the run (the host's judgement
 * of the record must equal it). Every read is bounded: a line by
 * EX_EXEC_LINE_MAX bytes, a case by EX_EXEC_CASE_MAX, a record by
 * EX_EXEC_RECORD_MAX; once a message's first byte came the whole of it must
 * come within EX_EXEC_MSG_MS. The guest answers the cases in order, one at a
 * time; a new authenticated connection replaces the one it serves.
 *
 * Errors follow HACKING.md: 0 or a negative errno, the reason in err.
 */
#ifndef RDMACHECK_EXPLORE_EXEC_H
#define RDMACHECK_EXPLORE_EXEC_H

#include "harness/run/proto.h"
#include "harness/run/remote.h"
#include "harness/run/runner.h"
#include "netns/topo.h"

#include <stdint.h>

#define EX_EXEC_LINE_MAX 256            /* a header line */
#define EX_EXEC_CASE_MAX (256u << 10)   /* bytes of one case's scenario text */
#define EX_EXEC_RECORD_MAX (16u << 20)  /* bytes of one case's record */
#define EX_EXEC_MSG_MS 10000            /* a whole message once its first byte came */
#define EX_EXEC_PROFILE_MAX 32

/* A whole message's bound in this process, in ms (EX_EXEC_MSG_MS; a test shortens it). */
extern int ex_exec_msg_ms;

/* A case as the guest takes it: the header's fields and the text (malloc'd). */
struct ex_exec_case {
	uint64_t id;
	char profile[EX_EXEC_PROFILE_MAX];
	uint32_t kver;
	int crash, ahead;
	char *text;
	size_t len;
};

/*
 * Read one request from fd (rd its buffer) into *c (release c->text with
 * free), waiting up to idle_ms (-1: forever) for its first byte. 0; -EPIPE
 * at the end of the stream before a request began; -ETIMEDOUT when none
 * began within idle_ms; or -EPROTO (a line out of bounds or not a case, a
 * body too long or cut, a body that did not come within ex_exec_msg_ms)
 * with why in err: the peer is to be refused.
 */
int ex_exec_read_case(int fd, struct proto_rd *rd, int idle_ms, struct ex_exec_case *c, char *err, size_t errlen);

/* Send case id (its text, len bytes) with the run's profile prof, crash and run-ahead setting. 0 or -errno. */
int ex_exec_send_case(int fd, uint64_t id, const struct m_profile *prof, int crash, int ahead, const char *text,
		      size_t len);

/*
 * Run one case: text parsed, run on the engine the executor was given,
 * recorded. Fills *r (its verdict) and *lines (the record, malloc'd; NULL
 * with *r an ERROR whose reason says why no run was recorded). 0 or -ENOMEM.
 */
typedef int (*ex_exec_run_fn)(void *ctx, const struct scn_file *f, const struct run_opts *o, struct result *r,
			      char **lines);

/* The executor's engine: its agents on the guest's topology (ex_exec_pool_run). */
struct stack_pool;
struct ex_exec_pool {
	struct stack_pool *pool;
	int step_ms;
};
/* ex_exec_run_fn over the pool's agents (ctx: struct ex_exec_pool): run as `run` runs a file, recorded. */
int ex_exec_pool_run(void *ctx, const struct scn_file *f, const struct run_opts *o, struct result *r, char **lines);

/*
 * Serve one authenticated peer on fd until it closes, refuses itself, or
 * lfd (>= 0) has a new connection waiting (then 1: the caller takes it):
 * each case read, run with run(ctx) and answered. 0 when the peer ended or
 * was refused (why on stderr), 1 as said, or -errno of the listener.
 */
int ex_exec_serve_conn(int fd, int lfd, ex_exec_run_fn run, void *ctx);

/*
 * The executor: accept connections on lfd (listening), each proving it
 * holds key (remote_accept), and serve them one at a time (a new one
 * replaces the one served). Returns only on a listener error (-errno).
 */
int ex_exec_serve(int lfd, const struct remote_key *key, ex_exec_run_fn run, void *ctx);

/* ---- the host's side ---- */

/* One answer: the record's lines (malloc'd) or the reason the case did not run. */
struct ex_exec_answer {
	uint64_t id;
	int ran;                    /* 1: lines is the record, v the guest's verdict; 0: lines is the reason */
	enum verdict v;
	char *lines;
	size_t len;
};

/*
 * Read one answer from fd, waiting up to wait_ms for its first byte. 0;
 * -ETIMEDOUT; -EPIPE at the end of the stream; -EPROTO (out of bounds,
 * garbled, or a "refused" line: err says which).
 */
int ex_exec_read_answer(int fd, struct proto_rd *rd, int wait_ms, struct ex_exec_answer *a, char *err, size_t errlen);

/*
 * Dial the executor at hostport with key and take its greeting: the fd, or
 * -errno with err.
 */
int ex_exec_dial(const char *hostport, const struct remote_key *key, int timeout_ms, char *err, size_t errlen);

/*
 * Judge the record lines of a run of f (the case as the host parsed it)
 * against prof as `run` judged it live (tape_play; the record's run-ahead
 * and crash setting) into *r. A record that is not of f, or that does not
 * answer every call (tape_play's status not exact), is an ERROR saying so.
 * 0 or -ENOMEM.
 */
int ex_exec_judge(const struct scn_file *f, const struct m_profile *prof, const char *lines, struct result *r);

/* The host's connection to the executor of one guest boot. */
#define EX_EXEC_WINDOW 8                /* cases sent ahead of their answers */
#define EX_EXEC_INFLIGHT (32u << 10)    /* bytes of cases sent and not answered (one case alone may be more) */
struct ex_exec_link {
	char hostport[80];          /* where it listens ("" none) */
	struct remote_key key;
	int fd;                     /* -1: not dialled */
	struct proto_rd rd;
	uint64_t next_id;
	unsigned long cases, lost;  /* cases answered; cases whose answer never came (the executor lost) */
	double secs_wait, secs_judge; /* waiting for answers; judging them here */
	char err[512];              /* the last failure */
};

/* Dial the executor at hostport with the secret in token_path into *l. 0 or -errno with l->err. */
int ex_exec_link_open(struct ex_exec_link *l, const char *hostport, const char *token_path);
void ex_exec_link_close(struct ex_exec_link *l);

/*
 * Run m cases on the executor, several in flight: case k's text texts[k]
 * (parsed as files[k]; no step of it may kill the kernel: run with
 * run-ahead), sent with prof and crash, judged into rs[k]
 * (ex_exec_judge; an answer that ran nothing is an ERROR with its reason).
 * A case whose answer does not come within (its steps + 4) x step_ms, or
 * whose connection broke, has lost[k] = 1 (rs[k] untouched) and so have the
 * cases after it: l->fd is closed then, l->err says why. 0 or -ENOMEM.
 */
int ex_exec_run(struct ex_exec_link *l, const struct m_profile *prof, int crash, int step_ms, char *const *texts,
		struct scn_file *const *files, size_t m, struct result *rs, uint8_t *lost);

#endif
