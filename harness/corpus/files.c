/*
 * files.c — collecting scenario files (files.h). A directory is searched in
 * sorted order, its real subdirectories first and the symbolic links it
 * holds after the whole real tree, so that a file reachable both ways keeps
 * its path without links. Device and inode numbers make every file and every
 * directory count once, which also ends link loops.
 */
#include "harness/corpus/files.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Grow an array of *cap elements of size sz to hold n + 1. */
static int grow(void *arrp, size_t *cap, size_t n, size_t sz)
{
	void **arr = arrp;
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, ncap * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static int push_str(char ***v, size_t *n, size_t *cap, const char *s)
{
	char *copy;

	if (grow(v, cap, *n, sizeof(**v)))
		return -ENOMEM;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	(*v)[(*n)++] = copy;
	return 0;
}

int files_push(struct filelist *fl, const char *name)
{
	return push_str(&fl->v, &fl->n, &fl->cap, name);
}

static int note(struct filelist *fl, const char *fmt, ...)
{
	char buf[4200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return push_str(&fl->notes, &fl->nnotes, &fl->capnotes, buf);
}

/* path could not be read (why: "cannot read the directory: REASON"): recorded in fl->unread. 0 or -ENOMEM. */
static int unread(struct filelist *fl, const char *path, const char *why)
{
	struct files_unread *u;

	if (fl->nunread && strcmp(fl->unread[fl->nunread - 1].path, path) == 0)
		return 0; /* said once */
	if (grow(&fl->unread, &fl->capunread, fl->nunread, sizeof(*fl->unread)))
		return -ENOMEM;
	u = &fl->unread[fl->nunread];
	u->path = strdup(path);
	u->why = strdup(why);
	if (!u->path || !u->why) {
		free(u->path);
		free(u->why);
		return -ENOMEM;
	}
	fl->nunread++;
	return 0;
}

/* unread() with why "cannot read the directory|entry: strerror(no)". */
static int unread_errno(struct filelist *fl, const char *path, const char *what, int no)
{
	char why[256];

	snprintf(why, sizeof(why), "cannot read the %s: %s", what, strerror(no));
	return unread(fl, path, why);
}

/* Take (dev, ino) if not taken yet: 1 taken now, 0 taken before, -ENOMEM. */
static int take(struct filelist *fl, const struct stat *st)
{
	for (size_t i = 0; i < fl->nseen; i++)
		if (fl->seen[i].dev == st->st_dev && fl->seen[i].ino == st->st_ino)
			return 0;
	if (grow(&fl->seen, &fl->capseen, fl->nseen, sizeof(*fl->seen)))
		return -ENOMEM;
	fl->seen[fl->nseen++] = (struct files_id){ st->st_dev, st->st_ino };
	return 1;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *kind_str(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : "not a regular file";
}

static int is_scn(const char *name)
{
	size_t len = strlen(name);

	return len > 4 && strcmp(name + len - 4, ".scn") == 0;
}

/* The symbolic links met in the real tree, searched after it: paths and depths. */
struct links {
	char **v;
	int *depth;
	size_t n, cap, capd;
};

static int walk(struct filelist *fl, struct links *ln, const char *dir, int depth);

/* One entry path (depth: its directory's) whose stat is st. */
static int entry(struct filelist *fl, struct links *ln, const char *path, const char *name,
		 const struct stat *st, int depth)
{
	int rc;

	if (S_ISDIR(st->st_mode)) {
		if (depth + 1 > FILES_DEPTH_MAX) {
			char why[64];

			snprintf(why, sizeof(why), "not read: deeper than %d directories", FILES_DEPTH_MAX);
			return unread(fl, path, why);
		}
		rc = take(fl, st);
		return rc <= 0 ? rc : walk(fl, ln, path, depth + 1);
	}
	if (!is_scn(name))
		return 0;
	if (!S_ISREG(st->st_mode))
		return note(fl, "%s: skipped: %s", path, kind_str(st->st_mode));
	rc = take(fl, st);
	return rc <= 0 ? rc : push_str(&fl->v, &fl->n, &fl->cap, path);
}

static int walk(struct filelist *fl, struct links *ln, const char *dir, int depth)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), rc = 0;

	if (n < 0)
		return errno == ENOMEM ? -ENOMEM : unread_errno(fl, dir, "directory", errno);
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char path[4096];
		struct stat st;

		if (rc || name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
			rc = unread(fl, dir, "not read: an entry's path is longer than 4095 bytes");
		else if (lstat(path, &st))
			rc = unread_errno(fl, path, "entry", errno);
		else if (S_ISLNK(st.st_mode)) {
			if (grow(&ln->v, &ln->cap, ln->n, sizeof(*ln->v)) ||
			    grow(&ln->depth, &ln->capd, ln->n, sizeof(*ln->depth)))
				rc = -ENOMEM;
			else if (!(ln->v[ln->n] = strdup(path)))
				rc = -ENOMEM;
			else
				ln->depth[ln->n++] = depth;
		} else {
			rc = entry(fl, ln, path, name, &st, depth);
		}
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return rc;
}

static void links_free(struct links *ln)
{
	for (size_t i = 0; i < ln->n; i++)
		free(ln->v[i]);
	free(ln->v);
	free(ln->depth);
}

/* The links met so far, in turn (searching one may meet more). */
static int follow_links(struct filelist *fl, struct links *ln)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < ln->n; i++) {
		const char *path = ln->v[i], *name = strrchr(path, '/') + 1;
		struct stat st;

		if (stat(path, &st) == 0)
			rc = entry(fl, ln, path, name, &st, ln->depth[i]);
		else if (errno == ELOOP)
			rc = note(fl, "%s: skipped: symbolic link loop", path);
		else if (errno == ENOENT)
			rc = note(fl, "%s: skipped: dangling symbolic link", path);
		else
			rc = unread_errno(fl, path, "symbolic link", errno);
	}
	return rc;
}

