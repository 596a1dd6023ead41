/*
 * scn.h — the scenario language front end: lexer, parser, AST, diagnostics.
 *
 * A scenario (.scn, described for testers in scenarios/README.md) is parsed
 * into a struct scn_file: the header (title, cites, required capabilities,
 * nodes) and the steps, each with its call (an entry of the call table:
 * the API families' call lists, harness/api/<family>/calls_<family>.c), the object it creates or acts on, its typed
 * arguments and its expected outcomes — every piece with its line and
 * column, so the coordinator can report exact positions.
 *
 * The parser checks everything that needs no model: syntax, known calls,
 * keys, flags and outcomes, value kinds, nodes, and that every object name
 * is created before use. All errors of a file are collected (up to
 * SCN_DIAG_MAX) with a did-you-mean hint where one helps.
 *
 * Input is untrusted: sizes are bounded (SCN_FILE_MAX, SCN_LINE_MAX, …),
 * NUL bytes and invalid UTF-8 are rejected. Pure C11, no global state, no
 * printing; errors follow HACKING.md (0 or a negative errno).
 */
#ifndef RDMACHECK_SCN_H
#define RDMACHECK_SCN_H

#include "model/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ limits -- */

#define SCN_FILE_MAX (1u << 20)  /* bytes in one scenario file */
#define SCN_LINE_MAX 1024u       /* bytes in one line (without the newline) */
#define SCN_WORDS_MAX 48u        /* words in one line */
#define SCN_NAME_MAX 32u         /* node and object names, with the NUL */
#define SCN_TEXT_MAX 512u        /* title, cite, string values, with the NUL */
#define SCN_NODES_MAX 16u
#define SCN_CITES_MAX 32u
#define SCN_REQUIRES_MAX 16u
#define SCN_STEPS_MAX 65536u
#define SCN_REPEAT_MAX 1000u     /* iterations of one `repeat N { ... }` block */
#define SCN_REPEAT_TEXT_MAX (8u << 20) /* bytes a block's body, run again, is parsed in all */
#define SCN_OBJS_MAX 1024u       /* object instances (every creation is one) */
#define SCN_ARGS_MAX 12u         /* KEY=VALUE arguments of one step */
#define SCN_CHAIN_MAX 16u        /* steps one chain of WRs (`chain`) posts together */
#define SCN_OUTCOMES_MAX 8u      /* alternatives after expect */
#define SCN_SEEN_MAX 4u          /* `seen` groups of one step (each: outcomes one iteration at least gave) */
#define SCN_DIAG_MAX 32u         /* diagnostics kept per file */

/* ------------------------------------------------------------- enums -- */

/* Which C API a call belongs to is its family, enum m_family (the one list of
 * families, model/families.def): the index of its row in the registry
 * (harness/run/family.h), whose call lists make the call table. */

/* What a call does with its NAME. */
enum scn_kind {
	SCN_KIND_CREATE,  /* creates NAME (alloc_pd, reg_mr, …) */
	SCN_KIND_ACT,     /* a synchronous call on an existing NAME (dereg_mr, rereg_mr, …) */
	SCN_KIND_POST,    /* posts a work request on NAME; ends in a completion */
	SCN_KIND_QUERY,   /* reads attributes of NAME; expect takes KEY=VALUE */
	SCN_KIND_CONNECT, /* connect NODE.QP NODE.QP */
	SCN_KIND_LOCAL,   /* harness-only, no stack call (fill, check) */
	SCN_KIND_COUNT_
};

/* Object classes (bits, so an argument can accept several). */
enum scn_class {
	SCN_C_PD = 1u << 0, SCN_C_MR = 1u << 1, SCN_C_MW = 1u << 2, SCN_C_QP = 1u << 3,
	SCN_C_RPMA_MR = 1u << 4, SCN_C_RPMA_REMOTE = 1u << 5, SCN_C_RPMA_CONN = 1u << 6,
	SCN_C_DAT_PZ = 1u << 7, SCN_C_DAT_LMR = 1u << 8, SCN_C_DAT_RMR = 1u << 9,
	SCN_C_MRAPI_RMEM = 1u << 10, SCN_C_RPMEM_POOL = 1u << 11, SCN_C_DAT_EP = 1u << 12,
	SCN_C_MRAPI_REQ = 1u << 13, SCN_C_MRAPI_ATTRS = 1u << 14,
	SCN_C_CQ = 1u << 15,
	SCN_C_AH = 1u << 16, /* a verbs address handle (UD) */
	SCN_C_SRQ = 1u << 17, /* a verbs shared receive queue */
	SCN_C_CHAN = 1u << 18, /* a verbs completion channel */
};
#define SCN_C_COUNT_ 19

