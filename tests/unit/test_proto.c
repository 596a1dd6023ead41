/* Unit tests of the coordinator<->agent line protocol (harness/run/proto.c: framing,
 * fields, the hex codec) and the agent's answer names (harness/agent/agent.c). */
#include "harness/run/proto.h"
#include "harness/agent/agent_internal.h"

#include <check.h>
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int sv[2];
static struct proto_rd rd; /* sv[1]'s */

static void setup(void)
{
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	proto_rd_reset(&rd);
}

static void teardown(void)
{
	close(sv[0]);
	close(sv[1]);
}

START_TEST(test_send_recv_round_trip)
{
	char buf[PROTO_LINE_MAX];

	ck_assert_int_eq(proto_send(sv[0], "reg name=%s len=%d access=%d", "m", 4096, 7), 0);
	ck_assert_int_eq(proto_send(sv[0], "quit"), 0);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), (int)strlen("reg name=m len=4096 access=7"));
	ck_assert_str_eq(buf, "reg name=m len=4096 access=7");
	ck_assert(proto_is(buf, "reg"));
	ck_assert(!proto_is(buf, "re"));
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 4); /* the next line was not consumed */
	ck_assert(proto_is(buf, "quit"));
}
END_TEST

/* Replies are read in bulk: one proto_recv takes all the agent wrote; the rest waits in the reader. */
START_TEST(test_recv_is_buffered)
{
	char buf[PROTO_LINE_MAX];
	int pending = -1;

	ck_assert_int_eq(write(sv[0], "ok a=1\nok b=2\npart", 18), 18);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 6);
	ck_assert_str_eq(buf, "ok a=1");
	ck_assert_int_eq(ioctl(sv[1], FIONREAD, &pending), 0);
	ck_assert_int_eq(pending, 0); /* not read byte by byte */
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 6);
	ck_assert_str_eq(buf, "ok b=2");
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 50), -ETIMEDOUT); /* "part" waits */
	ck_assert_int_eq(write(sv[0], "ial\n", 4), 4);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 7);
	ck_assert_str_eq(buf, "partial");
}
END_TEST

/* Answers held back (proto_hold) go out together at proto_release, in order, blobs included. */
START_TEST(test_hold_release_writes_once)
{
	char buf[PROTO_LINE_MAX], big[3 * PROTO_LINE_MAX];
	int pending = -1;

	ck_assert_int_eq(proto_rd_ready(&rd), 0);
	proto_hold(sv[0]);
	ck_assert_int_eq(proto_send(sv[0], "ok a=1"), 0);
	ck_assert_int_eq(proto_send(sv[0], "ok bytes=3"), 0);
	ck_assert_int_eq(proto_send_bytes(sv[0], "xyz", 3), 0);
	ck_assert_int_eq(ioctl(sv[1], FIONREAD, &pending), 0);
	ck_assert_int_eq(pending, 0); /* nothing written yet */
	ck_assert_int_eq(proto_release(), 0);
	ck_assert_int_eq(ioctl(sv[1], FIONREAD, &pending), 0);
	ck_assert_int_eq(pending, 7 + 11 + 3);
	ck_assert_int_eq(proto_send(sv[0], "ok c=3"), 0); /* released: written at once */
	ck_assert_int_eq(ioctl(sv[1], FIONREAD, &pending), 0);
	ck_assert_int_eq(pending, 7 + 11 + 3 + 7);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 6);
	ck_assert_int_eq(proto_rd_ready(&rd), 1); /* the next answer came with it */
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 10);
	ck_assert_int_eq(proto_recv_bytes(sv[1], &rd, buf, 3, 1000), 0);
	ck_assert_int_eq(memcmp(buf, "xyz", 3), 0);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 6);
	ck_assert_str_eq(buf, "ok c=3");
	ck_assert_int_eq(proto_rd_ready(&rd), 0);
	/* more than the hold buffer: what was held goes first, then the rest, in order */
	memset(big, 'b', sizeof(big));
	proto_hold(sv[0]);
	ck_assert_int_eq(proto_send(sv[0], "ok d=4"), 0);
	ck_assert_int_eq(proto_send_bytes(sv[0], big, sizeof(big)), 0);
	ck_assert_int_eq(proto_send_bytes(sv[0], big, sizeof(big)), 0);
	ck_assert_int_eq(proto_release(), 0);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 6);
	ck_assert_str_eq(buf, "ok d=4");
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(proto_recv_bytes(sv[1], &rd, buf, sizeof(big) / 3, 1000), 0);
		ck_assert_int_eq(proto_recv_bytes(sv[1], &rd, buf, sizeof(big) / 3, 1000), 0);
		ck_assert_int_eq(proto_recv_bytes(sv[1], &rd, buf, sizeof(big) / 3, 1000), 0);
		ck_assert_int_eq(buf[0], 'b');
	}
	ck_assert_int_eq(ioctl(sv[1], FIONREAD, &pending), 0);
	ck_assert_int_eq(pending, 0);
}
END_TEST

