/*
 * scn_internal.h — shared between the harness/scn_*.c files; not an API.
 */
#ifndef RDMACHECK_SCN_INTERNAL_H
#define RDMACHECK_SCN_INTERNAL_H

#include "harness/lang/scn.h"

#include <stdarg.h>
#include <stdbool.h>

#define SCN_N(t) (sizeof(t) / sizeof((t)[0]))

/* One entry of a name table. */
struct scn_name { uint64_t value; const char *name; };

/* Look up in a name table: the name for value ("?"), or the value for a name. */
const char *scn_name_of(const struct scn_name *t, size_t n, uint64_t value);
int scn_value_of(const struct scn_name *t, size_t n, const char *name, bool nocase, uint64_t *out);

/* ------------------------------------------------------------ lexer -- */

/* A word of a line: raw bytes (quotes and escapes still in place). */
struct scn_word {
	const char *p;
	size_t len;
	uint32_t col;
};

/* Is word w exactly the string s? */
#define WORD_IS(w, s) ((w)->len == strlen(s) && memcmp((w)->p, (s), (w)->len) == 0)

struct scn_line {
	const char *p;        /* start of the line */
	size_t len;           /* without the newline (and a trailing CR) */
	uint32_t no;          /* 1-based line number */
	size_t nwords;
	struct scn_word w[SCN_WORDS_MAX];
};

/* The parser's working state. */
struct scn_ctx {
	struct scn_file *f;
	struct scn_diags *d;
	const struct scn_line *ln;  /* the line being parsed */
	bool in_steps;              /* a step has been seen */
	bool nodes_seen;
	bool nodes_refused;         /* the nodes line refused a name (too many, bad) */
	uint32_t nodes_line;
	uint32_t stmt_errs;         /* errors on the current line */
	bool in_block;              /* the line is in a `repeat N {` block's body */
	int oom;
};

/* Refuse what the model cannot hold (scn_limits.c): the first limit passed, diagnosed. */
void scn_check_limits(struct scn_ctx *c);
/* Refuse a chain of WRs that is not send WRs on one QP, or too long (scn_chain.c). */
void scn_check_chains(struct scn_ctx *c);
/* scn_sge.c: every post's SGE list (local2= len2= ...) has no gap, a length for every SGE, and no
 * SGE with chain or inline (the run does not post those). */
void scn_check_sges(struct scn_ctx *c);
/* scn_wrpost.c: every wr=yes (wr=abort) post is on a QP create_qp ex=yes made with its operation in send_ops=,
 * alone (wr=abort: not waited for). */
void scn_check_wr_posts(struct scn_ctx *c);

/* Character column (1-based) of byte p of line ln. */
uint32_t scn_col(const struct scn_line *ln, const char *p);
/*
 * Check one raw line (bytes [p, p+len)) and split it into words: reports NUL,
 * invalid UTF-8, control and non-ASCII characters outside strings and
 * comments, unterminated strings, too many words. Returns 0, or -EINVAL when
 * a diagnostic was given (the line is then skipped).
 */
int scn_lex_line(struct scn_ctx *c, struct scn_line *ln);

/* ------------------------------------------------------ diagnostics -- */

/* Report error e at (line, col) with its format's arguments; hint may be NULL. */
void scn_diag(struct scn_ctx *c, uint32_t line, uint32_t col, const char *hint, enum scn_err e, ...);
/* The same at word w of the current line. */
void scn_diag_w(struct scn_ctx *c, const struct scn_word *w, const char *hint, enum scn_err e, ...);

/* ------------------------------------------------------------ hints -- */

/* Candidate i of a list, NULL past its end. */
typedef const char *(*scn_cand_fn)(const void *ctx, size_t i);
/*
 * The candidate closest to word if it is close enough to be a likely typo,
 * else NULL. Write "did you mean 'X'?" into hint (or "" when none).
 */
const char *scn_hint_best(const char *word, scn_cand_fn get, const void *ctx, bool nocase,
			  char *hint, size_t len);
/*
 * The candidate whose '_'-separated parts are word's in another order
 * (mr_dereg: dereg_mr; rpma_reg_mr: rpma_mr_reg), else NULL. Writes "did
 * you mean 'X'?" into hint (or "" when none).
 */