/* Value kinds (bits, so an argument can accept several). */
enum scn_vkind {
	SCN_V_INT = 1u << 0,   /* 4096, 0x1000, 4K */
	SCN_V_FLAGS = 1u << 1, /* LOCAL_WRITE|REMOTE_READ, 0 */
	SCN_V_WORD = 1u << 2,  /* one name of a table: ERR, PERSISTENT */
	SCN_V_OBJ = 1u << 3,   /* [NODE.]NAME */
	SCN_V_ADDR = 1u << 4,  /* [NODE.]NAME+OFF or NAME-OFF */
	SCN_V_ATTR = 1u << 5,  /* [NODE.]NAME.ATTR[+N|-N] */
	SCN_V_STR = 1u << 6,   /* "text" */
	SCN_V_BARE = 1u << 7,  /* a key without value: zero_based */
	SCN_V_NODE = 1u << 8,  /* a node name: peer=b */
	SCN_V_HEX = 1u << 9,   /* bytes as hex digits, 0x optional: 0a0b0c */
};

/* Object attributes usable as numbers. */
enum scn_attr { SCN_ATTR_ADDR, SCN_ATTR_LEN, SCN_ATTR_LKEY, SCN_ATTR_RKEY, SCN_ATTR_QPN,
		SCN_ATTR_VA, /* a buffer's virtual address (addr is where peers address it: the iova) */
		SCN_ATTR_COUNT_ };

/* Name tables for FLAGS and WORD values. */
enum scn_table {
	SCN_T_NONE, SCN_T_ACCESS, SCN_T_REREG, SCN_T_QPS, SCN_T_QPS_MODIFY, SCN_T_PROT,
	SCN_T_USAGE, SCN_T_FLUSH, SCN_T_DAT_PRIV, SCN_T_RPMA_FLAGS, SCN_T_RPMA_NULL, SCN_T_DAT_MEM_TYPE,
	SCN_T_DAT_VA_TYPE, SCN_T_MRAPI_ATYPE, SCN_T_MRAPI_ID, SCN_T_MRAPI_ATTR, SCN_T_MRAPI_NULL, SCN_T_QPT,
	SCN_T_WC, SCN_T_YESNO,
	SCN_T_QP_ATTR, SCN_T_WC_OPCODE,
	SCN_T_GARBLE,
	SCN_T_COMP_VEC,
	SCN_T_WC_EX, SCN_T_CQ_FLAGS, SCN_T_SEND_OPS,
	SCN_T_PORT,
	SCN_T_WR_API,
	SCN_T_LIMIT,
	SCN_T_OBJREF,
	SCN_T_COUNT_
};

/*
 * Outcomes are the model's (model/model.h: struct m_outcome, enum
 * m_outcome_kind, m_outcome_parse, m_outcome_name): one table of names for
 * every API. A call's `outs` mask has bit (1 << kind) for each kind it can
 * produce, and SCN_OUTS_QUERY when it takes KEY=VALUE expectations.
 */
#define SCN_OUTS_QUERY (1u << M_OUT_COUNT_) /* call mask bit: KEY=VALUE expectations */

