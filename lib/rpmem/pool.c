/*
 * pool.c — the target's pools: part files created, checked, locked, mapped
 * contiguously (the pool's bytes as the client addresses them), headers
 * with the attributes written and re-read, files removed.
 *
 * Layout (the same as model/rpmem/predict.c's): part 0 is mapped whole (with
 * headers, its first 4096 bytes are the pool header); with per-part headers
 * (no OPTION) every later part is mapped from its byte 4096 on; with
 * SINGLEHDR or NOHDRS later parts are mapped whole. A pool is locked with
 * flock(LOCK_EX) on part 0 while open: a second opener gets EBUSY, and the
 * lock goes with the process however it ends.
 */
#define _DEFAULT_SOURCE /* flock, MAP_NORESERVE */
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, int rc, const char *fmt, const char *what)
{
	snprintf(err, errlen, fmt, what);
	return rc;
}

/* The checks create and open share: set file, syntax, sizes (RPMEM-ERRNO-1, RPMEM-SIZE-2). */
static int load_checked(const char *root, const char *name, struct rpmem_poolset *ps, char *err, size_t errlen)
{
	int rc = rpmem_poolset_load(root, name, ps, err, errlen);

	if (rc)
		return rc;
	for (unsigned i = 0; i < ps->nparts; i++)
		if (ps->part[i].size < RPMEM_MIN_PART) {
			rc = fail(err, errlen, -EINVAL, "part %s is smaller than RPMEM_MIN_PART (2 MiB)",
				  strrchr(ps->part[i].path, '/') + 1);
			rpmem_poolset_free(ps);
			return rc;
		}
	if (rpmem_poolset_usable(ps) < RPMEM_MIN_POOL) {
		rpmem_poolset_free(ps);
		return fail(err, errlen, -EINVAL, "%s: usable size below RPMEM_MIN_POOL (8 KiB)", name);
	}
	return 0;
}

static int hdr_part(const struct rpmem_poolset *ps, unsigned i)
{
	return ps->opt == RPMEM_OPT_NONE || (ps->opt == RPMEM_OPT_SINGLEHDR && i == 0);
}

/* Write part i's header with attr (pwrite + fdatasync). */
static int write_hdr(struct rpmem_tpool *tp, unsigned i, const struct rpmem_pool_attr *attr)
{
	uint8_t buf[RPMEM_HDR_SIZE];
	struct rpmem_hdr h = { .opt = tp->ps.opt, .part = i, .nparts = tp->ps.nparts,
			       .part_size = tp->ps.part[i].size, .span = tp->span, .attr = *attr };

	rpmem_hdr_encode(&h, buf);
	if (pwrite(tp->fd[i], buf, sizeof(buf), 0) != (ssize_t)sizeof(buf) || fdatasync(tp->fd[i]))
		return -EIO;
	return 0;
}