const char *scn_hint_transposed(const char *word, scn_cand_fn get, const void *ctx, char *hint, size_t len);
/*
 * word is a list of outcomes ("REM_ACCESS_ERR", "EINVAL|EBUSY") standing
 * where an argument should: write "did you forget 'expect'? ..." into hint
 * and return 1; else 0 (hint untouched).
 */
int scn_hint_expect(const char *word, char *hint, size_t len);
/*
 * Report an unknown node at w, hinting the closest node or the list of them;
 * when the nodes line refused a name, the statement fails without a message
 * (that line's own error says why).
 */
void scn_unknown_node(struct scn_ctx *c, const struct scn_word *w, const char *name);
/* Candidate lists. */
const char *scn_cand_call(const void *ctx, size_t i);
const char *scn_cand_cap(const void *ctx, size_t i);
const char *scn_cand_outcome(const void *ctx, size_t i);
const char *scn_cand_node(const void *ctx, size_t i);          /* ctx: struct scn_file */
const char *scn_cand_spec(const void *ctx, size_t i);          /* ctx: scn_arg_spec list */
const char *scn_cand_attr(const void *ctx, size_t i);
const char *scn_cand_statement(const void *ctx, size_t i);
struct scn_table_ctx { enum scn_table t; };
const char *scn_cand_table(const void *ctx, size_t i);         /* ctx: struct scn_table_ctx */
/* "'a', 'b', 'c'" — all candidates, for hints that list what is valid. */
void scn_cand_list(scn_cand_fn get, const void *ctx, const char *prefix, char *buf, size_t len);

/* ----------------------------------------------------------- values -- */

/* Parse an unsigned integer (decimal, 0x hex, K/M/G suffix). 0, or a diag's code. */
int scn_int_parse(const char *p, size_t len, uint64_t *out);
/* Is [p, p+len) an identifier [A-Za-z_][A-Za-z0-9_]* (< SCN_NAME_MAX bytes)? */
bool scn_is_ident(const char *p, size_t len);
/* Is name a node name [a-z][a-z0-9_]* (< SCN_NAME_MAX bytes)? */
bool scn_is_node_name(const char *name);
/* Index of node name in f, or -1. */
int scn_node_find(const struct scn_file *f, const char *name);
/* The latest object instance named name on node, or -1. */
int32_t scn_obj_find(const struct scn_file *f, unsigned node, const char *name);
/* An article and class name for messages: "an MR", "a PD". */
const char *scn_class_a(unsigned cls);

/*
 * Parse the value text of word w (from byte off) for spec on the step's
 * node: kinds, tables, references and ranges are checked; errors are
 * reported. Returns 0 and fills v, or -EINVAL.
 */
int scn_value_parse(struct scn_ctx *c, const struct scn_word *w, size_t off,
		    const struct scn_arg_spec *spec, unsigned node, struct scn_value *v);

/*
 * Resolve NAME on node to its latest object instance, which must be of one
 * of the classes cls (0: any); user names the key or call for messages.
 * Returns 0 and *out, or -EINVAL (diagnosed).
 */
int scn_ref_resolve(struct scn_ctx *c, const struct scn_word *w, const char *name, unsigned node,
		    unsigned cls, const char *user, int32_t *out);

/* Copy at most len bytes of [p, p+len) into a NUL-terminated buf of size n; false if cut. */
bool scn_copy(char *buf, size_t n, const char *p, size_t len);

/* ------------------------------------------------------------ steps -- */

/* Parse the step on the current line (words from index 0). */
void scn_parse_step(struct scn_ctx *c);
/* Is name (word w) usable for an object of this file? Diagnoses if not. */
bool scn_name_ok(struct scn_ctx *c, const struct scn_word *w, const char *name);
/*
 * The value of a SCN_A_NEW key (word w from byte off): [NODE.]NAME, checked
 * as a name; v->node the NODE given (-1: none), v->obj -1 until
 * scn_decl_make. Returns 0, or -EINVAL (diagnosed).
 */
int scn_decl_parse(struct scn_ctx *c, const struct scn_word *w, size_t off, struct scn_value *v);
/*
 * Declare the objects st's SCN_A_NEW arguments name, on the node of its
 * `peer` argument (live when live): each gets its instance in v.obj.
 */
void scn_decl_make(struct scn_ctx *c, struct scn_step *st, bool live);
/* Add an object instance; returns its index or -1 (diagnosed). */
int32_t scn_obj_add(struct scn_ctx *c, const char *name, unsigned node, unsigned cls,
		    const struct scn_word *w);

#endif