/* A directory given on the command line (taken already). */
static int add_dir(struct filelist *fl, const char *path)
{
	struct links ln = { 0 };
	int rc = walk(fl, &ln, path, 0);

	if (rc == 0)
		rc = follow_links(fl, &ln);
	links_free(&ln);
	return rc;
}

int files_add(struct filelist *fl, const char *path, char *err, size_t errlen)
{
	struct stat st;
	size_t first = fl->n, first_unread = fl->nunread;
	char clean[4096];
	size_t len;
	int rc;

	snprintf(clean, sizeof(clean), "%s", path);
	len = strlen(clean);
	while (len > 1 && clean[len - 1] == '/')
		clean[--len] = '\0';
	if (stat(clean, &st)) {
		int no = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(no));
		return -no;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s, not a scenario file", path, kind_str(st.st_mode));
		return -EINVAL;
	}
	rc = take(fl, &st);
	if (rc <= 0)    /* named before (or inside a directory named before): taken once */
		return rc;
	if (S_ISREG(st.st_mode))
		return push_str(&fl->v, &fl->n, &fl->cap, clean);
	rc = add_dir(fl, clean);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (fl->n == first && fl->nunread == first_unread) {
		snprintf(err, errlen, "%s: no *.scn files", path);
		return -ENOENT;
	}
	if (fl->n > first) /* none when the tree holds only what could not be read (fl->v NULL) */
		qsort(fl->v + first, fl->n - first, sizeof(*fl->v), cmp);
	return 0;
}

void files_free(struct filelist *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->v[i]);
	for (size_t i = 0; i < fl->nnotes; i++)
		free(fl->notes[i]);
	for (size_t i = 0; i < fl->nunread; i++) {
		free(fl->unread[i].path);
		free(fl->unread[i].why);
	}
	free(fl->v);
	free(fl->notes);
	free(fl->unread);
	free(fl->seen);
	memset(fl, 0, sizeof(*fl));
}
