/*
 * Unit tests of a query's answer on the real stack's side (issue 32): the
 * agent's one line read in one pass (proto_next_field, stack_query_reply),
 * as proto_get reads each field, and a query_qp step that is one request,
 * its answer judged with no second one. The agent here is this test, on a
 * socketpair.
 */
#include "harness/api/verbs/api_verbs.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"
#include "tests/unit/agent_fx.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *const answer =
	"ok state=RTS access=14 max_send_wr=32 max_recv_wr=16 max_send_sge=1 max_recv_sge=2 max_inline=0 "
	"max_rd_atomic=1 max_dest_rd_atomic=3";

static const struct scn_call *query_qp(void)
{
	int i = scn_call_find("query_qp");

	ck_assert_int_ge(i, 0);
	return scn_call_get((size_t)i);
}

/* q[] of the result named key of call's query list. */
static uint64_t result(const struct scn_call *call, const struct hres *r, const char *key)
{
	int i = scn_spec_index(call->query, key);

	ck_assert_int_ge(i, 0);
	ck_assert_msg(r->qset & (1u << i), "%s not reported", key);
	return r->q[i];
}

START_TEST(test_fields_one_by_one)
{
	const char *pos = "ok  a=1 bb=22 word d=x=y e=";
	struct proto_field f;
	const char *keys[] = { "ok", "a", "bb", "word", "d", "e" }, *vals[] = { NULL, "1", "22", NULL, "x=y", "" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		ck_assert_int_eq(proto_next_field(&pos, &f), 1);
		ck_assert_uint_eq(f.klen, strlen(keys[i]));
		ck_assert_int_eq(memcmp(f.key, keys[i], f.klen), 0);
		if (!vals[i]) {
			ck_assert_ptr_null(f.val);
			continue;
		}
		ck_assert_ptr_nonnull(f.val);
		ck_assert_uint_eq(f.vlen, strlen(vals[i]));
		ck_assert_int_eq(memcmp(f.val, vals[i], f.vlen), 0);
	}
	ck_assert_int_eq(proto_next_field(&pos, &f), 0);
	ck_assert_int_eq(proto_next_field(&pos, &f), 0);
}
END_TEST

/* The first field of a key is the one proto_get finds, in every message here. */
START_TEST(test_first_field_is_proto_gets)
{
	const char *msgs[] = { "ok status=x state=RTS", "ok xstate=1 state=2 state=3", "state=9 ok", "ok n=1 n=2",
			       "err errno=5 msg=text with state=4 in it" };
	const char *keys[] = { "state", "status", "n", "errno", "msg" };

	for (size_t m = 0; m < sizeof(msgs) / sizeof(msgs[0]); m++)
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			char want[64] = "", got[64] = "";
			int has = proto_get(msgs[m], keys[k], want, sizeof(want)) == 0, found = 0;
			const char *pos = msgs[m];
			struct proto_field f;

			while (!found && proto_next_field(&pos, &f))
				if (f.val && f.klen == strlen(keys[k]) && memcmp(f.key, keys[k], f.klen) == 0) {
					found = 1;
					memcpy(got, f.val, f.vlen);
				}
			ck_assert_msg(has == found, "%s in '%s'", keys[k], msgs[m]);
			ck_assert_str_eq(got, want);
		}
}
END_TEST

START_TEST(test_query_answer_in_the_agents_order)
{
	const struct scn_call *call = query_qp();
	struct stack st = { 0 };
	struct hres r = { 0 };

	ck_assert_int_eq(stack_query_reply(&st, call, answer, &r), 0);
	ck_assert_uint_eq(result(call, &r, "state"), M_QPS_RTS);
	ck_assert_uint_eq(result(call, &r, "access"), 14);
	ck_assert_uint_eq(result(call, &r, "max_send_wr"), 32);
	ck_assert_uint_eq(result(call, &r, "max_recv_sge"), 2);
	ck_assert_uint_eq(result(call, &r, "max_inline"), 0);
	ck_assert_uint_eq(result(call, &r, "max_dest_rd_atomic"), 3);
}
END_TEST

