/*
 * node.c — the node: mrapi_initialize (a thread becomes a node, one of the
 * process's slots), the calling thread's node and its lock, the
 * configuration (environment), status names, debug output. (mrapi_finalize,
 * which withdraws the node's handles, is rmem.c's.)
 *
 * Configuration (README):
 *   MRAPI_RDMA_DIR   ip:port of the directory (default 127.0.0.1:7117)
 *   MRAPI_RDMA_ADDR  this node's address on its RDMA device (default 127.0.0.1)
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/node.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_DIR "127.0.0.1:7117"
#define DEFAULT_ADDR "127.0.0.1"

/* The process's nodes: a slot is claimed by mrapi_initialize, released by mrapi_finalize. */
static struct lib nodes[MRAPI_MAX_LOCAL_NODES];
static int nodes_used[MRAPI_MAX_LOCAL_NODES];
static pthread_mutex_t nodes_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t nodes_once = PTHREAD_ONCE_INIT;
static _Atomic int debug_level;

_Thread_local struct lib *lib_cur;

static void nodes_init(void)
{
	for (unsigned i = 0; i < MRAPI_MAX_LOCAL_NODES; i++) {
		pthread_mutex_init(&nodes[i].lock, NULL);
		nodes[i].dir_fd = -1;
	}
}

int lib_enter_call(mrapi_status_t *status, const char *call)
{
	if (!status)
		return 0;
	if (!lib_cur) {
		*status = MRAPI_ERR_NODE_NOTINIT;
		if (debug_level > 0)
			fprintf(stderr, "mrapi: %s: MRAPI_ERR_NODE_NOTINIT\n", call);
		return 0;
	}
	pthread_mutex_lock(&lib_cur->lock);
	lib_cur->call_status = status;
	lib_cur->call = call;
	return 1;
}

void lib_leave(void)
{
	struct lib *n = lib_cur;
	char name[MRAPI_MAX_STATUS_SIZE];

	if (debug_level > 0 && n->call_status && *n->call_status != MRAPI_SUCCESS)
		fprintf(stderr, "mrapi: %s: %s\n", n->call,
			mrapi_display_status(*n->call_status, name, sizeof(name)));
	n->call_status = NULL;
	pthread_mutex_unlock(&n->lock);
	if (!n->init) /* finalized: the thread is no node any more */
		lib_cur = NULL;
}

int lib_debug_level(void)
{
	return debug_level;
}

void mrapi_set_debug_level(int d)
{
	debug_level = d;
}

int lib_transport(struct tp_node **out)
{
	char err[160];
	int rc;

	if (!lib_state.tp && (rc = tp_open(lib_state.ip, &lib_state.tp, err, sizeof(err))))
		return rc;
	*out = lib_state.tp;
	return 0;
}

