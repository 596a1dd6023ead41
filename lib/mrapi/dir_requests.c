/*
 * dir_requests.c — the directory's requests (protocol in dir.h): HELLO and
 * its proof, and the segment table with CREATE, GET, ATTACH, DETACH and
 * DELETE. A segment's owner, domain and node are its creator's
 * authenticated connection's; another domain sees nothing of a segment that
 * is not DOMAIN_SHARED. Runs in the forked service: static storage, no stdio.
 */
#include "lib/mrapi/dir_serve.h"

#include <errno.h>
#include <string.h>

#define SHARED_BIT 1u /* of CREATE's shared field: DOMAIN_SHARED (rmem.c's FLAG_SHARED) */

struct seg {
	int live;
	int owner;                  /* connection slot */
	uint32_t id, gen, atype, shared, domain, rkey, port;
	uint64_t addr, size;
	uint8_t attached[DIR_SLOTS];
	char ip[48];
};

static struct seg sg[DIR_MAX_SEGS];
static uint32_t next_gen = 1, next_any = DIR_ANY_FIRST;

/* The live segment (id, gen) or with id (gen 0: any), or -1. */
static int find(uint32_t id, uint32_t gen)
{
	for (int s = 0; s < DIR_MAX_SEGS; s++)
		if (sg[s].live && sg[s].id == id && (!gen || sg[s].gen == gen))
			return s;
	return -1;
}

/* The withdrawn segment (id, gen) that connection c is still attached to (deleted under it), or -1. */
static int find_withdrawn(uint32_t id, uint32_t gen, int c)
{
	for (int s = 0; s < DIR_MAX_SEGS; s++)
		if (!sg[s].live && sg[s].id == id && sg[s].gen == gen && sg[s].attached[c])
			return s;
	return -1;
}

/* Connection c may know of segment s: its own domain's, or shared across domains. */
static int visible(int c, int s)
{
	return sg[s].domain == cl[c].domain || (sg[s].shared & SHARED_BIT);
}

static int ip_ok(const char *ip)
{
	size_t n = 0;

	for (; ip[n]; n++)
		if (!((ip[n] >= '0' && ip[n] <= '9') || ip[n] == '.' || ip[n] == ':' ||
		      (ip[n] >= 'a' && ip[n] <= 'f') || (ip[n] >= 'A' && ip[n] <= 'F')))
			return 0;
	return n > 0 && n < sizeof(sg[0].ip);
}

/* CREATE's numbers argv[first..first+n): atype shared addr size rkey port. */
static int nums(char **argv, int first, int n, uint64_t *v)
{
	for (int i = 0; i < n; i++)
		if (wl_u64_parse(argv[first + i], &v[i]) || (i != 2 && i != 3 && v[i] > UINT32_MAX))
			return -EINVAL; /* addr and size are 64-bit, the rest 32 */
	return 0;
}

static int members(void)
{
	int n = 0;

	for (int c = 0; c < DIR_SLOTS; c++)
		n += cl[c].fd >= 0 && cl[c].member;
	return n;
}

/* A refused HELLO: say why, then the connection ends. */
static void refuse(int c, const char *why)
{
	conn_reply_str(c, "ERR", why);
	cl[c].closing = 1;
}

/*
 * HELLO domain node [nonce_c mac_c]: with a keyring the proof is required
 * and answered with the service's; without one (open) none is taken.
 */
