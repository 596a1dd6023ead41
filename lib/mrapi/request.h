/*
 * request.h — how a node's transfers move (request.c): a request driven
 * through its attachment's connection, the requests of a handle ended, and
 * the public value of a request slot. Builds on node.h (not a public API).
 */
#ifndef MRAPI_REQUEST_H
#define MRAPI_REQUEST_H

#include "lib/mrapi/node.h"

/* Fail and end every request on slot h (its connection died or it was withdrawn). */
void rq_abort_handle(int h, mrapi_status_t st);
/* Drive request r (blocking: until done). Returns 1 done, 0 under way. */
int rq_progress(struct request *r, int blocking);
/* The public value of request slot. */
mrapi_request_t rq_value(int slot);

#endif
