/*
 * Unit tests of the record of reality (harness/run/tape.h, issue 30): the
 * recorder around an engine (tape_rec.c) and the player that answers from
 * its record (tape_play.c). Reality is runner_fx.h's scripted fake; a run
 * recorded and played back must be judged the same, verdict, line and reason;
 * a record that ends before the run of today, or is of other calls, says so.
 */
#include "tests/unit/runner_fx.h"
#include "harness/run/proto.h"
#include "harness/run/tape.h"
#include "harness/suite/rejudge.h"

#include <jansson.h>

START_TEST(test_tape_bytes_round_trip)
{
	uint8_t b[10000], *back;
	size_t n;
	char *s;

	for (size_t i = 0; i < sizeof(b); i++) /* runs, literals, runs of 3 (written as literals) */
		b[i] = i < 4096 ? 0 : i < 5000 ? (uint8_t)(i * 7 + 1) : i < 5003 ? 0x11 : i < 9000 ? 0x5a : (uint8_t)i;
	s = tape_bytes_encode(b, sizeof(b));
	ck_assert_ptr_nonnull(s);
	ck_assert(strncmp(s, "00*4096,", 8) == 0);
	ck_assert_int_eq(tape_bytes_decode(s, &back, &n), 0);
	ck_assert_uint_eq(n, sizeof(b));
	ck_assert(memcmp(b, back, n) == 0);
	free(back);
	free(s);
	s = tape_bytes_encode(b, 0);
	ck_assert_str_eq(s, "");
	ck_assert_int_eq(tape_bytes_decode(s, &back, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(s);
	ck_assert_int_eq(tape_bytes_decode("0g", &back, &n), -EINVAL);
	ck_assert_int_eq(tape_bytes_decode("00*", &back, &n), -EINVAL);
	ck_assert_int_eq(tape_bytes_decode("abc", &back, &n), -EINVAL);
	ck_assert_int_eq(tape_bytes_decode("5a*3,0102", &back, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert(back[0] == 0x5a && back[2] == 0x5a && back[3] == 1 && back[4] == 2);
	free(back);
}
END_TEST

/* Run f on the fake, recorded: the verdict into *live, the record's lines returned (malloc'd). */
static char *record(const struct scn_file *f, const struct run_opts *o, struct result *live)
{
	struct tape_rec tr;
	char *tape;

	tape_rec_init(&tr, &fake_ops, NULL, o, f);
	ck_assert_int_eq(run_scenario(f, &tr.ops, &tr, o, live), 0);
	ck_assert_int_eq(tape_rec_finish(&tr, live), 0);
	tape = tape_take(live);
	ck_assert_ptr_nonnull(tape);
	ck_assert(!live->detail || !strstr(live->detail, TAPE_MARK)); /* the detail is as without the record */
	return tape;
}

/* Play the record tape (lines) for f: the verdict into *r, the player's status returned. */
static enum tape_status play(const struct scn_file *f, const struct run_opts *o, const char *tape, struct result *r)
{
	struct tape_play tp;
	char err[256];
	enum tape_status st;

	ck_assert_msg(tape_play_init(&tp, tape, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(tp.head.engine, "fake");
	ck_assert_str_eq(tp.head.profile, o->prof.name);
	ck_assert_uint_eq(tp.head.kver, o->prof.kernel);
	ck_assert_int_eq(run_scenario(f, &tp.ops, &tp, o, r), 0);
	st = tp.status;
	tape_play_free(&tp);
	return st;
}

/* Record text under the scripted reality st at step prefix (NULL: none), play it back: judged the same. */
static void same(const char *text, const char *prefix, struct fk_step st, enum verdict want)
{
	struct run_opts o = opts("rxe");
	struct result live, again;
	struct scn_file *f = parse(text);
	char *tape;
	double t0;

	if (prefix)
		*at(f, text, prefix) = st;
	tape = record(f, &o, &live);
	ck_assert_msg(live.v == want, "live %s: %s", verdict_str(live.v), live.reason);
	fk_reset(); /* the fake forgets everything: the player alone answers */
	t0 = proto_now_s();
	ck_assert_int_eq(play(f, &o, tape, &again), TAPE_EXACT);
	ck_assert(proto_now_s() - t0 < 0.5); /* no look at a peer waits */
	ck_assert_uint_eq(fk.nexec + fk.nread + fk.npeer, 0);
	ck_assert_msg(again.v == live.v, "again %s: %s (live %s)", verdict_str(again.v), again.reason, live.reason);
	ck_assert_uint_eq(again.line, live.line);
	ck_assert_str_eq(again.reason, live.reason);
	ck_assert_str_eq(again.detail ? again.detail : "", live.detail ? live.detail : "");
	ck_assert_uint_eq(again.steps_run, live.steps_run);
	ck_assert(memcmp(again.rules, live.rules, sizeof(live.rules)) == 0);
	free(tape);
	result_clear(&again);
	done(f, &live);
}

START_TEST(test_tape_replays_a_pass_with_memory_and_queries)
{
	same("title a write that lands\n" TWO "b: write q local=src+0 remote=a.dst+64 len=128 expect SUCCESS\n"
	     "a: check dst\na: query_qp q expect state=RTS\n", NULL, (struct fk_step){ 0 }, V_PASS);
}
END_TEST

START_TEST(test_tape_replays_an_outcome_outside_the_set)
{
	same(nak_text, "b: write", (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_SUCCESS } }, V_FAIL);
}
END_TEST

START_TEST(test_tape_replays_a_peer_in_the_wrong_state_without_waiting)
{
	/* the responder stays in RTS where the model says ERR: the live run looks for a second, the player at once */
	same(nak_text, "b: write", (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = -1 }, V_FAIL);
}
END_TEST

START_TEST(test_tape_replays_a_query_value_and_an_xfail)
{
	same(nak_text, "b: query_qp", (struct fk_step){ .has_query = 1, .qp_state = M_QPS_RTS }, V_FAIL);
	same(rereg_text, "a: rereg_mr", (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } }, V_XFAIL);
}
END_TEST

START_TEST(test_tape_replays_an_engine_failure)
{
	same(nak_text, "b: write", (struct fk_step){ .rc = -EPIPE }, V_ERROR);
}
END_TEST

START_TEST(test_tape_replays_memory_that_differs)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result live, again;
	struct scn_file *f = parse(text);
	char *tape;

	fk.flip_obj = 1; /* a.dst's byte 100 is not what was written there */
	fk.flip_off = 100;
	tape = record(f, &o, &live);
	ck_assert_int_eq(live.v, V_FAIL);
	fk_reset();
	ck_assert_int_eq(play(f, &o, tape, &again), TAPE_EXACT);
	ck_assert_int_eq(again.v, V_FAIL);
	ck_assert_str_eq(again.reason, live.reason);
	ck_assert_str_eq(again.detail, live.detail); /* the bytes it shows are the recorded ones */
	free(tape);
	result_clear(&again);
	done(f, &live);
}
END_TEST

START_TEST(test_tape_short_when_the_live_run_stopped_earlier)
{
	/* live: the write was accepted, a fail there; today's file allows it: the steps after were never run */
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\na: check dst\n"
				       "a: dealloc_pd pd expect EBUSY\n";
	struct run_opts o = opts("rxe");
	struct result live, again;
	struct scn_file *f = parse(text);
	char *tape, *cut;

	tape = record(f, &o, &live);
	ck_assert_int_eq(live.v, V_PASS);
	cut = strstr(tape, "[\"x\",\"dealloc_pd\""); /* the record ends before the last step */
	ck_assert_ptr_nonnull(cut);
	*cut = '\0';
	fk_reset();
	ck_assert_int_eq(play(f, &o, tape, &again), TAPE_SHORT);
	ck_assert_int_eq(again.v, V_ERROR);
	ck_assert_has(again.reason, "record: the live run did not reach this dealloc_pd on node 0");
	free(tape);
	result_clear(&again);
	done(f, &live);
}
END_TEST

/* nak_text recorded with the responder in ERR and the query saying so (a pass); its record's lines. */
static char *nak_pass(const struct scn_file *f, const struct run_opts *o, struct result *live)
{
	*at(f, nak_text, "b: write") = (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_ERR, .peer_recv = -1 };
	*at(f, nak_text, "b: query_qp") = (struct fk_step){ .has_query = 1, .qp_state = M_QPS_ERR };
	return record(f, o, live);
}

START_TEST(test_tape_short_when_a_look_at_the_peer_was_not_recorded)
{
	struct run_opts o = opts("rxe");
	struct result live, again;
	struct scn_file *f = parse(nak_text);
	char *tape = nak_pass(f, &o, &live), *p;

	ck_assert_msg(live.v == V_PASS, "%s", live.reason);
	while ((p = strstr(tape, "[\"p\",")) != NULL) /* the looks at the peer QP taken out */
		memmove(p, strchr(p, '\n') + 1, strlen(strchr(p, '\n') + 1) + 1);
	fk_reset();
	ck_assert_int_eq(play(f, &o, tape, &again), TAPE_SHORT);
	ck_assert_int_ne(again.v, V_PASS); /* never taken as agreeing */
	free(tape);
	result_clear(&again);
	done(f, &live);
}
END_TEST

START_TEST(test_tape_short_after_a_receive_this_run_did_not_take)
{
	/* a look the live run made before the write saw a receive completion; this run does not look
	 * there, so what the QP shows after the write is not what it would show this run */
	struct run_opts o = opts("rxe");
	struct result live, again;
	struct scn_file *f = parse(nak_text);
	char *tape = nak_pass(f, &o, &live), *look, *write, *with;
	size_t n;

	ck_assert_msg(live.v == V_PASS, "%s", live.reason);
	look = strstr(tape, "[\"p\",");
	write = strstr(tape, "[\"x\",\"write\"");
	ck_assert(look && write && write < look);
	n = strlen(tape) + 64;
	with = malloc(n);
	ck_assert_ptr_nonnull(with);
	/* a look at the same QP, in the segment before the write, that saw a receive */
	snprintf(with, n, "%.*s[\"p\",%ld,0,\"RTS\",\"SUCCESS\",null]\n%s", (int)(write - tape), tape,
		 strtol(look + 5, NULL, 10), write);
	free(tape);
	fk_reset();
	ck_assert_int_eq(play(f, &o, with, &again), TAPE_SHORT);
	ck_assert_int_ne(again.v, V_PASS);
	free(with);
	result_clear(&again);
	done(f, &live);
}
END_TEST

START_TEST(test_tape_mismatch_on_another_call)
{
	static const char text[] = "nodes a\na: alloc_pd p\na: alloc_pd q\n";
	static const char other[] = "nodes a\na: alloc_pd p\na: reg_mr m pd=p len=4K access=LOCAL_WRITE\n";
	struct run_opts o = opts("rxe");
	struct result live, again;
	struct scn_file *f = parse(text), *g = parse(other);
	char *tape = record(f, &o, &live);

	fk_reset();
	ck_assert_int_eq(play(g, &o, tape, &again), TAPE_MISMATCH);
	ck_assert_int_eq(again.v, V_ERROR);
	ck_assert_has(again.reason, "this run's reg_mr on node 0 (object 1) is the live run's alloc_pd on node 0 (object 1)");
	free(tape);
	result_clear(&again);
	scn_free(g);
	done(f, &live);
}
END_TEST

START_TEST(test_tape_head_says_the_run)
{
	struct tape_play tp;
	char err[256];

	ck_assert_int_eq(tape_play_init(&tp, "", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "the record is empty");
	ck_assert_int_eq(tape_play_init(&tp, "[\"x\"]\n", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "the record has no head");
	ck_assert_int_eq(tape_play_init(&tp, "{\"tape\":99,\"engine\":\"e\",\"profile\":\"rxe\",\"kver\":0,\"ahead\":false,"
					     "\"crash\":false,\"chain\":false}\n", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "the record is of version 99, this rdmacheck reads 1");
	ck_assert_int_eq(tape_play_init(&tp, "{\"tape\":1,\"engine\":\"e\",\"profile\":\"rxe\",\"kver\":6001,\"kernel\":\"6.1.0\","
					     "\"ahead\":true,\"crash\":true,\"chain\":true}\nnot json\n", err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "record line 2:"), "%s", err);
	ck_assert_int_eq(tape_play_init(&tp, "{\"tape\":1,\"engine\":\"e\",\"profile\":\"rxe\",\"kver\":6001,\"kernel\":\"6.1.0\","
					     "\"ahead\":true,\"crash\":true,\"chain\":true}\n", err, sizeof(err)), 0);
	ck_assert_str_eq(tp.head.kernel, "6.1.0");
	ck_assert(tp.head.ahead && tp.head.crash && tp.head.chain && tp.ops.exec_chain);
	tape_play_free(&tp);
}
END_TEST

/* rejudge_file: the record's JSON array (head first) of tape lines. */
static json_t *as_array(const char *tape)
{
	json_t *a = json_array();

	for (const char *p = tape; *p;) {
		const char *nl = strchr(p, '\n');

		json_array_append_new(a, json_loadb(p, (size_t)(nl - p), 0, NULL));
		p = nl + 1;
	}
	return a;
}

START_TEST(test_rejudge_flips_on_an_expect_the_record_contradicts)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\n";
	static const char changed[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect REM_ACCESS_ERR\n";
	static const char moved[] = TWO "b: write q local=src+0 remote=a.dst+0 len=32 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result live, again;
	struct scn_file *f = parse(text), *g = parse(changed), *h = parse(moved);
	char *tape = record(f, &o, &live), note[512];
	json_t *a = as_array(tape);

	ck_assert_int_eq(live.v, V_PASS);
	fk_reset();
	ck_assert_int_eq(rejudge_file(f, a, NULL, NULL, &live, &again, note, sizeof(note)), RJ_SAME);
	ck_assert_int_eq(again.v, V_PASS);
	result_clear(&again);
	ck_assert_int_eq(rejudge_file(g, a, NULL, NULL, &live, &again, note, sizeof(note)), RJ_FLIP);
	ck_assert_int_eq(again.v, V_FAIL);
	ck_assert_str_eq(again.reason, "line 11: write gave SUCCESS, outside the allowed set");
	result_clear(&again);
	ck_assert_int_eq(rejudge_file(h, a, NULL, NULL, &live, &again, note, sizeof(note)), RJ_MISMATCH);
	ck_assert_msg(strstr(note, "line 11 is 'b: write q local=src+0 remote=a.dst+0 len=32"), "%s", note);
	result_clear(&again);
	json_decref(a);
	free(tape);
	scn_free(g);
	scn_free(h);
	done(f, &live);
}
END_TEST

/* The inner engine of test_tape_lines_as_jansson_writes_them: each call's answer scripted here. */
struct line_fx {
	int rc;
	struct hres r;
	uint64_t addr;
	uint32_t key;
};
static struct line_fx line_fx;

static int lfx_exec(void *be, const struct hcall *c, struct hres *r)
{
	(void)be;
	(void)c;
	*r = line_fx.r;
	return line_fx.rc;
}

static int lfx_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	(void)be;
	(void)obj;
	(void)off;
	(void)remote;
	*addr = line_fx.addr;
	*key = line_fx.key;
	return line_fx.rc;
}

static int lfx_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *v)
{
	(void)be;
	(void)obj;
	(void)a;
	*v = line_fx.addr;
	return line_fx.rc;
}

static int lfx_ahead(void *be, const struct hcall *c)
{
	(void)be;
	(void)c;
	return line_fx.rc;
}

/* The last line of the record so far, mark removed, against jansson's compact dump of want (stolen). */
static void last_line_is(const struct tape_rec *tr, json_t *want)
{
	const char *t = text_str(&tr->t), *end = t + strlen(t) - 1, *start = end;
	char *w = json_dumps(want, JSON_COMPACT);

	while (start > t && start[-1] != '\n')
		start--;
	ck_assert_ptr_nonnull(w);
	ck_assert(strncmp(start, TAPE_MARK, strlen(TAPE_MARK)) == 0);
	start += strlen(TAPE_MARK);
	ck_assert_msg((size_t)(end - start) == strlen(w) && strncmp(start, w, strlen(w)) == 0, "%.*s != %s",
		      (int)(end - start), start, w);
	free(w);
	json_decref(want);
}

/*
 * The events of every step (exec, ahead, ref, attr) are written without
 * jansson (tape_rec.c: struct jline): each line is what json_dumps writes of
 * the same value, negative numbers, a uint64_t above 2^63, an answer's query
 * values, a failed call's null, and a string jansson escapes included.
 */
START_TEST(test_tape_lines_as_jansson_writes_them)
{
	struct backend_ops in = { .name = "lines", .exec = lfx_exec, .ref = lfx_ref, .attr = lfx_attr, .ahead = lfx_ahead };
	struct run_opts o = opts("rxe");
	struct tape_rec tr;
	struct hcall c = { .op = M_OP_QUERY_QP, .node = 1, .obj = 7, .chain_pos = 2, .refused_errno = 22 };
	struct hres r;
	uint64_t v;
	uint32_t key;
	const struct scn_call *qq;

	c.call = (uint16_t)scn_call_find("query_qp");
	qq = scn_call_get(c.call);
	ck_assert_ptr_nonnull(qq->query[0].key);
	ck_assert_ptr_nonnull(qq->query[1].key);
	tape_rec_init(&tr, &in, NULL, &o, NULL);
	line_fx = (struct line_fx){ .rc = 0, .r = { .out = { M_OUT_OK, 0 }, .qset = 3, .q = { 3, UINT64_MAX } } };
	ck_assert_int_eq(tr.ops.exec(&tr, &c, &r), 0);
	last_line_is(&tr, json_pack("[s,s,i,i,i,i,i,[s,n,{s:i,s:i}]]", "x", "query_qp", 1, 7, 2, 22, 0, "ok",
				    qq->query[0].key, 3, qq->query[1].key, -1));
	c.op = M_OP_WRITE;
	c.call = (uint16_t)scn_call_find("write");
	line_fx.r = (struct hres){ .out = { M_OUT_WC, M_WC_REM_ACCESS_ERR }, .has_opcode = 1, .wc_opcode = M_WCO_RDMA_WRITE };
	ck_assert_int_eq(tr.ops.exec(&tr, &c, &r), 0);
	last_line_is(&tr, json_pack("[s,s,i,i,i,i,i,[s,s,{}]]", "x", "write", 1, 7, 2, 22, 0, "REM_ACCESS_ERR",
				    "RDMA_WRITE"));
	line_fx.rc = -ETIMEDOUT;
	ck_assert_int_eq(tr.ops.exec(&tr, &c, &r), -ETIMEDOUT);
	last_line_is(&tr, json_pack("[s,s,i,i,i,i,i,n]", "x", "write", 1, 7, 2, 22, -ETIMEDOUT));
	ck_assert_int_eq(tr.ops.ahead(&tr, &c), -ETIMEDOUT);
	last_line_is(&tr, json_pack("[s,s,i,i,i]", "h", "write", 1, 7, -ETIMEDOUT));
	line_fx = (struct line_fx){ .rc = 0, .addr = 0x8000000000000010ull, .key = 0xfffffff0u };
	ck_assert_int_eq(tr.ops.ref(&tr, 5, 4096, 1, &v, &key), 0);
	last_line_is(&tr, json_pack("[s,i,I,i,i,I,I]", "r", 5, (json_int_t)4096, 1, 0,
				    (json_int_t)(int64_t)0x8000000000000010ull, (json_int_t)0xfffffff0u));
	ck_assert_int_eq(tr.ops.attr(&tr, 5, SCN_ATTR_LKEY, &v), 0);
	last_line_is(&tr, json_pack("[s,i,s,i,I]", "a", 5, scn_attr_str(SCN_ATTR_LKEY), 0,
				    (json_int_t)(int64_t)0x8000000000000010ull));
	line_fx.rc = -ENOENT;
	ck_assert_int_eq(tr.ops.ref(&tr, -1, 0, 0, &v, &key), -ENOENT);
	last_line_is(&tr, json_pack("[s,i,I,i,i,I,I]", "r", -1, (json_int_t)0, 0, -ENOENT, (json_int_t)0,
				    (json_int_t)0));
	line_fx = (struct line_fx){ .rc = 0, .r = { .out = { M_OUT_ERRNO, 12 } } };
	c.op = M_OP_COUNT_ + 5; /* no name: "?" */
	ck_assert_int_eq(tr.ops.exec(&tr, &c, &r), 0);
	last_line_is(&tr, json_pack("[s,s,i,i,i,i,i,[s,n,{}]]", "x", m_op_kind_str((enum m_op_kind)c.op), 1, 7, 2, 22, 0,
				    m_outcome_str(line_fx.r.out, (char[48]){ 0 }, 48)));
	ck_assert(!tr.oom);
	tape_rec_drop(&tr);
}
END_TEST

Suite *suite_test_tape(void)
{
	Suite *s = suite_create("tape");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_tape_bytes_round_trip);
	tcase_add_test(tc, test_tape_replays_a_pass_with_memory_and_queries);
	tcase_add_test(tc, test_tape_replays_an_outcome_outside_the_set);
	tcase_add_test(tc, test_tape_replays_a_peer_in_the_wrong_state_without_waiting);
	tcase_add_test(tc, test_tape_replays_a_query_value_and_an_xfail);
	tcase_add_test(tc, test_tape_replays_an_engine_failure);
	tcase_add_test(tc, test_tape_replays_memory_that_differs);
	tcase_add_test(tc, test_tape_short_when_the_live_run_stopped_earlier);
	tcase_add_test(tc, test_tape_short_when_a_look_at_the_peer_was_not_recorded);
	tcase_add_test(tc, test_tape_short_after_a_receive_this_run_did_not_take);
	tcase_add_test(tc, test_tape_mismatch_on_another_call);
	tcase_add_test(tc, test_tape_head_says_the_run);
	tcase_add_test(tc, test_rejudge_flips_on_an_expect_the_record_contradicts);
	tcase_add_test(tc, test_tape_lines_as_jansson_writes_them);
	suite_add_tcase(s, tc);
	return s;
}