/* The reference's status names, in the order of mrapi_status_flags. */
static const char *const status_names[] = {
	"MRAPI_SUCCESS", "MRAPI_TIMEOUT", "MRAPI_INCOMPLETE", "MRAPI_ERR_ATTR_NUM", "MRAPI_ERR_ATTR_READONLY",
	"MRAPI_ERR_ATTR_SIZE", "MRAPI_ERR_DOMAIN_INVALID", "MRAPI_ERR_DOMAIN_NOTSHARED", "MRAPI_ERR_MEM_LIMIT",
	"MRAPI_ERR_MUTEX_DELETED", "MRAPI_ERR_MUTEX_EXISTS", "MRAPI_ERR_MUTEX_ID_INVALID", "MRAPI_ERR_MUTEX_INVALID",
	"MRAPI_ERR_MUTEX_KEY", "MRAPI_ERR_MUTEX_LIMIT", "MRAPI_ERR_MUTEX_LOCKED", "MRAPI_ERR_MUTEX_LOCKORDER",
	"MRAPI_ERR_MUTEX_NOTLOCKED", "MRAPI_ERR_MUTEX_NOTVALID", "MRAPI_ERR_NODE_INITFAILED",
	"MRAPI_ERR_NODE_FINALFAILED", "MRAPI_ERR_NODE_INITIALIZED", "MRAPI_ERR_NODE_INVALID",
	"MRAPI_ERR_NODE_NOTINIT", "MRAPI_ERR_NOT_SUPPORTED", "MRAPI_ERR_PARAMETER", "MRAPI_ERR_REQUEST_CANCELED",
	"MRAPI_ERR_REQUEST_INVALID", "MRAPI_ERR_REQUEST_LIMIT", "MRAPI_ERR_RMEM_ID_INVALID",
	"MRAPI_ERR_RMEM_ATTACH", "MRAPI_ERR_RMEM_ATTACHED", "MRAPI_ERR_RMEM_ATYPE", "MRAPI_ERR_RMEM_ATYPE_NOTVALID",
	"MRAPI_ERR_RMEM_BLOCKED", "MRAPI_ERR_RMEM_BUFF_OVERRUN", "MRAPI_ERR_RMEM_CONFLICT", "MRAPI_ERR_RMEM_EXISTS",
	"MRAPI_ERR_RMEM_INVALID", "MRAPI_ERR_RMEM_NOTATTACHED", "MRAPI_ERR_RMEM_NOTOWNER", "MRAPI_ERR_RMEM_STRIDE",
	"MRAPI_ERR_RMEM_TYPENOTVALID", "MRAPI_ERR_RSRC_COUNTER_INUSE", "MRAPI_ERR_RSRC_INVALID",
	"MRAPI_ERR_RSRC_INVALID_CALLBACK", "MRAPI_ERR_RSRC_INVALID_EVENT", "MRAPI_ERR_RSRC_INVALID_SUBSYSTEM",
	"MRAPI_ERR_RSRC_INVALID_TREE", "MRAPI_ERR_RSRC_NOTDYNAMIC", "MRAPI_ERR_RSRC_NOTOWNER",
	"MRAPI_ERR_RSRC_NOTSTARTED", "MRAPI_ERR_RSRC_STARTED", "MRAPI_ERR_RWL_DELETED", "MRAPI_ERR_RWL_EXISTS",
	"MRAPI_ERR_RWL_ID_INVALID", "MRAPI_ERR_RWL_INVALID", "MRAPI_ERR_RWL_LIMIT", "MRAPI_ERR_RWL_LOCKED",
	"MRAPI_ERR_RWL_NOTLOCKED", "MRAPI_ERR_SEM_DELETED", "MRAPI_ERR_SEM_EXISTS", "MRAPI_ERR_SEM_ID_INVALID",
	"MRAPI_ERR_SEM_INVALID", "MRAPI_ERR_SEM_LIMIT", "MRAPI_ERR_SEM_LOCKED", "MRAPI_ERR_SEM_LOCKLIMIT",
	"MRAPI_ERR_SEM_NOTLOCKED", "MRAPI_ERR_SHM_ATTACHED", "MRAPI_ERR_SHM_ATTCH", "MRAPI_ERR_SHM_EXISTS",
	"MRAPI_ERR_SHM_ID_INVALID", "MRAPI_ERR_SHM_INVALID", "MRAPI_ERR_SHM_NODES_INCOMPAT",
	"MRAPI_ERR_SHM_NODE_NOTSHARED", "MRAPI_ERR_SHM_NOTATTACHED",
};
_Static_assert(sizeof(status_names) / sizeof(status_names[0]) == MRAPI_ERR_SHM_NOTATTACHED + 1,
	       "a name for every status");

char *mrapi_display_status(mrapi_status_t status, char *status_message, size_t size)
{
	const char *s = status < sizeof(status_names) / sizeof(status_names[0]) ? status_names[status]
										: "MRAPI_STATUS_UNKNOWN";

	if (status_message && size)
		snprintf(status_message, size, "%s", s);
	return status_message;
}

/* "ip:port" of MRAPI_RDMA_DIR into host (>= 48 bytes) and *port. 0 or -EINVAL. */
static int dir_address(char *host, size_t hostlen, unsigned *port)
{
	const char *v = getenv("MRAPI_RDMA_DIR");
	const char *colon;
	char *end;
	unsigned long p;

	if (!v || !*v)
		v = DEFAULT_DIR;
	colon = strrchr(v, ':');
	if (!colon || (size_t)(colon - v) >= hostlen || colon == v)
		return -EINVAL;
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (errno || *end || p == 0 || p > 65535)
		return -EINVAL;
	memcpy(host, v, (size_t)(colon - v));
	host[colon - v] = '\0';
	*port = (unsigned)p;
	return 0;
}

static int node_address(char *ip, size_t len)
{
	const char *v = getenv("MRAPI_RDMA_ADDR");

	if (!v || !*v)
		v = DEFAULT_ADDR;
	if (strlen(v) >= len)
		return -EINVAL;
	memcpy(ip, v, strlen(v) + 1);
	return 0;
}

