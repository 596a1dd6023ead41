/* exec_wire.c — the executor's messages, both ends, every read bounded (exec.h), and the host's judging of a record. */
#include "harness/explore/exec.h"
#include "harness/run/tape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ex_exec_msg_ms = EX_EXEC_MSG_MS;

/* Split line in place at single spaces into at most max fields; the count, or -1 with more or an empty one. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line;; p++) {
		if (n == max)
			return -1;
		f[n++] = p;
		p = strchr(p, ' ');
		if (!p)
			break;
		*p = '\0';
	}
	for (int i = 0; i < n; i++)
		if (!*f[i])
			return -1;
	return n;
}

/* s as a decimal number of at most max: 0, or -1 (not digits only, or above max). */
static int num(const char *s, uint64_t max, uint64_t *v)
{
	*v = 0;
	if (!*s || strlen(s) > 20)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || *v > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	return 0;
}

/* A profile's name as the header carries it: 1 if well formed. */
static int name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= EX_EXEC_PROFILE_MAX)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
		      *s == '-' || *s == '.'))
			return 0;
	return 1;
}

/*
 * One header line from fd: its first byte within idle_ms, the rest within
 * ex_exec_msg_ms. The length, -EPIPE at the end before a byte, -ETIMEDOUT
 * with none, or -EPROTO with err.
 */
static int read_line(int fd, struct proto_rd *rd, int idle_ms, char *line, char *err, size_t errlen)
{
	int rc;

	if (!proto_rd_ready(rd) && rd->len == rd->off) { /* nothing of a message yet: wait for its first byte */
		rc = proto_recv(fd, rd, line, EX_EXEC_LINE_MAX, idle_ms);
		if (rc != -ETIMEDOUT || rd->len > rd->off)
			goto got;
		return -ETIMEDOUT;
	}
	rc = proto_recv(fd, rd, line, EX_EXEC_LINE_MAX, ex_exec_msg_ms);
got:
	if (rc == -ETIMEDOUT) /* a partial line: began, never ended */
		rc = proto_recv(fd, rd, line, EX_EXEC_LINE_MAX, ex_exec_msg_ms);
	if (rc >= 0 || rc == -EPIPE)
		return rc;
	if (rc == -ETIMEDOUT)
		snprintf(err, errlen, "a line that did not end within %d ms", ex_exec_msg_ms);
	else if (rc == -EMSGSIZE)
		snprintf(err, errlen, "a line longer than %d bytes", EX_EXEC_LINE_MAX);
	else
		snprintf(err, errlen, "cannot read: %s", strerror(-rc));
	return -EPROTO;
}

/* The body of len bytes after a header, within ex_exec_msg_ms, into *out (malloc'd, NUL-terminated). */
static int read_body(int fd, struct proto_rd *rd, size_t len, char **out, char *err, size_t errlen)
{
	char *b = malloc(len + 1);
	int rc;

	*out = NULL;
	if (!b)
		return -ENOMEM;
	rc = len ? proto_recv_bytes(fd, rd, b, len, ex_exec_msg_ms) : 0;
	if (rc) {
		free(b);
		snprintf(err, errlen, "a body of %zu bytes %s", len,
			 rc == -ETIMEDOUT ? "that did not come within the message's time" :
			 rc == -EPIPE ? "cut by the end of the stream" : strerror(-rc));
		return -EPROTO;
	}
	b[len] = '\0';
	if (memchr(b, '\0', len)) {
		free(b);
		snprintf(err, errlen, "a body of %zu bytes with a NUL byte", len);
		return -EPROTO;
	}
	*out = b;
	return 0;
}

int ex_exec_read_case(int fd, struct proto_rd *rd, int idle_ms, struct ex_exec_case *c, char *err, size_t errlen)
{
	char line[EX_EXEC_LINE_MAX], *f[8];
	uint64_t v[5];
	int rc = read_line(fd, rd, idle_ms, line, err, errlen);

	memset(c, 0, sizeof(*c));
	if (rc < 0)
		return rc;
	if (split(line, f, 8) != 7 || strcmp(f[0], "case") || num(f[1], UINT64_MAX, &v[0]) || !name_ok(f[2]) ||
	    num(f[3], UINT32_MAX, &v[1]) || num(f[4], 1, &v[2]) || num(f[5], 1, &v[3]) || num(f[6], UINT64_MAX, &v[4])) {
		snprintf(err, errlen, "not a request (\"case ID PROFILE KVER CRASH AHEAD LEN\"): '%.120s'", line);
		return -EPROTO;
	}
	if (v[4] > EX_EXEC_CASE_MAX) {
		snprintf(err, errlen, "a case of %llu bytes: at most %u", (unsigned long long)v[4], EX_EXEC_CASE_MAX);
		return -EPROTO;
	}
	c->id = v[0];
	snprintf(c->profile, sizeof(c->profile), "%s", f[2]);
	c->kver = (uint32_t)v[1];
	c->crash = (int)v[2];
	c->ahead = (int)v[3];
	c->len = (size_t)v[4];
	return read_body(fd, rd, c->len, &c->text, err, errlen);
}