/* Map every part at its place in one reservation of span bytes. */
static int map_parts(struct rpmem_tpool *tp, char *err, size_t errlen)
{
	void *base = mmap(NULL, tp->span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (base == MAP_FAILED)
		return fail(err, errlen, -ENOMEM, "cannot reserve %s of address space", "the pool's span");
	for (unsigned i = 0; i < tp->ps.nparts; i++) {
		uint64_t fo, ml, start = rpmem_part_layout(&tp->ps, i, &fo, &ml);

		if (mmap((uint8_t *)base + start, ml, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, tp->fd[i],
			 (off_t)fo) == MAP_FAILED) {
			int rc = -errno;

			munmap(base, tp->span);
			snprintf(err, errlen, "mmap of %s: %s", tp->ps.part[i].path, strerror(-rc));
			return rc;
		}
	}
	tp->base = base;
	return 0;
}

static void close_fds(struct rpmem_tpool *tp)
{
	for (unsigned i = 0; i < tp->ps.nparts; i++)
		if (tp->fd[i] >= 0)
			close(tp->fd[i]);
}

static void tpool_init(struct rpmem_tpool *tp)
{
	memset(tp, 0, sizeof(*tp));
	for (unsigned i = 0; i < RPMEM_PARTS_MAX; i++)
		tp->fd[i] = -1;
}

int rpmem_tpool_create(const char *root, const char *name, uint64_t pool_size, const struct rpmem_pool_attr *attr,
		       struct rpmem_tpool *tp, char *err, size_t errlen)
{
	unsigned made = 0;
	int rc;

	tpool_init(tp);
	if ((rc = load_checked(root, name, &tp->ps, err, errlen)) != 0)
		return rc;
	if (!attr != (tp->ps.opt == RPMEM_OPT_NOHDRS)) { /* RPMEM-HDR-1 */
		rc = fail(err, errlen, -EINVAL, "%s", attr ? "attributes need a pool set with headers (not NOHDRS)"
							   : "no attributes: the pool set must be NOHDRS");
		goto out_ps;
	}
	for (unsigned i = 0; i < tp->ps.nparts; i++)
		if (access(tp->ps.part[i].path, F_OK) == 0) {
			rc = fail(err, errlen, -EEXIST, "part %s exists", tp->ps.part[i].path);
			goto out_ps;
		}
	if (rpmem_poolset_usable(&tp->ps) < pool_size) {
		rc = fail(err, errlen, -EFBIG, "%s: usable size smaller than the pool size", name);
		goto out_ps;
	}
	tp->span = rpmem_poolset_span(&tp->ps);
	tp->has_hdr = attr != NULL;
	if (attr)
		tp->attr = *attr;
	for (; made < tp->ps.nparts; made++) {
		const struct rpmem_part *p = &tp->ps.part[made];

		tp->fd[made] = open(p->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (tp->fd[made] < 0 || ftruncate(tp->fd[made], (off_t)p->size)) {
			rc = errno == EEXIST ? -EEXIST : -errno;
			snprintf(err, errlen, "creating %s: %s", p->path, strerror(errno));
			if (tp->fd[made] >= 0)
				made++;
			goto out_unlink;
		}
		if (made == 0 && flock(tp->fd[0], LOCK_EX | LOCK_NB)) {
			rc = fail(err, errlen, -EBUSY, "%s is locked", p->path);
			made++;
			goto out_unlink;
		}
	}
	for (unsigned i = 0; i < tp->ps.nparts; i++)
		if (hdr_part(&tp->ps, i) && (rc = write_hdr(tp, i, &tp->attr)) != 0) {
			snprintf(err, errlen, "writing the header of %s", tp->ps.part[i].path);
			goto out_unlink;
		}
	if ((rc = map_parts(tp, err, errlen)) == 0)
		return 0;
out_unlink:
	for (unsigned i = 0; i < made; i++)
		unlink(tp->ps.part[i].path);
	close_fds(tp);
out_ps:
	rpmem_poolset_free(&tp->ps);
	return rc;
}

/* Open every part, check sizes and headers (consistency), read the attributes. */
static int open_parts(struct rpmem_tpool *tp, const char *name, char *err, size_t errlen)
{
	struct rpmem_hdr h0 = { 0 };

	for (unsigned i = 0; i < tp->ps.nparts; i++) {
		const struct rpmem_part *p = &tp->ps.part[i];
		struct stat st;

		tp->fd[i] = open(p->path, O_RDWR | O_CLOEXEC);
		if (tp->fd[i] < 0)
			return fail(err, errlen, i == 0 && errno == ENOENT ? -ENOENT : errno == ENOENT ? -EINVAL : -errno,
				    "cannot open part %s", p->path);
		if (fstat(tp->fd[i], &st) || (uint64_t)st.st_size != p->size)
			return fail(err, errlen, -EINVAL, "part %s: size differs from the pool set", p->path);
	}
	for (unsigned i = 0; i < tp->ps.nparts; i++) {
		uint8_t buf[RPMEM_HDR_SIZE];
		struct rpmem_hdr h;

		if (!hdr_part(&tp->ps, i))
			continue;
		if (pread(tp->fd[i], buf, sizeof(buf), 0) != (ssize_t)sizeof(buf) || rpmem_hdr_decode(buf, &h) ||
		    h.part != i || h.nparts != tp->ps.nparts || h.span != tp->span || h.opt != (uint32_t)tp->ps.opt ||
		    (i > 0 && memcmp(&h.attr, &h0.attr, sizeof(h.attr))))
			return fail(err, errlen, -EINVAL, "%s: inconsistent pool (a header is torn or differs)", name);
		if (i == 0)
			h0 = h;
	}
	tp->has_hdr = tp->ps.opt != RPMEM_OPT_NOHDRS;
	tp->attr = h0.attr;
	return 0;
}

int rpmem_tpool_open(const char *root, const char *name, uint64_t pool_size, struct rpmem_tpool *tp, char *err,
		     size_t errlen)
{
	int rc;

	tpool_init(tp);
	if ((rc = load_checked(root, name, &tp->ps, err, errlen)) != 0)
		return rc;
	tp->span = rpmem_poolset_span(&tp->ps);
	if ((rc = open_parts(tp, name, err, errlen)) != 0)
		goto out;
	if (flock(tp->fd[0], LOCK_EX | LOCK_NB)) {
		rc = fail(err, errlen, errno == EWOULDBLOCK ? -EBUSY : -errno, "%s is open by another client", name);
		goto out;
	}
	if (rpmem_poolset_usable(&tp->ps) < pool_size) {
		rc = fail(err, errlen, -EFBIG, "%s: usable size smaller than the pool size", name);
		goto out;
	}
	if ((rc = map_parts(tp, err, errlen)) == 0)
		return 0;
out:
	close_fds(tp);
	rpmem_poolset_free(&tp->ps);
	return rc;
}

int rpmem_tpool_set_attr(struct rpmem_tpool *tp, const struct rpmem_pool_attr *attr)
{
	static const struct rpmem_pool_attr zero;
	int rc;

	if (!tp->has_hdr)
		return -EINVAL;
	for (unsigned i = 0; i < tp->ps.nparts; i++)
		if (hdr_part(&tp->ps, i) && (rc = write_hdr(tp, i, attr ? attr : &zero)) != 0)
			return rc;
	tp->attr = attr ? *attr : zero;
	return 0;
}

int rpmem_tpool_sync(struct rpmem_tpool *tp, uint64_t off, uint64_t len)
{
	uint64_t a = off & ~(uint64_t)(RPMEM_HDR_SIZE - 1);

	if (off > tp->span || len > tp->span - off)
		return -EINVAL;
	if (len && msync(tp->base + a, off + len - a, MS_SYNC))
		return -errno;
	return 0;
}

void rpmem_tpool_close(struct rpmem_tpool *tp)
{
	if (tp->base) {
		msync(tp->base, tp->span, MS_SYNC);
		munmap(tp->base, tp->span);
	}
	close_fds(tp);
	rpmem_poolset_free(&tp->ps);
	tpool_init(tp);
}

int rpmem_tpool_remove(const char *root, const char *name, int flags, char *err, size_t errlen)
{
	int force = flags & RPMEM_REMOVE_FORCE, lockfd, rc;
	struct rpmem_tpool tp;
	char path[4096];

	tpool_init(&tp);
	if (flags & ~(RPMEM_REMOVE_FORCE | RPMEM_REMOVE_POOL_SET))
		return fail(err, errlen, -EINVAL, "bad flags%s", "");
	if ((rc = rpmem_poolset_load(root, name, &tp.ps, err, errlen)) != 0)
		return rc;
	tp.span = rpmem_poolset_span(&tp.ps);
	/* Held until the parts are gone: nobody opens the pool meanwhile. */
	lockfd = open(tp.ps.part[0].path, O_RDWR | O_CLOEXEC);
	if (lockfd >= 0 && flock(lockfd, LOCK_EX | LOCK_NB)) {
		rc = fail(err, errlen, -EBUSY, "%s is open", name);
		goto out;
	}
	if (!force && (rc = open_parts(&tp, name, err, errlen)) != 0)
		goto out;
	for (unsigned i = 0; i < tp.ps.nparts; i++)
		if (unlink(tp.ps.part[i].path) && errno != ENOENT) {
			rc = fail(err, errlen, -errno, "cannot remove %s", tp.ps.part[i].path);
			goto out;
		}
	snprintf(path, sizeof(path), "%s/%s", root, name);
	if ((flags & RPMEM_REMOVE_POOL_SET) && unlink(path))
		rc = fail(err, errlen, -errno, "cannot remove the pool set file %s", name);
out:
	if (lockfd >= 0)
		close(lockfd);
	close_fds(&tp);
	rpmem_poolset_free(&tp.ps);
	return rc;
}