/* Every diagnostic the parser can give (one message format each). */
enum scn_err {
	SCN_E_FILE_TOO_LARGE, SCN_E_READ, SCN_E_NUL, SCN_E_UTF8, SCN_E_LINE_TOO_LONG,
	SCN_E_TOO_MANY_WORDS, SCN_E_NON_ASCII, SCN_E_CONTROL, SCN_E_UNTERMINATED,
	SCN_E_BAD_ESCAPE, SCN_E_TEXT_TOO_LONG, SCN_E_UNKNOWN_STATEMENT, SCN_E_NEEDS_TEXT,
	SCN_E_TWICE, SCN_E_HEADER_AFTER_STEP, SCN_E_NODE_COUNT, SCN_E_BAD_NODE_NAME,
	SCN_E_NODE_TWICE, SCN_E_UNKNOWN_CAP, SCN_E_TOO_MANY, SCN_E_NO_NODES, SCN_E_NO_STEPS,
	SCN_E_UNKNOWN_NODE, SCN_E_UNKNOWN_CALL, SCN_E_NEEDS_NAME, SCN_E_BAD_NAME,
	SCN_E_RESERVED_NAME, SCN_E_LIVE, SCN_E_UNKNOWN_NAME, SCN_E_WRONG_CLASS,
	SCN_E_UNKNOWN_KEY, SCN_E_KEY_TWICE, SCN_E_MISSING_KEY, SCN_E_NEEDS_VALUE,
	SCN_E_TAKES_NO_VALUE, SCN_E_BAD_INT, SCN_E_OVERFLOW, SCN_E_RANGE, SCN_E_UNKNOWN_FLAG,
	SCN_E_WRONG_KIND, SCN_E_BAD_REF, SCN_E_UNKNOWN_ATTR, SCN_E_ATTR_CLASS, SCN_E_BAD_HEX,
	SCN_E_EXPECT_EMPTY, SCN_E_UNKNOWN_OUTCOME, SCN_E_CANNOT_PRODUCE, SCN_E_UNEXPECTED,
	SCN_E_UNKNOWN_RESULT, SCN_E_CONNECT_OPERANDS, SCN_E_SAME_NODE, SCN_E_OTHER_NODE,
	SCN_E_MODEL_LIMIT, SCN_E_MR_TOO_LONG, /* what the model holds (scn_limits.c) */
	SCN_E_CHAIN,                          /* a chain of WRs (scn_chain.c) */
	SCN_E_SGE,                            /* a list of SGEs (scn_sge.c) */
	SCN_E_DECL_NODE,                      /* a name a key declares on another node (scn_decl.c) */
	SCN_E_REPEAT,                         /* a `repeat N { ... }` block (scn_parse.c) */
	SCN_E_SEEN,                           /* a `seen` group after expect (scn_step.c) */
	SCN_E_NO_TITLE, SCN_E_NO_RULE_CITE, SCN_E_UNKNOWN_RULE, /* corpus conventions (scn_meta_check) */
	SCN_E_WR_POST,                        /* a post through the ibv_wr_* API (scn_wrpost.c) */
	SCN_E_COUNT_
};

/* Names: "verbs", "create", "MR", "str", "addr", "access", "WC", "unknown call". */
const char *scn_api_str(enum m_family a);
int scn_api_parse(const char *name, enum m_family *out);
const char *scn_kind_str(enum scn_kind k);
int scn_kind_parse(const char *name, enum scn_kind *out);
/* The name of one class bit ("MR"); "?" for anything else. */
const char *scn_class_str(enum scn_class c);
int scn_class_parse(const char *name, enum scn_class *out);
/* The name of one kind bit ("integer"); "?" for anything else. */
const char *scn_vkind_str(enum scn_vkind k);
int scn_vkind_parse(const char *name, enum scn_vkind *out);
const char *scn_attr_str(enum scn_attr a);
int scn_attr_parse(const char *name, enum scn_attr *out);
const char *scn_table_str(enum scn_table t);
int scn_table_parse(const char *name, enum scn_table *out);
/* The message format of a diagnostic (printf-style); "?" when out of range. */
const char *scn_err_str(enum scn_err e);
/* Find e by its format string; mostly for tests. */
int scn_err_parse(const char *fmt, enum scn_err *out);

/* ------------------------------------------------------- call table -- */

#define SCN_A_REQ 1u /* the key must be given */
#define SCN_A_POS 2u /* may be given as a bare word after NAME (local_inv Q W) */
#define SCN_A_OWN 4u /* a reference to an object of the step's own node (reg_mr buf=) */
#define SCN_A_NEW 8u /* [NODE.]NAME of a new object of class cls that the step makes on the node of
                        its `peer` argument (dat_ep_connect accept=; scn_decl.c) */
#define SCN_A_VA 16u /* a query result that is an address in the step's object's buffer (fields addr=):
                       judged against the model as its offset there, each engine's buffer being elsewhere */

