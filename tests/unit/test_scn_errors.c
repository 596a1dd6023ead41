/*
 * Unit tests of the scenario parser's diagnostics: one test per distinct
 * message (enum scn_err), with its exact position and hint; collecting
 * several errors; the cap.
 */
#include "harness/lang/scn.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H "nodes a b\n"
/* 17 chained WRs on a.q (lines 5-21 after P and two creations) */
#define CHAIN4 "a: write q local=m remote=m len=8 chain\n" "a: write q local=m remote=m len=8 chain\n" \
	       "a: write q local=m remote=m len=8 chain\n" "a: write q local=m remote=m len=8 chain\n"
#define CHAIN17 CHAIN4 CHAIN4 CHAIN4 CHAIN4 "a: write q local=m remote=m len=8 chain\n"
#define P H "a: alloc_pd pd\n"
#define MWSETUP P "a: reg_mr m pd=pd len=4K\na: create_qp q pd=pd\na: alloc_mw w pd=pd type=2\n"
#define RPMA "nodes a\na: rpma_mr_reg r len=1 usage=READ_SRC\n"

#define PDS4(n) "a: alloc_pd p" n "1\na: alloc_pd p" n "2\na: alloc_pd p" n "3\na: alloc_pd p" n "4\n"
#define PDS16 PDS4("a") PDS4("b") PDS4("c") PDS4("d")
#define QPS4(n) "b: create_qp q" n "1 pd=p\nb: create_qp q" n "2 pd=p\nb: create_qp q" n "3 pd=p\nb: create_qp q" n "4 pd=p\n"
#define QPS16 QPS4("a") QPS4("b") QPS4("c") QPS4("d")


static struct scn_diags d;

/* The first diagnostic of text, formatted for file "t.scn". */
static const char *first_diag(const char *text, size_t len, char *buf, size_t size)
{
	struct scn_file *f = NULL;
	int rc = scn_parse_text(text, len, "t.scn", &f, &d);

	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_ptr_null(f);
	ck_assert_uint_ge(d.n, 1);
	scn_diag_format(&d.d[0], "t.scn", buf, size);
	return buf;
}

