/*
 * node.c — the node: mrapi_initialize / mrapi_finalize, the process's state
 * and its lock, the configuration (environment), status names, and the
 * attribute calls (which need no RDMA).
 *
 * Configuration (README):
 *   MRAPI_RDMA_DIR   ip:port of the directory (default 127.0.0.1:7117)
 *   MRAPI_RDMA_ADDR  this node's address on its RDMA device (default 127.0.0.1)
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_DIR "127.0.0.1:7117"
#define DEFAULT_ADDR "127.0.0.1"

struct lib lib_state = { .lock = PTHREAD_MUTEX_INITIALIZER, .dir_fd = -1 };

int lib_enter(mrapi_status_t *status)
{
	if (!status)
		return 0;
	pthread_mutex_lock(&lib_state.lock);
	if (!lib_state.init) {
		pthread_mutex_unlock(&lib_state.lock);
		*status = MRAPI_ERR_NODE_NOTINIT;
		return 0;
	}
	return 1;
}

void lib_leave(void)
{
	pthread_mutex_unlock(&lib_state.lock);
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

static const char *const status_names[] = {
	"MRAPI_SUCCESS", "MRAPI_TIMEOUT", "MRAPI_ERR_MEM_LIMIT", "MRAPI_ERR_NODE_NOTINIT",
	"MRAPI_ERR_NOT_SUPPORTED", "MRAPI_ERR_PARAMETER", "MRAPI_ERR_RMEM_ID_INVALID", "MRAPI_ERR_RMEM_ATTACH",
	"MRAPI_ERR_RMEM_ATTACHED", "MRAPI_ERR_RMEM_ATYPE", "MRAPI_ERR_RMEM_ATYPE_NOTVALID",
	"MRAPI_ERR_RMEM_BLOCKED", "MRAPI_ERR_RMEM_BUFF_OVERRUN", "MRAPI_ERR_RMEM_CONFLICT",
	"MRAPI_ERR_RMEM_EXISTS", "MRAPI_ERR_RMEM_INVALID", "MRAPI_ERR_RMEM_NOTATTACHED",
	"MRAPI_ERR_RMEM_NOTOWNER", "MRAPI_ERR_RMEM_STRIDE", "MRAPI_ERR_RMEM_TYPENOTVALID",
	"MRAPI_ERR_RMEM_ATYPE_INVALID", "MRAPI_ERR_DOMAIN_NOTSHARED", "MRAPI_ERR_ATTR_NUM", "MRAPI_ERR_ATTR_SIZE",
	"MRAPI_ERR_ATTR_READONLY", "MRAPI_ERR_REQUEST_LIMIT", "MRAPI_ERR_REQUEST_INVALID",
	"MRAPI_ERR_REQUEST_CANCELED", "MRAPI_INCOMPLETE", "MRAPI_ERR_NODE_INITIALIZED",
	"MRAPI_ERR_NODE_INITFAILED", "MRAPI_ERR_NODE_FINALFAILED",
};

char *mrapi_display_status(mrapi_status_t status, char *buf, size_t size)
{
	const char *s = status >= 0 && (size_t)status < sizeof(status_names) / sizeof(status_names[0])
				? status_names[status] : "MRAPI_STATUS_UNKNOWN";

	if (buf && size)
		snprintf(buf, size, "%s", s);
	return buf;
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

static uint32_t fresh_magic(void)
{
	struct timespec t;
	uint32_t m;

	clock_gettime(CLOCK_REALTIME, &t);
	m = (uint32_t)getpid() * 2654435761u ^ (uint32_t)t.tv_nsec ^ (uint32_t)t.tv_sec << 7;
	return m ? m : 1;
}

void mrapi_initialize(mrapi_domain_t domain_id, mrapi_node_t node_id, mrapi_parameters_t init_parameters,
		      mrapi_info_t *mrapi_info, mrapi_status_t *status)
{
	char host[48];
	unsigned port;
	int fd, rc;

	(void)init_parameters;
	if (!status)
		return;
	pthread_mutex_lock(&lib_state.lock);
	if (lib_state.init) {
		*status = MRAPI_ERR_NODE_INITIALIZED;
		goto out;
	}
	if (dir_address(host, sizeof(host), &port) || node_address(lib_state.ip, sizeof(lib_state.ip))) {
		*status = MRAPI_ERR_NODE_INITFAILED;
		goto out;
	}
	rc = dir_open(host, port, domain_id, node_id, DIR_TIMEOUT_MS, &fd);
	if (rc) {
		*status = rc == -EEXIST ? MRAPI_ERR_NODE_INITIALIZED : MRAPI_ERR_NODE_INITFAILED;
		goto out;
	}
	lib_state.dir_fd = fd;
	lib_state.domain = domain_id;
	lib_state.node = node_id;
	lib_state.magic = fresh_magic();
	lib_state.init = 1;
	if (mrapi_info)
		snprintf(mrapi_info->mrapi_version, sizeof(mrapi_info->mrapi_version), "%s", MRAPI_VERSION);
	*status = MRAPI_SUCCESS;
out:
	pthread_mutex_unlock(&lib_state.lock);
}

void mrapi_finalize(mrapi_status_t *status)
{
	if (!lib_enter(status))
		return;
	for (unsigned r = 0; r < MRAPI_MAX_REQUESTS; r++)
		lib_state.rq[r].live = 0;
	/* attachments first (they use the PD), then our registrations */
	for (int pass = 0; pass < 2; pass++)
		for (int h = 0; h < LIB_MAX_HANDLES; h++)
			if (lib_state.h[h].kind == (pass ? H_OWN : H_REMOTE))
				h_release(h);
	tp_close(lib_state.tp);
	lib_state.tp = NULL;
	/* closing the directory connection withdraws our ids and attachments there */
	close(lib_state.dir_fd);
	lib_state.dir_fd = -1;
	lib_state.init = 0;
	*status = MRAPI_SUCCESS;
	lib_leave();
}

