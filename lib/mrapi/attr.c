/*
 * attr.c — the rmem attribute calls: the caller's attribute structs
 * (init_attributes, set_attribute: no RDMA, set needs no node) and a
 * buffer's attributes through its handle (get_attribute).
 */
#include "lib/mrapi/rmem.h"

#include <string.h>

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

void mrapi_rmem_set_attribute(mrapi_rmem_attributes_t *attributes, mrapi_uint_t attribute_num, const void *attribute,
			      size_t attr_size_, mrapi_status_t *status)
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
	else if (h < 0 || h_withdrawn(h)) /* the directory: another node's buffer may be gone (RMEM-DELETE-2) */
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