/* A blob after its "ok bytes=N" line: whatever of it came with the line, then the rest, then the next line. */
START_TEST(test_recv_bytes_after_a_line)
{
	static uint8_t blob[3 * PROTO_LINE_MAX], back[sizeof(blob)];
	char buf[PROTO_LINE_MAX];
	uint64_t n;

	for (size_t i = 0; i < sizeof(blob); i++)
		blob[i] = (uint8_t)(i * 7 + (i >> 8)); /* newlines and NULs among them */
	ck_assert_int_eq(proto_send(sv[0], "ok bytes=%zu", sizeof(blob)), 0);
	ck_assert_int_eq(proto_send_bytes(sv[0], blob, 100), 0);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), (int)strlen(buf));
	ck_assert_int_eq(proto_get_u64(buf, "bytes", &n), 0);
	ck_assert_uint_eq(n, sizeof(blob));
	ck_assert_int_eq(proto_recv_bytes(sv[1], &rd, back, n, 50), -ETIMEDOUT); /* 100 of them so far */
	ck_assert_int_eq(proto_send_bytes(sv[0], blob + 100, sizeof(blob) - 100), 0);
	ck_assert_int_eq(proto_send(sv[0], "ok"), 0);
	ck_assert_int_eq(proto_recv_bytes(sv[1], &rd, back + 100, sizeof(back) - 100, 1000), 0);
	ck_assert_mem_eq(back, blob, sizeof(blob));
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 1000), 2);
	ck_assert_str_eq(buf, "ok");
	ck_assert_int_eq(proto_send_bytes(sv[0], blob, 10), 0);
	close(sv[0]);
	sv[0] = -1;
	ck_assert_int_eq(proto_recv_bytes(sv[1], &rd, back, 20, 1000), -EPIPE);
}
END_TEST

START_TEST(test_get_fields)
{
	const char *msg = "ok addr=0x7f001000 lkey=12 rkey=34 name=src xname=no";
	char v[16];
	uint64_t u;

	ck_assert_int_eq(proto_get(msg, "name", v, sizeof(v)), 0);
	ck_assert_str_eq(v, "src"); /* not the tail of xname */
	ck_assert_int_eq(proto_get_u64(msg, "addr", &u), 0);
	ck_assert_uint_eq(u, 0x7f001000);
	ck_assert_int_eq(proto_get_u64(msg, "rkey", &u), 0);
	ck_assert_uint_eq(u, 34);
	ck_assert_int_eq(proto_get(msg, "missing", v, sizeof(v)), -ENOENT);
	ck_assert_int_eq(proto_get(msg, "addr", v, 4), -EMSGSIZE);
	ck_assert_int_eq(proto_get_u64("ok n=-1", "n", &u), -EINVAL);
	ck_assert_int_eq(proto_get_u64("ok n=12x", "n", &u), -EINVAL);
	ck_assert_int_eq(proto_get_u64("ok n=", "n", &u), -EINVAL);
}
END_TEST

START_TEST(test_recv_timeout_eof_and_oversize)
{
	char buf[64], big[PROTO_LINE_MAX + 10];

	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 50), -ETIMEDOUT);
	ck_assert_int_eq(write(sv[0], "partial", 7), 7);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 50), -ETIMEDOUT);
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(proto_send(sv[0], "%s", big), -EMSGSIZE);
	ck_assert_int_eq(proto_send(sv[0], "two\nlines"), -EMSGSIZE);
	ck_assert_int_eq(write(sv[0], "0123456789012345678901234567890123456789012345678901234567890123456789\n", 71), 71);
	ck_assert_int_eq(proto_recv(sv[1], &rd, buf, sizeof(buf), 50), -EMSGSIZE);
	close(sv[0]);
	sv[0] = -1;
	while (proto_recv(sv[1], &rd, buf, sizeof(buf), 50) != -EPIPE)
		;
}
END_TEST

START_TEST(test_agent_names_and_gid_hex)
{
	union ibv_gid g, back;
	char hex[33];

	for (int i = 0; i < 16; i++)
		g.raw[i] = (uint8_t)(i * 17);
	proto_hex_encode(g.raw, 16, hex);
	ck_assert_str_eq(hex, "00112233445566778899aabbccddeeff");
	ck_assert_int_eq(proto_hex_decode(hex, back.raw, 16), 16);
	ck_assert_mem_eq(g.raw, back.raw, 16);
	ck_assert_int_eq(proto_hex_decode("00112233", back.raw, 16), 4); /* not a GID: 4 bytes */
	ck_assert_int_eq(proto_hex_decode("0011223344556677889900aabbccddzz", back.raw, 16), -EINVAL);
	ck_assert_int_eq(proto_hex_decode("00112", back.raw, 16), -EINVAL);
	ck_assert_int_eq(proto_hex_decode(hex, back.raw, 15), -ENOSPC);
	ck_assert_str_eq(agent_wc_status_str(IBV_WC_REM_ACCESS_ERR), "REM_ACCESS_ERR");
	ck_assert_str_eq(agent_wc_status_str(IBV_WC_WR_FLUSH_ERR), "WR_FLUSH_ERR");
	ck_assert_str_eq(agent_wc_status_str((enum ibv_wc_status)99), "?");
	ck_assert_str_eq(agent_qp_state_str(IBV_QPS_ERR), "ERR");
	ck_assert_str_eq(agent_qp_state_str((enum ibv_qp_state)77), "?");
}
END_TEST

Suite *suite_test_proto(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("lines");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_send_recv_round_trip);
	tcase_add_test(tc, test_recv_is_buffered);
	tcase_add_test(tc, test_hold_release_writes_once);
	tcase_add_test(tc, test_recv_bytes_after_a_line);
	tcase_add_test(tc, test_get_fields);
	tcase_add_test(tc, test_recv_timeout_eof_and_oversize);
	tcase_add_test(tc, test_agent_names_and_gid_hex);
	suite_add_tcase(s, tc);
	return s;
}
