/*
 * Unit tests of posts through the ibv_wr_* API (wr=yes, WR-POST-1) in the
 * harness: the resolution carries wr= into the call (harness/api/verbs/
 * resolve_verbs.c), and the real stack's post and bind requests ask the
 * agent for the ibv_wr_* path (wrx=1; wr=abort: wrx=2, stack_verbs.c);
 * without wr= they do not.
 */
#include "tests/unit/agent_fx.h"
#include "tests/unit/resolve_fx.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include "harness/api/verbs/api_verbs.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char text[] =
	"nodes a\n"
	"a: alloc_pd pd\n"                                                                     /* 2 */
	"a: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE|MW_BIND\n"                   /* 3 */
	"a: create_qp q pd=pd ex=yes send_ops=RDMA_WRITE|SEND|BIND_MW\n"                       /* 4 */
	"a: write q local=m remote=m len=8 wr=yes\n"                                           /* 5 */
	"a: write q local=m remote=m len=8 wr=no\n"                                            /* 6 */
	"a: send q local=m len=8\n"                                                            /* 7 */
	"a: alloc_mw w pd=pd type=2\n"                                                         /* 8 */
	"a: bind_mw w qp=q mr=m len=8 access=REMOTE_WRITE wr=yes\n"                            /* 9 */
	"a: send q local=m len=8 wr=abort\n";                                                 /* 10 */

static void setup(void)
{
	fx_parse(text, "wrpost.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_WR_POST_1_wr_key_resolves)
{
	ck_assert_uint_eq(fx_ok(5).verbs.wr_api, 1);
	ck_assert_uint_eq(fx_ok(6).verbs.wr_api, 0);
	ck_assert_uint_eq(fx_ok(7).verbs.wr_api, 0);
	ck_assert_uint_eq(fx_ok(9).verbs.wr_api, 1);
	ck_assert_uint_eq(fx_ok(10).verbs.wr_api, 2);
}
END_TEST

/* The request stack_exec_verbs writes for c (its agent answering reply). */
static void request_of(const struct hcall *c, const char *reply, char *req, size_t len)
{
	static struct scn_file f;
	struct stack st;
	struct hres r;
	struct proto_rd rd = { 0 };
	char line[PROTO_LINE_MAX];
	int peer = agent_fx_one_node(&st, &f);

	snprintf(line, sizeof(line), "%s\n", reply);
	ck_assert_int_eq(write(peer, line, strlen(line)), (int)strlen(line));
	ck_assert_int_eq(stack_exec_verbs(&st, c, &r), 0);
	ck_assert_int_ge(proto_recv(peer, &rd, req, len, 1000), 0);
	close(st.ag[0].fd);
	close(peer);
}

START_TEST(test_WR_POST_1_requests_ask_for_the_wr_api)
{
	char req[PROTO_LINE_MAX];
	struct hcall c = fx_ok(5);

	request_of(&c, "ok status=SUCCESS vendor_err=0", req, sizeof(req));
	ck_assert_ptr_nonnull(strstr(req, " wrx=1"));
	c = fx_ok(6);
	request_of(&c, "ok status=SUCCESS vendor_err=0", req, sizeof(req));
	ck_assert_ptr_null(strstr(req, "wrx="));
	c = fx_ok(9);
	request_of(&c, "ok status=SUCCESS rkey=1 vendor_err=0", req, sizeof(req));
	ck_assert_ptr_nonnull(strstr(req, " wrx=1"));
	c = fx_ok(10); /* ended by ibv_wr_abort */
	request_of(&c, "ok", req, sizeof(req));
	ck_assert_ptr_nonnull(strstr(req, " wrx=2"));
}
END_TEST

Suite *suite_test_wrpost(void)
{
	Suite *s = suite_create("wrpost");
	TCase *tc = tcase_create("wrpost");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_WR_POST_1_wr_key_resolves);
	tcase_add_test(tc, test_WR_POST_1_requests_ask_for_the_wr_api);
	suite_add_tcase(s, tc);
	return s;
}
