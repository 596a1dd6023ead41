/*
 * topo.h — the node topology description file written by `netns/topology up`
 * and read by the harness and the smoke test.
 *
 * Format (text, one statement per line, '#' comments, tokens separated by
 * blanks, values never contain blanks):
 *
 *   rdmacheck-topology 1
 *   mode routed|netns
 *   prefix PREFIX          per-run prefix carried by every name `up` created
 *   hub NETNS              namespace holding the bridge and the peer veth ends
 *   node NAME netns=NETNS|- netdev=IFNAME rxe=IBDEV ipv4=A.B.C.D/LEN gid_index=N [agent=HOST:PORT]
 *   ...                    (1..TOPO_MAX_NODES node lines, names [a-z][a-z0-9_]*)
 *
 * netns=- means the node lives in the initial namespace (routed mode).
 * mode hosts: every node is on a kernel of its own (a VM per node, a real
 * host) whose agent listens at agent=HOST:PORT (rdmacheck-agent --listen;
 * harness/run/remote.h); agent= is required there and only there, netns is
 * -, and the prefix and hub lines may be left out (nothing is built: the
 * file describes what is already running). rxe= names the node's RDMA
 * device, whatever its driver.
 * rxe=- and gid_index=-1 mean the topology was built without rxe (--no-rxe).
 * Unknown keys on a node line are an error (the format is versioned instead).
 */
#ifndef RDMACHECK_TOPO_H
#define RDMACHECK_TOPO_H

#include <stddef.h>

#define TOPO_MAX_NODES 16
#define TOPO_NAME_MAX 32    /* node names, incl. NUL */
#define TOPO_IFNAME_MAX 16  /* IFNAMSIZ */
#define TOPO_NS_MAX 64
#define TOPO_IBDEV_MAX 64   /* IB_DEVICE_NAME_MAX */
#define TOPO_AGENT_MAX 128  /* HOST:PORT of a listening agent, incl. NUL */

enum topo_mode {
	TOPO_MODE_ROUTED,
	TOPO_MODE_NETNS,
	TOPO_MODE_HOSTS,    /* every node on its own kernel, its agent reached over TCP */
};

struct topo_node {
	char name[TOPO_NAME_MAX];
	char netns[TOPO_NS_MAX];    /* "" when in the initial namespace */
	char netdev[TOPO_IFNAME_MAX];
	char rxe[TOPO_IBDEV_MAX];   /* "" when built without rxe */
	char ipv4[16];              /* dotted quad, no prefix length */
	int prefix_len;
	int gid_index;              /* -1 when built without rxe */
	char agent[TOPO_AGENT_MAX]; /* mode hosts: where its agent listens; "" otherwise */
};

struct topo {
	int version;
	enum topo_mode mode;
	char prefix[TOPO_NAME_MAX];
	char hub[TOPO_NS_MAX];
	size_t n;
	struct topo_node node[TOPO_MAX_NODES];
};

/* Name of a mode ("routed", "netns", "hosts"); "?" for an out-of-range value. */
const char *topo_mode_str(enum topo_mode mode);

/* Parse a mode name. Returns 0 and sets *out, or -EINVAL. */
int topo_mode_parse(const char *s, enum topo_mode *out);

/*
 * Parse a description held in text[0..len). On success returns 0 and fills
 * *out completely. On failure returns -EINVAL and writes "line N: reason" into
 * err (if errlen > 0); *out is then unspecified. The text is untrusted: every
 * field is length-checked and validated (names, IPv4, ranges, duplicates).
 */
int topo_parse(const char *text, size_t len, struct topo *out, char *err, size_t errlen);

/*
 * Read and parse the file at path (at most 64 KiB). Returns 0, -errno from
 * opening/reading (with err set), or -EINVAL as topo_parse.
 */
int topo_load(const char *path, struct topo *out, char *err, size_t errlen);

/* The node named name, or NULL. */
const struct topo_node *topo_find(const struct topo *t, const char *name);

/*
 * Move the calling thread into node's network namespace (netns mode; a no-op
 * for a node in the initial namespace). Needs CAP_SYS_ADMIN. Returns 0 or
 * -errno (-ENOENT: no such namespace).
 */
int topo_enter_netns(const struct topo_node *node);

#endif