static const struct bad {
	enum scn_err code;
	const char *text;
	size_t len;          /* 0: strlen(text) */
	const char *want;    /* the formatted diagnostic, hint line included */
} bad[] = {
	{ SCN_E_NUL, "nodes a\0b\n", 10, "t.scn:1:8: NUL byte in the text\n" },
	/* a create's size at the device's own limit: max, max+1 (LIM-1, LIM-2) */
	{ SCN_E_UNKNOWN_FLAG, P "a: create_cq c depth=maxx\n", 0,
	  "t.scn:3:22: unknown device_limit name 'maxx'\n  hint: did you mean 'max'?\n" },
	{ SCN_E_UNKNOWN_FLAG, P "a: create_srq s pd=pd max_sge=max+2\n", 0,
	  "t.scn:3:31: unknown device_limit name 'max+2'\n  hint: did you mean 'max+1'?\n" },
	{ SCN_E_RANGE, P "a: create_srq s pd=pd max_sge=2\n", 0,
	  "t.scn:3:31: max_sge=2 is out of range 1..1\n  hint: or max (the device's own limit) or max+1\n" },
	{ SCN_E_RANGE, P "a: create_qp q pd=pd max_send_wr=17\n", 0,
	  "t.scn:3:34: max_send_wr=17 is out of range 0..16\n  hint: or max (the device's own limit) or max+1\n" },
	{ SCN_E_UTF8, "nodes a\n# \xff\n", 0, "t.scn:2:3: invalid UTF-8\n  hint: save the file as UTF-8\n" },
	{ SCN_E_NON_ASCII, H "a: alloc_pd p\xc3\xa9\n", 0,
	  "t.scn:2:14: non-ASCII character outside a string or comment\n"
	  "  hint: names, keys and values are ASCII; quote the text\n" },
	{ SCN_E_CONTROL, H "a: alloc_pd\x01 pd\n", 0, "t.scn:2:12: control character 0x01\n" },
	{ SCN_E_UNTERMINATED, H "b: dat_ia_open name=\"abc\n", 0,
	  "t.scn:2:21: unterminated string\n  hint: close it with '\"'\n" },
	{ SCN_E_BAD_ESCAPE, H "b: dat_ia_open name=\"a\\nb\"\n", 0,
	  "t.scn:2:21: bad escape '\\n' in a string\n  hint: only \\\" and \\\\ are escapes\n" },
	{ SCN_E_UNKNOWN_STATEMENT, "titel x\n", 0,
	  "t.scn:1:1: unknown statement 'titel'\n  hint: did you mean 'title'?\n" },
	{ SCN_E_NEEDS_TEXT, "title   \t\n", 0, "t.scn:1:1: 'title' needs text\n" },
	{ SCN_E_TWICE, "title a\ntitle b\n", 0, "t.scn:2:1: 'title' given twice (first at line 1)\n" },
	{ SCN_E_HEADER_AFTER_STEP, P "cite x\n", 0,
	  "t.scn:3:1: header line 'cite' after the first step\n  hint: header lines come before the steps\n" },
	{ SCN_E_NODE_COUNT, "nodes\n", 0, "t.scn:1:1: nodes takes 1 to 16 names\n" },
	{ SCN_E_BAD_NODE_NAME, "nodes a B\n", 0,
	  "t.scn:1:9: bad node name 'B'\n  hint: node names are [a-z][a-z0-9_]*, at most 31 bytes\n" },
	{ SCN_E_NODE_TWICE, "nodes a a\n", 0, "t.scn:1:9: node 'a' declared twice\n" },
	{ SCN_E_UNKNOWN_CAP, "require rereg mw_typ2\n", 0,
	  "t.scn:1:15: unknown capability 'mw_typ2'\n  hint: did you mean 'mw_type2'?\n" },
	{ SCN_E_NO_NODES, "a: alloc_pd pd\n", 0,
	  "t.scn:1:1: a step before the nodes line\n  hint: declare them first, e.g. 'nodes a b'\n" },
	{ SCN_E_NO_STEPS, "# empty\nnodes a\n", 0,
	  "t.scn:2:1: no steps\n  hint: a scenario has at least one step\n" },
	{ SCN_E_UNKNOWN_NODE, H "c: alloc_pd pd\n", 0, "t.scn:2:1: unknown node 'c'\n  hint: nodes: a b\n" },
	{ SCN_E_UNKNOWN_CALL, H "a: alloc_pdd pd\n", 0,
	  "t.scn:2:4: unknown call 'alloc_pdd'\n  hint: did you mean 'alloc_pd'?\n" },
	{ SCN_E_NEEDS_NAME, H "a: alloc_pd\n", 0,
	  "t.scn:2:4: alloc_pd needs the name of a PD\n  hint: e.g. 'a: alloc_pd x …'\n" },
	{ SCN_E_BAD_NAME, H "a: alloc_pd 9p\n", 0,
	  "t.scn:2:13: bad name '9p'\n  hint: names are [A-Za-z_][A-Za-z0-9_]*, at most 31 bytes\n" },
	{ SCN_E_RESERVED_NAME, H "a: alloc_pd rkey\n", 0,
	  "t.scn:2:13: 'rkey' cannot name an object: it is an attribute name\n" },
	{ SCN_E_LIVE, P "a: alloc_pd pd\n", 0,
	  "t.scn:3:13: 'pd' already exists on node a (created at line 2)\n"
	  "  hint: destroy it first or use another name\n" },
	{ SCN_E_UNKNOWN_NAME, H "a: dealloc_pd p\n", 0,
	  "t.scn:2:15: unknown name 'p' on node a\n  hint: create it first: alloc_pd\n" },
	{ SCN_E_WRONG_CLASS, P "a: dereg_mr pd\n", 0,
	  "t.scn:3:13: 'pd' is a PD, dereg_mr needs an MR\n  hint: 'pd' was created at line 2\n" },
	{ SCN_E_UNKNOWN_KEY, P "a: reg_mr m pd=pd len=1 acess=0\n", 0,
	  "t.scn:3:25: unknown key 'acess' for reg_mr\n  hint: did you mean 'access'?\n" },
	{ SCN_E_KEY_TWICE, P "a: reg_mr m pd=pd len=1 len=2\n", 0, "t.scn:3:25: key 'len' given twice\n" },
	{ SCN_E_MISSING_KEY, P "a: reg_mr m pd=pd\n", 0, "t.scn:3:4: reg_mr needs len=\n" },
	{ SCN_E_NEEDS_VALUE, P "a: reg_mr m pd=pd len=\n", 0, "t.scn:3:19: key 'len' needs a value\n" },
	{ SCN_E_TAKES_NO_VALUE, MWSETUP "a: bind_mw w qp=q mr=m len=1 access=0 zero_based=1\n", 0,
	  "t.scn:6:39: key 'zero_based' takes no value\n" },
	{ SCN_E_BAD_INT, P "a: reg_mr m pd=pd len=12x\n", 0,
	  "t.scn:3:23: bad integer '12x'\n  hint: integers are decimal or 0x hex, with an optional K, M or G\n" },
	{ SCN_E_OVERFLOW, P "a: reg_mr m pd=pd len=0x40000000000000K\n", 0,
	  "t.scn:3:23: integer '0x40000000000000K' does not fit in 64 bits\n" },
	{ SCN_E_RANGE, P "a: alloc_mw w pd=pd type=256\n", 0, "t.scn:3:26: type=256 is out of range 0..255\n" },
	{ SCN_E_UNKNOWN_FLAG, P "a: reg_mr m pd=pd len=1 access=LOCAL_WRITE|REMOTE_RAED\n", 0,
	  "t.scn:3:32: unknown access name 'REMOTE_RAED'\n  hint: did you mean 'REMOTE_READ'?\n" },
	{ SCN_E_WRONG_KIND, P "a: reg_mr m pd=pd len=\"4\"\n", 0,
	  "t.scn:3:23: len takes an integer or an attribute NAME.ATTR\n" },
	{ SCN_E_BAD_REF, P "a: reg_mr m pd=a.b.c.d len=1\n", 0,
	  "t.scn:3:16: bad reference 'a.b.c.d'\n  hint: [NODE.]NAME, NAME+OFFSET or NAME.ATTR[+N]\n" },
	{ SCN_E_UNKNOWN_ATTR, P "a: reg_mr m pd=pd len=pd.lenn\n", 0,
	  "t.scn:3:23: unknown attribute 'lenn'\n  hint: did you mean 'len'?\n" },
	{ SCN_E_ATTR_CLASS, P "a: reg_mr m pd=pd len=pd.len\n", 0, "t.scn:3:23: a PD has no attribute 'len'\n" },
	{ SCN_E_BAD_HEX, RPMA "a: rpma_mr_remote_from_descriptor rr from=r bytes=abc\n", 0,
	  "t.scn:3:51: bad hex bytes 'abc'\n  hint: an even number of hex digits, 0x optional\n" },
	{ SCN_E_EXPECT_EMPTY, H "a: alloc_pd p expect\n", 0,
	  "t.scn:2:15: expect needs an outcome\n  hint: ok, an errno name, a completion status, …\n" },
	{ SCN_E_UNKNOWN_OUTCOME, H "a: alloc_pd p expect ok|EINVALL\n", 0,
	  "t.scn:2:22: unknown outcome 'EINVALL'\n  hint: did you mean 'EINVAL'?\n" },
	{ SCN_E_CANNOT_PRODUCE, H "a: alloc_pd p expect REM_ACCESS_ERR\n", 0,
	  "t.scn:2:22: 'REM_ACCESS_ERR' is not an outcome of alloc_pd\n"
	  "  hint: alloc_pd gives ok, errno, KERNEL_CRASH\n" },
	{ SCN_E_UNEXPECTED, H "a: alloc_pd p expect ok EINVAL\n", 0,
	  "t.scn:2:25: unexpected 'EINVAL'\n  hint: join alternatives with '|' and no blanks; over a repeat block's iterations, 'seen A|B' after them\n" },
	{ SCN_E_UNKNOWN_RESULT, P "a: create_qp q pd=pd\na: query_qp q expect stat=ERR\n", 0,
	  "t.scn:4:22: query_qp reports no 'stat'\n  hint: did you mean 'state'?\n" },
	{ SCN_E_CONNECT_OPERANDS, H "connect a.q\n", 0,
	  "t.scn:2:1: connect takes two operands NODE.QP NODE.QP\n  hint: e.g. connect a.q b.q\n" },
	{ SCN_E_SAME_NODE, P "a: create_qp q pd=pd\na: create_qp r pd=pd\nconnect a.q a.r\n", 0,
	  "t.scn:5:13: connect needs QPs on two different nodes\n" },
	{ SCN_E_OTHER_NODE, P "a: reg_mr m pd=pd len=4K\nb: alloc_pd pd\nb: reg_mr n pd=pd len=64 buf=a.m+8\n", 0,
	  "t.scn:5:30: buf= names 'm' of node a: it takes an object of the step's node\n" },
	{ SCN_E_DECL_NODE, "require dapl\nnodes a b\na: dat_ia_open\nb: dat_ia_open\na: dat_pz_create z\nb: dat_pz_create z\n"
	  "a: dat_ep_connect e pz=z peer=b.z accept=a.f\n", 0,
	  "t.scn:7:42: accept= makes 'f' on node b (the peer's), not on node a\n" },
	/* what the model holds (scn_limits.c): the step that passes a limit, the limit named */
	{ SCN_E_MODEL_LIMIT, "nodes a\n" PDS16 "a: alloc_pd p17\n", 0,
	  "t.scn:18:1: node a: the model holds at most 16 protection domains (alloc_pd, dat_pz_create, a node's "
	  "librpma peer)\n  hint: destroy some first, or split the scenario\n" },
	/* a destroyed PD's slot goes to a later alloc_pd (model/verbs/slot.c), never to another family's */
	{ SCN_E_MODEL_LIMIT, "nodes a\n" PDS16 "a: dealloc_pd pa1\na: alloc_pd p17\na: dat_pz_create z\n", 0,
	  "t.scn:20:1: node a: the model holds at most 16 protection domains (alloc_pd, dat_pz_create, a node's "
	  "librpma peer)\n  hint: this family's objects take slots never used before: split the scenario\n" },
	{ SCN_E_MODEL_LIMIT, "nodes a b\nb: alloc_pd p\n" QPS16 "a: dat_pz_create z\nb: dat_pz_create z\n"
	  "a: dat_ep_connect e pz=z peer=b.z\n", 0,
	  "t.scn:21:1: node b: the model holds at most 16 QPs (create_qp, and one on each side of dat_ep_connect "
	  "and rpma_connect)\n  hint: this family's objects take slots never used before: split the scenario\n" },
	{ SCN_E_MODEL_LIMIT, "nodes a\n" PDS16 "a: rpma_mr_reg r len=1 usage=READ_SRC\n", 0,
	  "t.scn:18:1: node a: the model holds at most 16 protection domains (alloc_pd, dat_pz_create, a node's "
	  "librpma peer)\n  hint: this family's objects take slots never used before: split the scenario\n" },
	{ SCN_E_MR_TOO_LONG, P "a: reg_mr m pd=pd len=1073741825\n", 0,
	  "t.scn:3:23: len=1073741825: the model holds at most 1073741824 bytes per registration\n"
	  "  hint: the agents make no larger buffer: use a smaller len\n" },
	/* chains of WRs (scn_chain.c) */
	/* a `repeat N { ... }` block (scn_parse.c) */
	{ SCN_E_REPEAT, P "repeat 2 {\nrepeat 3 {\n", 0,
	  "t.scn:4:1: repeat: a block inside another\n  hint: close the first block with '}' before opening another\n" },
	{ SCN_E_REPEAT, P "repeat 2\n", 0,
	  "t.scn:3:1: repeat: the line is 'repeat N {'\n  hint: e.g. 'repeat 10 {', the body on the next lines, then '}'\n" },
	{ SCN_E_REPEAT, P "repeat 1001 {\n", 0,
	  "t.scn:3:8: repeat: N is a count from 1 to 1000\n  hint: at most 1000 iterations (SCN_REPEAT_MAX)\n" },
	{ SCN_E_REPEAT, P "repeat 0 {\n", 0,
	  "t.scn:3:8: repeat: N is a count from 1 to 1000\n  hint: at most 1000 iterations (SCN_REPEAT_MAX)\n" },
	{ SCN_E_REPEAT, P "}\n", 0, "t.scn:3:1: repeat: '}' without a block\n  hint: a block opens with 'repeat N {'\n" },
	{ SCN_E_SEEN, P "a: alloc_pd p2 expect ok seen ok\n", 0,
	  "t.scn:3:26: seen: a group over the iterations of a repeat block, and this step is in none\n"
	  "  hint: put the step in a 'repeat N {' block; one run of a step is judged by expect alone\n" },
	{ SCN_E_REPEAT, P "repeat 2 {\na: create_cq c\na: destroy_cq c\n} x\n", 0,
	  "t.scn:6:3: repeat: '}' stands alone on its line\n" },
	{ SCN_E_REPEAT, P "repeat 2 {\n# nothing\n}\n", 0, "t.scn:5:1: repeat: the block has no step\n" },
	{ SCN_E_REPEAT, P "  repeat 2 {\na: create_cq c\na: destroy_cq c\n", 0,
	  "t.scn:3:3: repeat: the block is not closed\n  hint: close it with a line holding only '}'\n" },
	{ SCN_E_CHAIN, P "a: create_qp q pd=pd\na: reg_mr m pd=pd len=4K\na: write q local=m remote=m len=8 chain\n"
	  "a: fill m byte=1\n", 0,
	  "t.scn:5:35: chain: the next step must post a send WR on the same QP\n"
	  "  hint: write, read, write_imm, cas, fadd, send or local_inv on the same QP\n" },
	{ SCN_E_CHAIN, P "a: create_qp q pd=pd\na: reg_mr m pd=pd len=4K\n" CHAIN17 "a: write q local=m remote=m len=8\n", 0,
	  "t.scn:20:35: chain: a chain holds at most 16 WRs\n  hint: post the rest in a chain of its own\n" },
	{ SCN_E_CHAIN, P "a: create_qp q pd=pd\na: reg_mr m pd=pd len=4K\na: write q local=m remote=m len=8 chain\n"
	  "a: read q local=m remote=m len=8 wait=no\n", 0,
	  "t.scn:6:39: chain: a chained WR is waited for: no wait=no\n  hint: post it on its own to wait for it later\n" },
	/* lists of SGEs (scn_sge.c) */
	{ SCN_E_SGE, P "a: create_qp q pd=pd\na: reg_mr m pd=pd len=4K\na: write q local=m remote=m len=8 local2=m+8\n", 0,
	  "t.scn:5:42: SGE list: an SGE needs both its address and its length\n"
	  "  hint: give local, len (and lkey) of the same number\n" },
	{ SCN_E_SGE, P "a: create_qp q pd=pd\na: reg_mr m pd=pd len=4K\na: write q local=m remote=m len=8 local3=m+8 len3=8\n",
	  0, "t.scn:5:42: SGE list: an SGE list has no gaps\n"
	  "  hint: number the SGEs from local= on: local2=, local3=, local4=\n" },
	{ SCN_E_SGE, P "a: create_qp q pd=pd\na: reg_mr m pd=pd len=4K\na: write q local=m remote=m len=8 local2=m len2=8 inline\n",
	  0, "t.scn:5:42: SGE list: several SGEs are not posted in a chain or inline\n"
	  "  hint: post it alone, without inline\n" },
	/* posts through the ibv_wr_* API (scn_wrpost.c) */
	{ SCN_E_WR_POST, P "a: create_qp q pd=pd\na: reg_mr m pd=pd len=4K\na: write q local=m remote=m len=8 wr=yes\n", 0,
	  "t.scn:5:38: wr=yes: QP 'q' is not made by create_qp ex=yes\n"
	  "  hint: make the QP with create_qp ex=yes send_ops=...\n" },
	{ SCN_E_WR_POST,
	  P "a: create_qp q pd=pd ex=yes send_ops=SEND\na: reg_mr m pd=pd len=4K\na: send q local=m len=8 imm wr=yes\n", 0,
	  "t.scn:5:32: wr=yes: QP 'q' was made without SEND_WITH_IMM in send_ops= (line 3): its ibv_wr_* builder is NULL\n"
	  "  hint: add the operation to the QP's send_ops=\n" },
	{ SCN_E_WR_POST,
	  P "a: create_qp q pd=pd ex=yes send_ops=RDMA_WRITE\na: reg_mr m pd=pd len=4K\n"
	    "a: write q local=m remote=m len=8 chain\na: write q local=m remote=m len=8 wr=yes\n", 0,
	  "t.scn:6:38: wr=yes: a WR posted with wr=yes is one WR between ibv_wr_start and ibv_wr_complete: no chain\n"
	  "  hint: post it on its own\n" },
	{ SCN_E_WR_POST,
	  P "a: create_qp q pd=pd ex=yes send_ops=SEND\na: reg_mr m pd=pd len=4K\na: send q local=m len=8 inline wr=yes\n", 0,
	  "t.scn:5:35: wr=yes: wr=yes takes no garble=, call (ibv_bind_mw) or inline (ibv_wr_set_inline_data)\n"
	  "  hint: post it without wr=yes\n" },
	{ SCN_E_WR_POST,
	  P "a: create_qp q pd=pd ex=yes send_ops=RDMA_WRITE\na: reg_mr m pd=pd len=4K\n"
	    "a: write q local=m remote=m len=8 wr=abort wait=no\n", 0,
	  "t.scn:5:38: wr=yes: wr=abort takes no wait=\n  hint: an aborted WR is never posted: nothing to wait for\n" },
	{ SCN_E_WR_POST,
	  P "a: create_qp q pd=pd ex=yes send_ops=BIND_MW\na: reg_mr m pd=pd len=4K access=MW_BIND\na: alloc_mw w pd=pd type=1\n"
	    "a: bind_mw w qp=q mr=m len=8 access=REMOTE_READ wr=yes\n", 0,
	  "t.scn:6:52: wr=yes: ibv_wr_bind_mw binds a type-2 window (a type-1 window is bound by ibv_bind_mw)\n"
	  "  hint: bind a window alloc_mw type=2 made\n" },
};