/* One key a call accepts (or, for queries, one result it reports). */
struct scn_arg_spec {
	const char *key;   /* NULL ends a list */
	uint16_t kinds;    /* enum scn_vkind bits accepted */
	uint8_t flags;     /* SCN_A_* */
	uint8_t table;     /* enum scn_table, for SCN_V_FLAGS / SCN_V_WORD */
	uint32_t cls;      /* enum scn_class bits, for references */
	uint64_t lo, hi;   /* integer range, when hi != 0 */
};

struct scn_call {
	const char *name;                 /* "reg_mr", "rpma_mr_reg" */
	uint8_t api;                      /* enum m_family */
	uint8_t kind;                     /* enum scn_kind */
	uint32_t cls;                     /* class of NAME (created or accepted); 0: no NAME */
	uint8_t destroys;                 /* NAME is no longer live after success */
	uint16_t outs;                    /* bits (1 << enum m_outcome_kind) | SCN_OUTS_QUERY */
	const struct scn_arg_spec *args;  /* keys, terminated by key == NULL */
	const struct scn_arg_spec *query; /* query results (SCN_KIND_QUERY), or NULL */
};

/* Number of calls in the table, entry i (NULL if out of range). */
size_t scn_call_count(void);
const struct scn_call *scn_call_get(size_t i);
/* Find a call by exact name; returns its index, or -ENOENT. */
int scn_call_find(const char *name);
/* The spec of key in list (args or query), or NULL. */
const struct scn_arg_spec *scn_spec_find(const struct scn_arg_spec *list, const char *key);
/* The index of key in list, or -ENOENT. */
int scn_spec_index(const struct scn_arg_spec *list, const char *key);
/*
 * As scn_spec_index, trying first the entry right after index prev (-1, or
 * an index of list: an earlier answer of this function), so that keys that
 * come in the list's order cost one comparison each.
 */
int scn_spec_index_after(const struct scn_arg_spec *list, const char *key, int prev);

/* Flag and word tables: entry count, i-th name and value, lookup (case-insensitive). */
size_t scn_table_count(enum scn_table t);
const char *scn_table_name(enum scn_table t, size_t i, uint64_t *value);
int scn_table_lookup(enum scn_table t, const char *name, uint64_t *value);
/* The attributes an object class has, as bits (1 << enum scn_attr). */
unsigned scn_class_attrs(enum scn_class c);

/* Capabilities `require` accepts ("mw_type1", …). */
size_t scn_cap_count(void);
const char *scn_cap_name(size_t i);
/* Returns the index of a capability, or -ENOENT. */
int scn_cap_find(const char *name);

/* ------------------------------------------------------------- AST -- */

struct scn_value {
	uint16_t kind;     /* one enum scn_vkind bit */
	uint32_t line, col;
	uint64_t num;      /* INT: the value; FLAGS: the bits; WORD: its table value;
	                      ADDR, ATTR: the offset's magnitude */
	uint8_t neg;       /* ADDR, ATTR: the offset is subtracted */
	uint8_t attr;      /* ATTR: enum scn_attr */
	int16_t node;      /* OBJ, ADDR, ATTR, NODE: node index */
	int32_t obj;       /* OBJ, ADDR, ATTR: object instance (scn_file.objs) */
	char *str;         /* STR: the unescaped text; HEX: the digits, lower case, no 0x
	                      (owned by the file) */
};

struct scn_arg {
	const struct scn_arg_spec *spec; /* the key (an entry of the call's args or query) */
	struct scn_value v;
};

/* An object instance: every successful-looking creation makes a new one. */
struct scn_obj {
	char name[SCN_NAME_MAX];
	uint8_t node;
	uint32_t cls;      /* one enum scn_class bit */
	uint32_t step;     /* index of the creating step */
	uint32_t line;     /* line of the creating step */
	uint8_t live;      /* live after the last step, as far as the parser can tell */
};