int ex_exec_send_case(int fd, uint64_t id, const struct m_profile *prof, int crash, int ahead, const char *text,
		      size_t len)
{
	int rc = proto_send(fd, "case %llu %s %u %d %d %zu", (unsigned long long)id, prof->name, prof->kernel, !!crash,
			    !!ahead, len);

	return rc ? rc : proto_send_bytes(fd, text, len);
}

int ex_exec_read_answer(int fd, struct proto_rd *rd, int wait_ms, struct ex_exec_answer *a, char *err, size_t errlen)
{
	char line[EX_EXEC_LINE_MAX], *f[6];
	uint64_t v[2];
	enum verdict vd = V_ERROR;
	int rc = read_line(fd, rd, wait_ms, line, err, errlen), n;

	memset(a, 0, sizeof(*a));
	if (rc < 0)
		return rc;
	if (strncmp(line, "refused ", 8) == 0) {
		snprintf(err, errlen, "the executor refused: %.200s", line + 8);
		return -EPROTO;
	}
	n = split(line, f, 6);
	a->ran = n == 4 && strcmp(f[0], "record") == 0 && verdict_parse(f[2], &vd) == 0;
	if (!(a->ran || (n == 3 && strcmp(f[0], "error") == 0)) || num(f[1], UINT64_MAX, &v[0]) ||
	    num(f[n - 1], UINT64_MAX, &v[1])) {
		snprintf(err, errlen, "not an answer (\"record ID VERDICT LEN\", \"error ID LEN\"): '%.120s'", line);
		return -EPROTO;
	}
	if (v[1] > EX_EXEC_RECORD_MAX) {
		snprintf(err, errlen, "an answer of %llu bytes: at most %u", (unsigned long long)v[1], EX_EXEC_RECORD_MAX);
		return -EPROTO;
	}
	a->id = v[0];
	a->v = vd;
	a->len = (size_t)v[1];
	return read_body(fd, rd, a->len, &a->lines, err, errlen);
}

int ex_exec_dial(const char *hostport, const struct remote_key *key, int timeout_ms, char *err, size_t errlen)
{
	struct proto_rd rd = { 0 };
	char line[EX_EXEC_LINE_MAX];
	int fd = remote_dial(hostport, key, timeout_ms, err, errlen), rc;

	if (fd < 0)
		return fd;
	rc = proto_recv(fd, &rd, line, sizeof(line), timeout_ms);
	if (rc < 0 || strcmp(line, "exec 1") != 0 || rd.len != rd.off) {
		snprintf(err, errlen, "%s: no executor's greeting (%s)", hostport, rc < 0 ? strerror(-rc) : line);
		close(fd);
		return -EPROTO;
	}
	return fd;
}

int ex_exec_judge(const struct scn_file *f, const struct m_profile *prof, const char *lines, struct result *r)
{
	struct run_opts o = { .mode = RUN_REAL, .prof = *prof };
	struct tape_play tp;
	char note[512];
	int rc;

	memset(r, 0, sizeof(*r));
	rc = tape_play_init(&tp, lines, note, sizeof(note));
	if (rc == -ENOMEM)
		return rc;
	if (rc || tape_steps_check(tp.head_json, f, note, sizeof(note))) {
		if (!rc)
			tape_play_free(&tp);
		r->v = V_ERROR;
		snprintf(r->reason, sizeof(r->reason), "the executor's record is not of this case: %.400s", note);
		return 0;
	}
	o.allow_crash = tp.head.crash;
	o.ahead = tp.head.ahead;
	rc = run_scenario(f, &tp.ops, &tp, &o, r);
	if (!rc && tp.status != TAPE_EXACT) {
		result_clear(r);
		r->v = V_ERROR;
		snprintf(r->reason, sizeof(r->reason), "the executor's record does not answer this run (%s): %.400s",
			 tape_status_str(tp.status), tp.note);
	}
	tape_play_free(&tp);
	return rc;
}
