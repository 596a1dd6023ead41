/*
 * fake_engine_fx.h — the parts of a fake engine (backend_ops) the tests of
 * run-ahead of posts share (test_runner_ahead_post.c, test_run_peer_late.c; run_verdict.c):
 * made-up references, no attributes nor memory, a two-node setup with a
 * connected QP pair and its WRITE, and running a scenario text on a fake.
 */
#ifndef RDMACHECK_TEST_FAKE_ENGINE_FX_H
#define RDMACHECK_TEST_FAKE_ENGINE_FX_H

#include "harness/lang/scn.h"
#include "harness/run/runner.h"

#include <check.h>
#include <errno.h>
#include <string.h>

/* backend_ops.ref: byte off of obj at 0x10000 * (obj + 1) + off, key obj + 1. */
static inline int fx_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	(void)be, (void)remote;
	*addr = 0x10000u * (uint64_t)(obj + 1) + off;
	*key = (uint32_t)obj + 1;
	return 0;
}

/* backend_ops.attr: none known. */
static inline int fx_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *v)
{
	(void)be, (void)obj, (void)a, (void)v;
	return -ENOENT;
}

/* backend_ops.read: no memory to read. */
static inline int fx_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	(void)be, (void)obj, (void)off, (void)len, (void)buf;
	return -ENOENT;
}

/* Run text on engine ops (real mode, run-ahead on or off, profile rxe); the verdict into *r. */
static inline void fx_run_text(const char *text, const struct backend_ops *ops, int ahead, struct result *r)
{
	struct scn_file *f = NULL;
	struct scn_diags d;
	struct run_opts o = { .mode = RUN_REAL, .ahead = ahead };

	ck_assert_int_eq(m_profile_get("rxe", 0, &o.prof), 0);
	ck_assert_int_eq(scn_parse_text(text, strlen(text), "t.scn", &f, &d), 0);
	ck_assert_int_eq(run_scenario(f, ops, NULL, &o, r), 0);
	scn_free(f);
}

/* Two nodes, each a PD, a 4 KiB MR and a QP, the QPs connected: 7 steps, lines 3-9. */
#define FX_SETUP "title posts\nnodes a b\n" \
	"a: alloc_pd pd\na: reg_mr m pd=pd len=4K access=LOCAL_WRITE\na: create_qp q pd=pd\n" \
	"b: alloc_pd pd\nb: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\nb: create_qp q pd=pd\n" \
	"connect a.q b.q\n"
/* A 64-byte WRITE from a's MR into b's that expects SUCCESS. */
#define FX_WRITE "a: write q local=m+0 remote=b.m+0 len=64 expect SUCCESS\n"

#endif