/* Any order, the first of a key, 0x and octal as strtoull reads them, a value too long to be ours unread. */
START_TEST(test_query_answer_as_proto_get_reads_it)
{
	const struct scn_call *call = query_qp();
	struct stack st = { 0 };
	struct hres r = { 0 };
	char line[256];

	snprintf(line, sizeof(line), "ok max_inline=0x10 state=ERR max_send_wr=010 state=RTS access=%0100d", 7);
	ck_assert_int_eq(stack_query_reply(&st, call, line, &r), 0);
	ck_assert_uint_eq(result(call, &r, "state"), M_QPS_ERR);
	ck_assert_uint_eq(result(call, &r, "max_inline"), 16);
	ck_assert_uint_eq(result(call, &r, "max_send_wr"), 8);
	ck_assert_int_eq(r.qset & (1u << scn_spec_index(call->query, "access")), 0);
	ck_assert_int_eq(r.qset & (1u << scn_spec_index(call->query, "max_recv_wr")), 0);
}
END_TEST

START_TEST(test_query_answer_bad_number)
{
	const struct scn_call *call = query_qp();
	const char *bad[] = { "ok state=RTS max_send_wr=-1", "ok max_recv_wr=12x", "ok state=NOPE" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct stack st = { 0 };
		struct hres r = { 0 };

		ck_assert_int_eq(stack_query_reply(&st, call, bad[i], &r), -EPROTO);
		ck_assert_ptr_nonnull(strstr(st.err, "in the answer"));
	}
}
END_TEST

START_TEST(test_spec_index_hint)
{
	const struct scn_call *call = query_qp();

	int last = 0;

	while (call->query[last + 1].key)
		last++;
	ck_assert_int_eq(scn_spec_index_after(call->query, "access", 0), 1);
	ck_assert_int_eq(scn_spec_index_after(call->query, "access", -1), 1); /* not next: searched */
	ck_assert_int_eq(scn_spec_index_after(call->query, "access", 3), 1);
	ck_assert_int_eq(scn_spec_index_after(call->query, "access", last), 1); /* next is the list's end */
	ck_assert_int_eq(scn_spec_index_after(call->query, "nope", 0), -ENOENT);
}
END_TEST

/* A query_qp step is one request; its answer gives every result, read before the step returns. */
START_TEST(test_query_qp_is_one_request)
{
	static struct scn_file f;
	struct stack st;
	struct hcall c = { 0 };
	struct hres r;
	struct proto_rd rd = { 0 };
	char req[PROTO_LINE_MAX], line[PROTO_LINE_MAX];
	int peer = agent_fx_one_node(&st, &f), n = -1;

	c.call = (uint16_t)scn_call_find("query_qp");
	c.op = M_OP_QUERY_QP;
	c.obj = 2;
	snprintf(line, sizeof(line), "%s\n", answer);
	ck_assert_int_eq(write(peer, line, strlen(line)), (int)strlen(line)); /* answered before it is asked */
	ck_assert_int_eq(stack_exec_verbs(&st, &c, &r), 0);
	ck_assert_int_eq(r.out.kind, M_OUT_OK);
	ck_assert_uint_eq(result(query_qp(), &r, "state"), M_QPS_RTS);
	ck_assert_uint_eq(result(query_qp(), &r, "max_rd_atomic"), 1);
	ck_assert_int_ge(proto_recv(peer, &rd, req, sizeof(req), 1000), 0);
	ck_assert_str_eq(req, "query_qp id=2");
	ck_assert_int_eq(proto_rd_ready(&rd), 0);
	ck_assert_int_eq(ioctl(peer, FIONREAD, &n), 0);
	ck_assert_int_eq(n, 0); /* no second request */
	close(st.ag[0].fd);
	close(peer);
}
END_TEST

Suite *suite_test_stack_query(void)
{
	Suite *s = suite_create("test_stack_query");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fields_one_by_one);
	tcase_add_test(tc, test_first_field_is_proto_gets);
	tcase_add_test(tc, test_query_answer_in_the_agents_order);
	tcase_add_test(tc, test_query_answer_as_proto_get_reads_it);
	tcase_add_test(tc, test_query_answer_bad_number);
	tcase_add_test(tc, test_spec_index_hint);
	tcase_add_test(tc, test_query_qp_is_one_request);
	suite_add_tcase(s, tc);
	return s;
}