START_TEST(test_each_message)
{
	const struct bad *b = &bad[_i];
	char buf[512];

	first_diag(b->text, b->len ? b->len : strlen(b->text), buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, b->want) == 0, "[%d] got:\n%s\nwant:\n%s", _i, buf, b->want);
	ck_assert_int_eq(d.d[0].code, b->code);
}
END_TEST

/* Codes tested by the special cases below rather than the table. */
static const enum scn_err special[] = {
	SCN_E_FILE_TOO_LARGE, SCN_E_READ, SCN_E_LINE_TOO_LONG, SCN_E_TOO_MANY_WORDS,
	SCN_E_TEXT_TOO_LONG, SCN_E_TOO_MANY,
	SCN_E_NO_TITLE, SCN_E_NO_RULE_CITE, SCN_E_UNKNOWN_RULE, /* test_meta_* */
};

START_TEST(test_every_message_is_tested)
{
	for (unsigned e = 0; e < SCN_E_COUNT_; e++) {
		int seen = 0;
		enum scn_err back;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			seen |= bad[i].code == e;
		for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
			seen |= special[i] == e;
		ck_assert_msg(seen, "no test for message %u '%s'", e, scn_err_str(e));
		ck_assert_str_ne(scn_err_str(e), "?");
		ck_assert_int_eq(scn_err_parse(scn_err_str(e), &back), 0);
		ck_assert_int_eq(back, e);
	}
	ck_assert_str_eq(scn_err_str(SCN_E_COUNT_), "?");
}
END_TEST