static void do_hello(int c, char **argv, int argc, const struct dir_keys *keys)
{
	uint64_t v[2];
	const struct dir_key *k = NULL;
	char want[DIR_HEX];
	struct wline w;

	if (cl[c].member) {
		conn_reply_str(c, "ERR", "PROTO"); /* a node says HELLO once */
		return;
	}
	if ((argc != 3 && argc != 5) || wl_u64_parse(argv[1], &v[0]) || wl_u64_parse(argv[2], &v[1]) ||
	    v[0] > UINT32_MAX || v[1] > UINT32_MAX) {
		refuse(c, "PROTO");
		return;
	}
	if (keys->n) {
		if (argc != 5 || strlen(argv[3]) != DIR_HEX - 1 || !(k = dir_key_of(keys, (uint32_t)v[0])) ||
		    dir_mac(k, "node", (uint32_t)v[0], (uint32_t)v[1], cl[c].nonce, argv[3], want) ||
		    !dir_mac_same(argv[4], want)) {
			refuse(c, "AUTH");
			return;
		}
	}
	for (int o = 0; o < DIR_SLOTS; o++)
		if (o != c && cl[o].fd >= 0 && cl[o].member && cl[o].domain == v[0] && cl[o].node == v[1]) {
			refuse(c, "NODE_INITIALIZED");
			return;
		}
	if (members() >= DIR_MAX_NODES) {
		refuse(c, "LIMIT");
		return;
	}
	wl_init(&w);
	wl_str(&w, "OK");
	if (k) {
		if (dir_mac(k, "dir", (uint32_t)v[0], (uint32_t)v[1], argv[3], cl[c].nonce, want)) {
			refuse(c, "AUTH");
			return;
		}
		wl_str(&w, want);
	}
	wl_end(&w);
	cl[c].member = 1;
	cl[c].domain = (uint32_t)v[0];
	cl[c].node = (uint32_t)v[1];
	conn_reply(c, &w);
}

/* A free segment slot, or -1 when DIR_MAX_SEGS are live. */
static int free_seg(void)
{
	for (int s = 0; s < DIR_MAX_SEGS; s++)
		if (!sg[s].live)
			return s;
	return -1;
}

/* CREATE id|ANY atype shared addr size rkey port ip: recorded as the connection's node's. */
static void do_create(int c, char **argv, int argc)
{
	uint64_t v[7], id = 0;
	int any, slot;
	struct wline w;

	any = argc == 9 && strcmp(argv[1], "ANY") == 0;
	if (argc != 9 || (!any && (wl_u64_parse(argv[1], &id) || id > UINT32_MAX)) ||
	    nums(argv, 2, 6, v + 1) || !ip_ok(argv[8])) {
		conn_reply_str(c, "ERR", "PROTO");
		return;
	}
	if (!any && id > DIR_MAX_USER_ID) {
		conn_reply_str(c, "ERR", "ID_INVALID");
		return;
	}
	if (!any && find((uint32_t)id, 0) >= 0) {
		conn_reply_str(c, "ERR", "EXISTS");
		return;
	}
	if ((slot = free_seg()) < 0) {
		conn_reply_str(c, "ERR", "MEM_LIMIT");
		return;
	}
	if (any) {
		while (find(next_any, 0) >= 0 || next_any < DIR_ANY_FIRST)
			next_any = next_any + 1 < DIR_ANY_FIRST ? DIR_ANY_FIRST : next_any + 1;
		id = next_any++;
	}
	sg[slot] = (struct seg){ .live = 1, .owner = c, .id = (uint32_t)id, .gen = next_gen++,
				 .atype = (uint32_t)v[1], .shared = (uint32_t)v[2], .domain = cl[c].domain,
				 .addr = v[3], .size = v[4], .rkey = (uint32_t)v[5], .port = (uint32_t)v[6] };
	memcpy(sg[slot].ip, argv[8], strlen(argv[8]) + 1);
	wl_init(&w);
	wl_str(&w, "OK");
	wl_u64(&w, sg[slot].id);
	wl_u64(&w, sg[slot].gen);
	wl_end(&w);
	conn_reply(c, &w);
}