/* A 16-bit handle magic, never 0 and unlike every other live node's of this process (nodes_lock held). */
static uint32_t fresh_magic(unsigned self)
{
	static uint32_t seq;
	struct timespec t;
	uint32_t m;
	int clash;

	clock_gettime(CLOCK_REALTIME, &t);
	m = (uint32_t)getpid() * 2654435761u ^ (uint32_t)t.tv_nsec ^ (uint32_t)t.tv_sec << 7 ^ ++seq * 40503u;
	do {
		m = (m * 1103515245u + 12345u) >> 8 & 0xffffu;
		clash = m == 0;
		for (unsigned i = 0; i < MRAPI_MAX_LOCAL_NODES && !clash; i++)
			clash = i != self && nodes_used[i] && nodes[i].magic == m;
	} while (clash);
	return m;
}

/* Claim a free node slot (its index) or -1. */
static int node_claim(void)
{
	int slot = -1;

	pthread_once(&nodes_once, nodes_init);
	pthread_mutex_lock(&nodes_lock);
	for (unsigned i = 0; i < MRAPI_MAX_LOCAL_NODES && slot < 0; i++)
		if (!nodes_used[i]) {
			nodes_used[i] = 1;
			nodes[i].magic = fresh_magic(i);
			slot = (int)i;
		}
	pthread_mutex_unlock(&nodes_lock);
	return slot;
}

void lib_node_release(struct lib *n)
{
	pthread_mutex_lock(&nodes_lock);
	nodes_used[n - nodes] = 0;
	pthread_mutex_unlock(&nodes_lock);
}

/* Connect node n (its slot claimed, lock held) to the directory as (domain, node). */
static mrapi_status_t node_open(struct lib *n, mrapi_domain_t domain_id, mrapi_node_t node_id)
{
	char host[48];
	unsigned port;
	int fd, rc;

	if (dir_address(host, sizeof(host), &port) || node_address(n->ip, sizeof(n->ip)))
		return MRAPI_ERR_NODE_INITFAILED;
	rc = dir_open(host, port, domain_id, node_id, DIR_TIMEOUT_MS, &fd);
	if (rc)
		return rc == -EEXIST ? MRAPI_ERR_NODE_INITIALIZED : MRAPI_ERR_NODE_INITFAILED;
	n->dir_fd = fd;
	n->domain = domain_id;
	n->node = node_id;
	n->next_gen = 0;
	memset(n->h, 0, sizeof(n->h));
	memset(n->rq, 0, sizeof(n->rq));
	n->tp = NULL;
	n->init = 1;
	return MRAPI_SUCCESS;
}

void mrapi_initialize(mrapi_domain_t domain_id, mrapi_node_t node_id, mrapi_parameters_t init_parameters,
		      mrapi_info_t *mrapi_info, mrapi_status_t *status)
{
	char name[MRAPI_MAX_STATUS_SIZE];
	struct lib *n;
	int slot;

	(void)init_parameters;
	if (!status)
		return;
	if (lib_cur) {
		*status = MRAPI_ERR_NODE_INITIALIZED;
	} else if ((slot = node_claim()) < 0) {
		*status = MRAPI_ERR_NODE_INITFAILED;
	} else {
		n = &nodes[slot];
		pthread_mutex_lock(&n->lock);
		*status = node_open(n, domain_id, node_id);
		pthread_mutex_unlock(&n->lock);
		if (*status == MRAPI_SUCCESS)
			lib_cur = n;
		else
			lib_node_release(n);
	}
	if (*status == MRAPI_SUCCESS && mrapi_info)
		snprintf(mrapi_info->mrapi_version, sizeof(mrapi_info->mrapi_version), "%s", MRAPI_VERSION);
	if (*status != MRAPI_SUCCESS && debug_level > 0)
		fprintf(stderr, "mrapi: mrapi_initialize: %s\n", mrapi_display_status(*status, name, sizeof(name)));
}

mrapi_domain_t mrapi_domain_id_get(mrapi_status_t *status)
{
	mrapi_domain_t d = MRAPI_DOMAIN_INVALID;

	if (!lib_enter(status))
		return d;
	d = lib_state.domain;
	*status = MRAPI_SUCCESS;
	lib_leave();
	return d;
}

mrapi_node_t mrapi_node_id_get(mrapi_status_t *status)
{
	mrapi_node_t v = MRAPI_NODE_INVALID;

	if (!lib_enter(status))
		return v;
	v = lib_state.node;
	*status = MRAPI_SUCCESS;
	lib_leave();
	return v;
}