/* The corpus conventions (scn_meta_check) of text, every diagnostic formatted into buf. */
static size_t meta_diags(const char *text, char *buf, size_t size)
{
	struct scn_file *f = NULL;
	size_t n, used = 0;

	ck_assert_int_eq(scn_parse_text(text, strlen(text), "t.scn", &f, &d), 0);
	memset(&d, 0, sizeof(d));
	n = scn_meta_check(f, &d);
	ck_assert_uint_eq(n, d.n);
	buf[0] = '\0';
	for (size_t i = 0; i < d.n && used < size; i++)
		used += scn_diag_format(&d.d[i], "t.scn", buf + used, size - used);
	scn_free(f);
	return n;
}

START_TEST(test_meta_missing_title_and_rule)
{
	char buf[1024];

	ck_assert_uint_eq(meta_diags(P, buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "t.scn:1:1: no 'title' line\n"
		"  hint: say in one line what the scenario shows: 'title …' (scenarios/TEMPLATE.scn)\n"
		"t.scn:1:1: no 'cite rule ID' line\n"
		"  hint: name the model rule it exercises, e.g. 'cite rule MR-ACC-1' (rdmacheck coverage lists the rules)\n");
	ck_assert_int_eq(d.d[0].code, SCN_E_NO_TITLE);
	ck_assert_int_eq(d.d[1].code, SCN_E_NO_RULE_CITE);
	/* A free-text cite is not a rule cite. */
	ck_assert_uint_eq(meta_diags("title t\ncite ibv_reg_mr(3)\n" P, buf, sizeof(buf)), 1);
	ck_assert_int_eq(d.d[0].code, SCN_E_NO_RULE_CITE);
}
END_TEST

START_TEST(test_meta_unknown_rule)
{
	char buf[1024];

	ck_assert_uint_eq(meta_diags("title t\ncite rule PD-1 (a comment)\ncite rule  MR-ACC-11\n" P,
				     buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "t.scn:3:12: unknown rule 'MR-ACC-11'\n  hint: did you mean 'MR-ACC-1'?\n");
	ck_assert_int_eq(d.d[0].code, SCN_E_UNKNOWN_RULE);
	ck_assert_uint_eq(meta_diags("title t\ncite rule RA-ACC-1\n" P, buf, sizeof(buf)), 0);
}
END_TEST

START_TEST(test_file_too_large)
{
	size_t len = SCN_FILE_MAX + 1;
	char *text = malloc(len), buf[256];

	ck_assert_ptr_nonnull(text);
	memset(text, '\n', len);
	first_diag(text, len, buf, sizeof(buf));
	free(text);
	ck_assert_str_eq(buf, "t.scn:1:1: file is larger than 1048576 bytes\n");
	ck_assert_int_eq(d.d[0].code, SCN_E_FILE_TOO_LARGE);
}
END_TEST

START_TEST(test_read_errors)
{
	struct scn_file *f = NULL;
	char buf[256];

	ck_assert_int_eq(scn_parse_file("tests/fixtures/no-such.scn", &f, &d), -ENOENT);
	ck_assert_ptr_null(f);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_int_eq(d.d[0].code, SCN_E_READ);
	scn_diag_format(&d.d[0], "tests/fixtures/no-such.scn", buf, sizeof(buf));
	ck_assert_str_eq(buf, "tests/fixtures/no-such.scn:0:0: cannot read the file: No such file or directory\n");
	ck_assert_int_lt(scn_parse_file("tests", &f, &d), 0);
	ck_assert_int_eq(d.d[0].code, SCN_E_READ);
}
END_TEST

START_TEST(test_line_too_long)
{
	char text[2048], buf[256];

	memset(text, 'x', sizeof(text));
	memcpy(text, "nodes a\n#", 9);
	text[9 + SCN_LINE_MAX] = '\n';
	first_diag(text, 10 + SCN_LINE_MAX, buf, sizeof(buf));
	ck_assert_str_eq(buf, "t.scn:2:1: line is longer than 1024 bytes\n");
}
END_TEST

START_TEST(test_too_many_words)
{
	char text[512], buf[256];
	size_t n = (size_t)snprintf(text, sizeof(text), "nodes a\na: alloc_pd p");

	for (int i = 0; i < 50; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " x");
	first_diag(text, n, buf, sizeof(buf));
	ck_assert_str_eq(buf, "t.scn:2:105: more than 48 words on one line\n");
}
END_TEST

START_TEST(test_text_too_long)
{
	char text[1024], buf[256];
	size_t n = (size_t)snprintf(text, sizeof(text), "title ");

	memset(text + n, 'y', 600);
	n += 600;
	n += (size_t)snprintf(text + n, sizeof(text) - n, "\nnodes a\na: alloc_pd p\n");
	first_diag(text, n, buf, sizeof(buf));
	ck_assert_str_eq(buf, "t.scn:1:7: text is longer than 511 bytes\n");
}
END_TEST

START_TEST(test_too_many_cites)
{
	char text[2048], buf[256];
	size_t n = 0;

	for (int i = 0; i < 33; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "cite c%d\n", i);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "nodes a\na: alloc_pd p\n");
	first_diag(text, n, buf, sizeof(buf));
	ck_assert_str_eq(buf, "t.scn:33:1: too many cite lines (at most 32)\n");
}
END_TEST

START_TEST(test_too_many_objects)
{
	size_t size = 32 * (SCN_OBJS_MAX + 2), n;
	char *text = malloc(size), buf[256];

	ck_assert_ptr_nonnull(text);
	n = (size_t)snprintf(text, size, "nodes a\n");
	for (unsigned i = 0; i <= SCN_OBJS_MAX; i++)
		n += (size_t)snprintf(text + n, size - n, "a: alloc_pd p%u\n", i);
	first_diag(text, n, buf, sizeof(buf));
	free(text);
	ck_assert_str_eq(buf, "t.scn:1026:13: too many objects (at most 1024)\n");
}
END_TEST

START_TEST(test_collects_all_errors)
{
	static const char text[] = "nodes a b\n"
				   "a: alloc_pd pd\n"
				   "a: reg_rm m pd=pd len=4K\n"          /* unknown call */
				   "a: reg_mr m pd=pdd len=1x\n"         /* two errors on one line */
				   "b: write q local=m remote=a.m len=1\n" /* m was still declared: only q */
				   "a: dereg_mr m\n";
	struct scn_file *f;

	ck_assert_int_eq(scn_parse_text(text, sizeof(text) - 1, "t.scn", &f, &d), -EINVAL);
	ck_assert_uint_eq(d.n, 5);
	ck_assert_int_eq(d.d[0].code, SCN_E_UNKNOWN_CALL);
	ck_assert_int_eq(d.d[1].code, SCN_E_UNKNOWN_NAME);
	ck_assert_int_eq(d.d[2].code, SCN_E_BAD_INT);
	ck_assert_uint_eq(d.d[2].line, 4);
	ck_assert_int_eq(d.d[3].code, SCN_E_UNKNOWN_NAME); /* q */
	ck_assert_int_eq(d.d[4].code, SCN_E_UNKNOWN_NAME); /* b.m */
	ck_assert_uint_eq(d.dropped, 0);
}
END_TEST

START_TEST(test_refused_nodes_do_not_cascade)
{
	static const char many[] = "nodes n0 n1 n2 n3 n4 n5 n6 n7 n8 n9 n10 n11 n12 n13 n14 n15 n16\n"
				   "n0: alloc_pd p\n"   /* declared: checked */
				   "n16: alloc_pd p\n"  /* refused with the nodes line: no second error */
				   "n1: reg_mr m pd=n16.p len=4K\n";
	static const char bad[] = "nodes a B\nB: alloc_pd p\na: alloc_pd p\na: alloc_pd p\n";
	struct scn_file *f;
	char buf[512];

	ck_assert_int_eq(scn_parse_text(many, sizeof(many) - 1, "t.scn", &f, &d), -EINVAL);
	ck_assert_uint_eq(d.n, 1);
	scn_diag_format(&d.d[0], "t.scn", buf, sizeof(buf));
	ck_assert_str_eq(buf, "t.scn:1:61: nodes takes 1 to 16 names\n"
			      "  hint: the model holds at most 16 nodes (M_MAX_NODES)\n");
	/* a bad name: its steps are not errors again, the others are still checked */
	ck_assert_int_eq(scn_parse_text(bad, sizeof(bad) - 1, "t.scn", &f, &d), -EINVAL);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_int_eq(d.d[0].code, SCN_E_BAD_NODE_NAME);
	ck_assert_int_eq(d.d[1].code, SCN_E_LIVE);
	ck_assert_uint_eq(d.d[1].line, 4);
}
END_TEST

START_TEST(test_error_cap)
{
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), "nodes a\n");
	struct scn_file *f;

	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "a: nope\n");
	ck_assert_int_eq(scn_parse_text(text, n, "t.scn", &f, &d), -EINVAL);
	ck_assert_uint_eq(d.n, SCN_DIAG_MAX);
	ck_assert_uint_ge(d.dropped, 1);
}
END_TEST