static void do_get(int c, char **argv, int argc)
{
	uint64_t id;
	struct wline w;
	int s;

	if (argc != 2 || wl_u64_parse(argv[1], &id) || id > UINT32_MAX) {
		conn_reply_str(c, "ERR", "PROTO");
		return;
	}
	if ((s = find((uint32_t)id, 0)) < 0 || id == 0xffffffffu) {
		conn_reply_str(c, "ERR", "ID_INVALID");
		return;
	}
	if (!visible(c, s)) {
		conn_reply_str(c, "ERR", "NOTSHARED");
		return;
	}
	wl_init(&w);
	wl_str(&w, "OK");
	wl_u64(&w, sg[s].id);
	wl_u64(&w, sg[s].gen);
	wl_u64(&w, sg[s].atype);
	wl_u64(&w, sg[s].shared);
	wl_u64(&w, sg[s].domain);
	wl_u64(&w, sg[s].addr);
	wl_u64(&w, sg[s].size);
	wl_u64(&w, sg[s].rkey);
	wl_u64(&w, sg[s].port);
	wl_str(&w, sg[s].ip);
	wl_end(&w);
	conn_reply(c, &w);
}

/* ATTACH / DETACH / DELETE id gen */
static void do_op(int c, char **argv, int argc)
{
	uint64_t id, gen;
	int s;

	if (argc != 3 || wl_u64_parse(argv[1], &id) || wl_u64_parse(argv[2], &gen) || id > UINT32_MAX ||
	    gen > UINT32_MAX || gen == 0) {
		conn_reply_str(c, "ERR", "PROTO");
		return;
	}
	s = find((uint32_t)id, (uint32_t)gen);
	if (s < 0 && strcmp(argv[0], "DETACH") == 0)
		s = find_withdrawn((uint32_t)id, (uint32_t)gen, c);
	if (s < 0 || !visible(c, s)) {
		conn_reply_str(c, "ERR", "INVALID");
		return;
	}
	if (strcmp(argv[0], "ATTACH") == 0) {
		if (sg[s].attached[c]) {
			conn_reply_str(c, "ERR", "ATTACHED");
			return;
		}
		sg[s].attached[c] = 1;
	} else if (strcmp(argv[0], "DETACH") == 0) {
		if (!sg[s].attached[c]) {
			conn_reply_str(c, "ERR", "NOTATTACHED");
			return;
		}
		sg[s].attached[c] = 0;
	} else {
		/* A node of the segment's own domain may delete it, its creator or not,
		 * as in the reference implementation (ke4harper/MxAPI mca-2.0.3,
		 * mrapi_impl_spec_rmem.c mrapi_impl_rmem_delete: no owner check; its
		 * tests/rmem3.c deletes from whichever thread got the buffer); a node
		 * of another domain (a shared segment) is refused. */
		if (sg[s].owner != c && cl[c].domain != sg[s].domain) {
			conn_reply_str(c, "ERR", "NOTOWNER");
			return;
		}
		/* Other nodes still attached do not stop it, as in the reference
		 * implementation (mrapi_impl_rmem_delete: no attach-count check
		 * either): the segment is withdrawn; a node still attached (the
		 * creator too) may detach from it (OK). */
		sg[s].attached[c] = 0;
		sg[s].live = 0;
	}
	conn_reply_str(c, "OK", NULL);
}

void req_line(int c, char *line, const struct dir_keys *keys)
{
	char *argv[12];
	int argc = wl_split(line, argv, 12);

	if (argc > 0 && strcmp(argv[0], "HELLO") == 0)
		do_hello(c, argv, argc, keys);
	else if (!cl[c].member)
		refuse(c, "PROTO"); /* nothing but HELLO before HELLO */
	else if (argc == 0)
		conn_reply_str(c, "ERR", "PROTO");
	else if (strcmp(argv[0], "CREATE") == 0)
		do_create(c, argv, argc);
	else if (strcmp(argv[0], "GET") == 0)
		do_get(c, argv, argc);
	else if (!strcmp(argv[0], "ATTACH") || !strcmp(argv[0], "DETACH") || !strcmp(argv[0], "DELETE"))
		do_op(c, argv, argc);
	else
		conn_reply_str(c, "ERR", "PROTO");
}

void req_gone(int c)
{
	for (int s = 0; s < DIR_MAX_SEGS; s++) {
		sg[s].attached[c] = 0;
		if (sg[s].live && sg[s].owner == c) {
			sg[s].live = 0; /* the owner left: its segments and every attachment to them go */
			memset(sg[s].attached, 0, sizeof(sg[s].attached));
		}
	}
}