/* ------------------------------------------------------- attributes -- */

void mrapi_rmem_init_attributes(mrapi_rmem_attributes_t *attributes, mrapi_status_t *status)
{
	if (!lib_enter(status))
		return;
	if (!attributes) {
		*status = MRAPI_ERR_PARAMETER;
	} else {
		*attributes = (mrapi_rmem_attributes_t){ .magic = ATTR_MAGIC, .error_ext = MRAPI_FALSE,
							 .domain_shared = MRAPI_TRUE };
		*status = MRAPI_SUCCESS;
	}
	lib_leave();
}

/* The attribute's size, 0 for a number that is not an rmem attribute. */
static size_t attr_size(mrapi_uint_t num)
{
	switch (num) {
	case MRAPI_ERROR_EXT: case MRAPI_DOMAIN_SHARED: return sizeof(mrapi_boolean_t);
	case MRAPI_RMEM_SIZE: case MRAPI_RMEM_ATYPE: return sizeof(mrapi_uint_t);
	default: return 0;
	}
}

void mrapi_rmem_set_attribute(mrapi_rmem_attributes_t *attributes, mrapi_uint_t attribute_num,
			      const void *attribute, size_t attr_size_, mrapi_status_t *status)
{
	mrapi_boolean_t v;

	if (!status)
		return;
	if (!attributes || !attribute) {
		*status = MRAPI_ERR_PARAMETER;
		return;
	}
	if (!attr_size(attribute_num)) {
		*status = MRAPI_ERR_ATTR_NUM;
		return;
	}
	if (attr_size_ != attr_size(attribute_num)) {
		*status = MRAPI_ERR_ATTR_SIZE;
		return;
	}
	if (attribute_num == MRAPI_RMEM_SIZE || attribute_num == MRAPI_RMEM_ATYPE) {
		*status = MRAPI_ERR_ATTR_READONLY;
		return;
	}
	memcpy(&v, attribute, sizeof(v));
	if (attribute_num == MRAPI_ERROR_EXT)
		attributes->error_ext = v ? MRAPI_TRUE : MRAPI_FALSE;
	else
		attributes->domain_shared = v ? MRAPI_TRUE : MRAPI_FALSE;
	*status = MRAPI_SUCCESS;
}

void mrapi_rmem_get_attribute(mrapi_rmem_hndl_t rmem, mrapi_uint_t attribute_num, void *attribute,
			      size_t attribute_size, mrapi_status_t *status)
{
	int h;

	if (!lib_enter(status))
		return;
	h = h_find(rmem);
	if (!attribute)
		*status = MRAPI_ERR_PARAMETER;
	else if (h < 0 || lib_state.h[h].dead)
		*status = MRAPI_ERR_RMEM_INVALID;
	else if (!attr_size(attribute_num))
		*status = MRAPI_ERR_ATTR_NUM;
	else if (attribute_size != attr_size(attribute_num))
		*status = MRAPI_ERR_ATTR_SIZE;
	else {
		const struct handle *x = &lib_state.h[h];
		mrapi_boolean_t b = attribute_num == MRAPI_ERROR_EXT ? (mrapi_boolean_t)x->error_ext
								     : (mrapi_boolean_t)x->shared;
		mrapi_uint_t u = attribute_num == MRAPI_RMEM_SIZE ? (mrapi_uint_t)x->size : x->atype;

		if (attribute_num == MRAPI_ERROR_EXT || attribute_num == MRAPI_DOMAIN_SHARED)
			memcpy(attribute, &b, sizeof(b));
		else
			memcpy(attribute, &u, sizeof(u));
		*status = MRAPI_SUCCESS;
	}
	lib_leave();
}