struct scn_step {
	uint32_t line, col;      /* of the node name (connect: of the word connect) */
	uint16_t call;           /* index into the call table */
	uint8_t node;            /* the acting node (connect: the first QP's) */
	int32_t obj;             /* the object NAME names; -1 if the call takes none */
	uint32_t obj_col;
	uint8_t nargs;
	struct scn_arg args[SCN_ARGS_MAX];
	uint8_t nexpect;         /* 0: no expect clause (the harness takes the model's) */
	uint32_t expect_col;
	struct m_outcome expect[SCN_OUTCOMES_MAX];
	uint8_t nseen;           /* `seen` groups after the outcomes (in a repeat block only): each a
	                            set of the expect list's outcomes (bit i: expect[i]) of which the
	                            block's iterations of this step must have given one at least */
	uint8_t seen[SCN_SEEN_MAX];
	uint32_t seen_col[SCN_SEEN_MAX];
	uint8_t nconds;          /* query: expect KEY=VALUE conditions (all must hold; they name the
	                            call's success, model_outcome_success, as its outcome) */
	struct scn_arg conds[SCN_ARGS_MAX];
};

struct scn_file {
	char name[SCN_TEXT_MAX];          /* the file name given to the parser */
	char title[SCN_TEXT_MAX];         /* default: the file name's last component */
	uint32_t title_line;              /* 0 if defaulted */
	size_t ncites;
	char cites[SCN_CITES_MAX][SCN_TEXT_MAX];
	size_t nrules;                    /* the ID of each `cite rule ID [comment]` line, and where */
	struct scn_rule_cite {
		uint32_t line, col;
		char id[SCN_NAME_MAX];    /* "" when the word is longer than an ID can be */
	} rules[SCN_CITES_MAX];
	size_t nrequires;
	uint8_t requires[SCN_REQUIRES_MAX]; /* capability indexes (scn_cap_name) */
	size_t nnodes;
	char nodes[SCN_NODES_MAX][SCN_NAME_MAX];
	size_t nsteps;
	struct scn_step *steps;
	size_t nobjs;
	struct scn_obj *objs;
	size_t nblocks;                   /* the `repeat N { ... }` blocks, in the file's order */
	struct scn_block {
		uint32_t line;            /* of the `repeat` line */
		uint32_t first, nbody;    /* steps[first, first + nbody): the body's first iteration; */
		uint32_t times;           /* the N iterations follow one another from first */
	} *blocks;
	size_t cap_steps, cap_objs;       /* allocated sizes (internal) */
};

/* ------------------------------------------------------ diagnostics -- */

struct scn_diag {
	uint16_t code;           /* enum scn_err */
	uint32_t line, col;      /* 1-based; col counts characters */
	char msg[400];           /* room for lint's allowed sets too */
	char hint[224];          /* "" if none */
};

struct scn_diags {
	size_t n;                /* kept, at most SCN_DIAG_MAX */
	size_t dropped;          /* found beyond the cap */
	struct scn_diag d[SCN_DIAG_MAX];
};

/*
 * Format d as "FILE:LINE:COL: MESSAGE\n" plus, if d has a hint,
 * "  hint: HINT\n" into buf (always NUL-terminated when len > 0, truncated
 * if short). Returns the length the full text needs (like snprintf).
 */
size_t scn_diag_format(const struct scn_diag *d, const char *file, char *buf, size_t len);
/*
 * The same with the source line src (its text, no line end; NULL: none)
 * shown between the message and the hint, with a caret under column col
 * spanning the word that starts there:
 *     FILE:12:31: unknown name 'dst' on node b
 *        12 | b: write q local=src+0 remote=dst+0 len=64
 *           |                               ^~~~~
 *       hint: ...
 */
size_t scn_diag_format_src(const struct scn_diag *d, const char *file, const char *src, char *buf, size_t len);

/* --------------------------------------------------------- parsing -- */

/*
 * Parse len bytes of scenario text (need not be NUL-terminated; NUL bytes
 * are an error). filename is used for messages and the default title (NULL:
 * "-"). diags (required) is reset and receives every error found.
 * Returns 0 and a new file in *out (release with scn_free), -EINVAL when the
 * text has errors (*out = NULL; see diags), -ENOMEM, or -EINVAL for bad
 * arguments (out or diags NULL; no diagnostic then).
 */
int scn_parse_text(const char *text, size_t len, const char *filename, struct scn_file **out,
		   struct scn_diags *diags);

