/* files.c — collecting scenario files (files.h). */
#include "harness/cli/files.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int push(struct filelist *fl, const char *path)
{
	if (fl->n == fl->cap) {
		size_t cap = fl->cap ? fl->cap * 2 : 64;
		char **v = realloc(fl->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		fl->v = v;
		fl->cap = cap;
	}
	fl->v[fl->n] = strdup(path);
	if (!fl->v[fl->n])
		return -ENOMEM;
	fl->n++;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directories from the path given down to the one being searched. */
struct ancestor {
	dev_t dev;
	ino_t ino;
	const struct ancestor *up;
};

static int is_ancestor(const struct ancestor *a, const struct stat *st)
{
	for (; a; a = a->up)
		if (a->dev == st->st_dev && a->ino == st->st_ino)
			return 1;
	return 0;
}

static int walk(struct filelist *fl, const char *dir, const struct ancestor *up, int depth, char *err,
		size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		int no = errno;

		snprintf(err, errlen, "%s: %s", dir, strerror(no));
		return -no;
	}
	while (rc == 0 && (e = readdir(d))) {
		char path[4096];
		struct stat st;
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path)) {
			snprintf(err, errlen, "%s/%s: path too long", dir, e->d_name);
			rc = -ENAMETOOLONG;
			break;
		}
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 16) {
			struct ancestor me = { st.st_dev, st.st_ino, up };

			/* a symbolic link back up the tree would be searched again and again */
			if (!is_ancestor(up, &st))
				rc = walk(fl, path, &me, depth + 1, err, errlen);
		} else if (S_ISREG(st.st_mode) && len > 4 && strcmp(e->d_name + len - 4, ".scn") == 0) {
			rc = push(fl, path);
		}
	}
	closedir(d);
	return rc;
}

int files_add(struct filelist *fl, const char *path, char *err, size_t errlen)
{
	struct stat st;
	size_t first = fl->n;
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
	if (!S_ISDIR(st.st_mode))
		return push(fl, clean);
	rc = walk(fl, clean, &(struct ancestor){ st.st_dev, st.st_ino, NULL }, 0, err, errlen);
	if (rc)
		return rc;
	if (fl->n == first) {
		snprintf(err, errlen, "%s: no *.scn files", path);
		return -ENOENT;
	}
	qsort(fl->v + first, fl->n - first, sizeof(*fl->v), cmp);
	return 0;
}

void files_free(struct filelist *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->v[i]);
	free(fl->v);
	memset(fl, 0, sizeof(*fl));
}