START_TEST(test_format_truncates)
{
	struct scn_diag dg = { .code = SCN_E_NO_STEPS, .line = 3, .col = 4, .msg = "no steps", .hint = "h" };
	char small[8];

	ck_assert_uint_eq(scn_diag_format(&dg, "f", small, sizeof(small)), strlen("f:3:4: no steps\n  hint: h\n"));
	ck_assert_str_eq(small, "f:3:4: ");
}
END_TEST

Suite *suite_test_scn_errors(void)
{
	Suite *s = suite_create("test_scn_errors");
	TCase *tc = tcase_create("errors");

	tcase_add_loop_test(tc, test_each_message, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_every_message_is_tested);
	tcase_add_test(tc, test_meta_missing_title_and_rule);
	tcase_add_test(tc, test_meta_unknown_rule);
	tcase_add_test(tc, test_file_too_large);
	tcase_add_test(tc, test_read_errors);
	tcase_add_test(tc, test_line_too_long);
	tcase_add_test(tc, test_too_many_words);
	tcase_add_test(tc, test_text_too_long);
	tcase_add_test(tc, test_too_many_cites);
	tcase_add_test(tc, test_too_many_objects);
	tcase_add_test(tc, test_collects_all_errors);
	tcase_add_test(tc, test_refused_nodes_do_not_cascade);
	tcase_add_test(tc, test_error_cap);
	tcase_add_test(tc, test_format_truncates);
	suite_add_tcase(s, tc);
	return s;
}