/*
 * Read path (at most SCN_FILE_MAX bytes) and parse it like scn_parse_text.
 * Returns 0, -EINVAL (errors in diags; unreadable or too large files give
 * one diagnostic at 0:0 and return the negative errno of the failure, e.g.
 * -ENOENT), or -ENOMEM.
 */
int scn_parse_file(const char *path, struct scn_file **out, struct scn_diags *diags);

/*
 * The conventions every corpus file keeps (rdmacheck lint enforces them; run
 * does not): a `title` line, at least one `cite rule ID` line, and every
 * cited ID a rule of the model (model/rules.def). Appends one diagnostic per
 * problem to d (file-relative line and column; a missing line is reported at
 * 1:1) and returns their number.
 */
size_t scn_meta_check(const struct scn_file *f, struct scn_diags *d);
/*
 * The len of every registration f makes (reg_mr, rpma_mr_reg,
 * dat_lmr_create; every node's, each at most M_MR_LEN_MAX: a longer one is
 * refused by its call), summed: the memory a real stack pins for the file
 * (the VM's guest must hold it, harness/suite/round.c).
 */
uint64_t scn_registered_bytes(const struct scn_file *f);

/* What scn_append_step changed in a file, to take back with scn_unappend. */
struct scn_mark {
	size_t nsteps, nobjs;
	uint8_t live[SCN_OBJS_MAX]; /* objs[i].live before the step */
};

/*
 * Parse one more line (len bytes, no newline) onto f, a file scn_parse_text
 * gave without errors, as its line lineno after its steps, then check the
 * whole file again: f becomes what scn_parse_text gives for f's text with
 * the line appended (a header line there is the same error). Returns 0
 * with what changed in *m (undo it with scn_unappend), -EINVAL with the
 * errors in diags (reset first) and f unchanged, or -ENOMEM (f unchanged).
 */
int scn_append_step(struct scn_file *f, const char *line, size_t len, uint32_t lineno, struct scn_diags *diags,
		    struct scn_mark *m);
/* Take back what scn_append_step did to f (m: its mark). */
void scn_unappend(struct scn_file *f, const struct scn_mark *m);

/* Release a parsed file; NULL is fine. */
void scn_free(struct scn_file *f);

/* ------------------------------------------------------- accessors -- */

/* The call of step s. */
const struct scn_call *scn_step_call(const struct scn_step *s);
/* The argument of s given for key, or NULL if absent (also for BARE keys): scn_step_arg's search. */
const struct scn_value *scn_step_arg_find(const struct scn_step *s, const char *key);
/* The same, inline where s has no arguments (resolution asks each call's every key: most steps have none). */
static inline const struct scn_value *scn_step_arg(const struct scn_step *s, const char *key)
{
	return s->nargs ? scn_step_arg_find(s, key) : NULL;
}
/*
 * Does the expect clause of s allow o? An outcome list: o is one of them; a
 * query's KEY=VALUE results: o is the call's success (model_outcome_success:
 * a query reports its results with its success only). No expect clause: 1.
 */
int scn_step_expects(const struct scn_step *s, struct m_outcome o);
/* Has s an expect clause (outcomes or KEY=VALUE results) that narrows what the model allows? */
int scn_step_narrows(const struct scn_step *s);

/* ------------------------------------------------------------ text -- */

/*
 * Length of the valid UTF-8 sequence at p (at most n bytes; 1 for ASCII), or
 * 0 for an invalid one (overlong, surrogate, beyond U+10FFFF, truncated).
 * The one UTF-8 check of the project (scenario text, report output).
 */
size_t scn_utf8_len(const unsigned char *p, size_t n);

/* --------------------------------------------------------- printing -- */

/*
 * Write step s of f back as canonical scenario text (one line, no newline:
 * explicit nodes only where they differ from the step's, flags in table
 * order, integers in decimal, strings re-escaped) into buf. Parsing the
 * output again gives the same step. Returns the length the full text needs.
 */
size_t scn_step_format(const struct scn_file *f, const struct scn_step *s, char *buf, size_t len);

/* Write a value as scenario text relative to node (see scn_step_format). */
size_t scn_value_format(const struct scn_file *f, const struct scn_arg *a, unsigned node,
			char *buf, size_t len);

#endif
