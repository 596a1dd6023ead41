/*
 * scn_parse.c — a scenario file: lines, header statements (title, cite,
 * require, nodes), `repeat N { ... }` blocks, dispatch of steps
 * (scn_step.c), reading files, freeing.
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The rest of the line from word 1 (comment stripped) into buf. */
static void header_text(struct scn_ctx *c, const char *what, const char *need, char *buf)
{
	const struct scn_line *ln = c->ln;
	const struct scn_word *first = &ln->w[1], *last = &ln->w[ln->nwords - 1];

	if (ln->nwords < 2) {
		scn_diag_w(c, &ln->w[0], NULL, SCN_E_NEEDS_TEXT, what, need);
		return;
	}
	if (!scn_copy(buf, SCN_TEXT_MAX, first->p, (size_t)(last->p + last->len - first->p))) {
		buf[0] = '\0';
		scn_diag_w(c, first, NULL, SCN_E_TEXT_TOO_LONG, SCN_TEXT_MAX - 1);
	}
}

/* cite TEXT; `cite rule ID [comment]` also records the ID and where it stands. */
static void parse_cite(struct scn_ctx *c)
{
	const struct scn_line *ln = c->ln;
	struct scn_file *f = c->f;
	struct scn_rule_cite *r;

	header_text(c, "cite", "text", f->cites[f->ncites++]);
	if (ln->nwords < 3 || !WORD_IS(&ln->w[1], "rule"))
		return;
	r = &f->rules[f->nrules++];
	r->line = ln->no;
	r->col = ln->w[2].col;
	if (!scn_copy(r->id, sizeof(r->id), ln->w[2].p, ln->w[2].len))
		r->id[0] = '\0';
}

static void parse_require(struct scn_ctx *c)
{
	const struct scn_line *ln = c->ln;
	struct scn_file *f = c->f;
	char name[SCN_NAME_MAX + 1], hint[224];

	if (ln->nwords < 2)
		scn_diag_w(c, &ln->w[0], NULL, SCN_E_NEEDS_TEXT, "require", "a capability");
	for (size_t i = 1; i < ln->nwords; i++) {
		int cap = -ENOENT;
		bool seen = false;

		if (scn_copy(name, sizeof(name), ln->w[i].p, ln->w[i].len))
			cap = scn_cap_find(name);
		if (cap < 0) {
			if (!scn_hint_best(name, scn_cand_cap, NULL, false, hint, sizeof(hint)))
				scn_cand_list(scn_cand_cap, NULL, "known: ", hint, sizeof(hint));
			scn_diag_w(c, &ln->w[i], hint, SCN_E_UNKNOWN_CAP, name);
			continue;
		}
		for (size_t k = 0; k < f->nrequires; k++)
			seen |= f->requires[k] == cap;
		if (!seen && f->nrequires < SCN_REQUIRES_MAX)
			f->requires[f->nrequires++] = (uint8_t)cap;
	}
}

static void parse_nodes(struct scn_ctx *c)
{
	const struct scn_line *ln = c->ln;
	struct scn_file *f = c->f;
	char name[SCN_NAME_MAX + 1];

	if (c->nodes_seen) {
		scn_diag_w(c, &ln->w[0], NULL, SCN_E_TWICE, "nodes", c->nodes_line);
		return;
	}
	c->nodes_seen = true;
	c->nodes_line = ln->no;
	if (ln->nwords < 2) {
		scn_diag_w(c, &ln->w[0], NULL, SCN_E_NODE_COUNT, SCN_NODES_MAX);
		return;
	}
	if (ln->nwords - 1 > SCN_NODES_MAX) {
		/* the first SCN_NODES_MAX are declared: the steps on them are still checked */
		scn_diag_w(c, &ln->w[SCN_NODES_MAX + 1], "the model holds at most 16 nodes (M_MAX_NODES)",
			   SCN_E_NODE_COUNT, SCN_NODES_MAX);
		c->nodes_refused = true;
	}
	for (size_t i = 1; i < ln->nwords && i <= SCN_NODES_MAX; i++) {
		bool fits = scn_copy(name, sizeof(name), ln->w[i].p, ln->w[i].len);

		if (!fits || !scn_is_node_name(name)) {
			scn_diag_w(c, &ln->w[i], "node names are [a-z][a-z0-9_]*, at most 31 bytes",
				   SCN_E_BAD_NODE_NAME, name);
			c->nodes_refused = true;
			continue;
		}
		if (scn_node_find(f, name) >= 0) {
			scn_diag_w(c, &ln->w[i], NULL, SCN_E_NODE_TWICE, name);
			continue;
		}
		scn_copy(f->nodes[f->nnodes++], SCN_NAME_MAX, name, strlen(name));
	}
}

static void statement(struct scn_ctx *c)
{
	const struct scn_line *ln = c->ln;
	const struct scn_word *w0 = &ln->w[0];
	struct scn_file *f = c->f;
	bool header = WORD_IS(w0, "title") || WORD_IS(w0, "cite") || WORD_IS(w0, "require") ||
		      WORD_IS(w0, "nodes");
	char word[SCN_NAME_MAX + 1], hint[224];

	scn_copy(word, sizeof(word), w0->p, w0->len);
	if (header && c->in_steps) {
		scn_diag_w(c, w0, "header lines come before the steps", SCN_E_HEADER_AFTER_STEP, word);
	} else if (WORD_IS(w0, "title")) {
		if (f->title_line)
			scn_diag_w(c, w0, NULL, SCN_E_TWICE, "title", f->title_line);
		else
			header_text(c, "title", "text", f->title);
		f->title_line = ln->no;
	} else if (WORD_IS(w0, "cite")) {
		if (f->ncites == SCN_CITES_MAX)
			scn_diag_w(c, w0, NULL, SCN_E_TOO_MANY, "cite lines", SCN_CITES_MAX);
		else
			parse_cite(c);
	} else if (WORD_IS(w0, "require")) {
		parse_require(c);
	} else if (WORD_IS(w0, "nodes")) {
		parse_nodes(c);
	} else if (WORD_IS(w0, "connect") || memchr(w0->p, ':', w0->len)) {
		c->in_steps = true;
		if (!c->nodes_seen)
			scn_diag_w(c, w0, "declare them first, e.g. 'nodes a b'", SCN_E_NO_NODES);
		else
			scn_parse_step(c);
	} else {
		if (!scn_hint_best(word, scn_cand_statement, NULL, false, hint, sizeof(hint)) &&
		    scn_call_find(word) >= 0)
			snprintf(hint, sizeof(hint), "a step starts with its node, e.g. 'a: %s …'", word);
		scn_diag_w(c, w0, hint, SCN_E_UNKNOWN_STATEMENT, word);
	}
}

/* An open `repeat N {` block: where its body starts, how often it runs. */
struct repeat {
	bool open;
	uint32_t times;
	uint32_t open_no, open_col; /* the `repeat` line */
	uint32_t body_no;           /* the number of the line before the body's first */
	size_t body_pos;            /* the offset of the body's first line in the text */
	size_t nsteps;              /* the file's steps before the body */
	size_t ndiags;              /* the diagnostics before the body */
};

static void parse_lines(struct scn_ctx *c, struct scn_line *ln, const char *text, size_t from, size_t to,
			uint32_t *no, struct repeat *r);

/* `repeat N {`: open a block whose body (the lines up to `}`) runs N times. */
static void repeat_open(struct scn_ctx *c, struct repeat *r, size_t body_pos)
{
	const struct scn_line *ln = c->ln;
	uint64_t n = 0;

	if (r->open) {
		scn_diag_w(c, &ln->w[0], "close the first block with '}' before opening another", SCN_E_REPEAT,
			   "a block inside another");
		return;
	}
	if (ln->nwords != 3 || !WORD_IS(&ln->w[2], "{")) {
		scn_diag_w(c, &ln->w[0], "e.g. 'repeat 10 {', the body on the next lines, then '}'", SCN_E_REPEAT,
			   "the line is 'repeat N {'");
		return;
	}
	if (scn_int_parse(ln->w[1].p, ln->w[1].len, &n) != 0 || n < 1 || n > SCN_REPEAT_MAX) {
		scn_diag_w(c, &ln->w[1], "at most 1000 iterations (SCN_REPEAT_MAX)", SCN_E_REPEAT,
			   "N is a count from 1 to 1000");
		return;
	}
	*r = (struct repeat){ .open = true, .times = (uint32_t)n, .open_no = ln->no, .open_col = ln->w[0].col,
			      .body_no = ln->no, .body_pos = body_pos, .nsteps = c->f->nsteps, .ndiags = c->d->n };
	c->in_block = true;
}

/* Keep the block r in the file (the canonical printer gives it back as a block). */
static int block_add(struct scn_ctx *c, const struct repeat *r)
{
	struct scn_file *f = c->f;
	struct scn_block *b = realloc(f->blocks, (f->nblocks + 1) * sizeof(*b));

	if (!b) {
		c->oom = 1;
		return -ENOMEM;
	}
	f->blocks = b;
	f->blocks[f->nblocks++] = (struct scn_block){ .line = r->open_no, .first = (uint32_t)r->nsteps,
						      .nbody = (uint32_t)(f->nsteps - r->nsteps), .times = r->times };
	return 0;
}

/*
 * `}`: close the open block and parse its body N-1 more times, each time
 * with the body's own line numbers, so every iteration's steps are in the
 * file (lint and the model judge each) and a diagnostic names the body's
 * line. A body that had errors the first time is not parsed again.
 */
static void repeat_close(struct scn_ctx *c, struct scn_line *ln, struct repeat *r, const char *text, size_t close_pos)
{
	if (!r->open) {
		scn_diag_w(c, &ln->w[0], "a block opens with 'repeat N {'", SCN_E_REPEAT, "'}' without a block");
		return;
	}
	r->open = false;
	c->in_block = false;
	if (ln->nwords != 1) {
		scn_diag_w(c, &ln->w[1], NULL, SCN_E_REPEAT, "'}' stands alone on its line");
		return;
	}
	if (c->d->n > r->ndiags)
		return; /* the body's errors, given once */
	if (c->f->nsteps == r->nsteps) {
		scn_diag_w(c, &ln->w[0], NULL, SCN_E_REPEAT, "the block has no step");
		return;
	}
	if ((uint64_t)(close_pos - r->body_pos) * (r->times - 1) > SCN_REPEAT_TEXT_MAX) {
		scn_diag_w(c, &ln->w[0], "a shorter body or fewer iterations", SCN_E_REPEAT,
			   "the body, N times, is more than 8 MiB of text to parse");
		return;
	}
	if (block_add(c, r) != 0)
		return;
	c->in_block = true;
	for (uint32_t k = 1; k < r->times && !c->oom && c->d->n == r->ndiags; k++) {
		uint32_t no = r->body_no;

		parse_lines(c, ln, text, r->body_pos, close_pos, &no, NULL);
	}
	c->in_block = false;
}

/*
 * Lex and parse the lines of text[from, to), numbering them from *no + 1.
 * With r, a `repeat N {` line opens a block and a `}` line closes it (and
 * runs it again); without r (a block's body run again) neither appears.
 */
static void parse_lines(struct scn_ctx *c, struct scn_line *ln, const char *text, size_t from, size_t to,
			uint32_t *no, struct repeat *r)
{
	size_t ndiags = c->d->n;

	/* A body run again stops at its first error: one diagnostic, not one per iteration. */
	for (size_t pos = from; pos < to && !c->oom && c->d->n < SCN_DIAG_MAX && (r || c->d->n == ndiags);) {
		const char *nl = memchr(text + pos, '\n', to - pos);
		size_t end = nl ? (size_t)(nl - text) : to, line_pos = pos;

		*ln = (struct scn_line){ .p = text + pos, .len = end - pos, .no = ++*no };
		if (ln->len && ln->p[ln->len - 1] == '\r')
			ln->len--;
		pos = end + 1;
		c->ln = ln;
		c->stmt_errs = 0;
		if (scn_lex_line(c, ln) != 0 || ln->nwords == 0)
			continue;
		if (r && WORD_IS(&ln->w[0], "repeat"))
			repeat_open(c, r, pos);
		else if (r && WORD_IS(&ln->w[0], "}"))
			repeat_close(c, ln, r, text, line_pos);
		else
			statement(c);
	}
}

/* The checks of a whole file, once its lines parsed without errors. */
static void file_checks(struct scn_ctx *c)
{
	scn_check_limits(c);
	scn_check_chains(c);
	scn_check_sges(c);
	scn_check_wr_posts(c);
}

static void default_title(struct scn_file *f, const char *filename)
{
	const char *base = strrchr(filename, '/');

	snprintf(f->name, sizeof(f->name), "%s", filename);
	snprintf(f->title, sizeof(f->title), "%s", base && base[1] ? base + 1 : filename);
}

int scn_parse_text(const char *text, size_t len, const char *filename, struct scn_file **out,
		   struct scn_diags *diags)
{
	struct scn_ctx c = { .d = diags };
	struct repeat rep = { .open = false };
	struct scn_line *ln;
	uint32_t no = 0;

	if (!out || !diags || (!text && len))
		return -EINVAL;
	*out = NULL;
	memset(diags, 0, sizeof(*diags));
	c.f = calloc(1, sizeof(*c.f));
	ln = malloc(sizeof(*ln));
	if (!c.f || !ln) {
		free(ln);
		free(c.f);
		return -ENOMEM;
	}
	default_title(c.f, filename ? filename : "-");
	if (len > SCN_FILE_MAX) {
		scn_diag(&c, 1, 1, NULL, SCN_E_FILE_TOO_LARGE, SCN_FILE_MAX);
		len = 0;
	}
	/* A UTF-8 byte order mark (editors on Windows write one) is not text. */
	size_t start = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;

	parse_lines(&c, ln, text, start, len, &no, &rep);
	if (rep.open && diags->n < SCN_DIAG_MAX)
		scn_diag(&c, rep.open_no, rep.open_col, "close it with a line holding only '}'", SCN_E_REPEAT,
			 "the block is not closed");
	c.ln = NULL;
	if (diags->n >= SCN_DIAG_MAX)
		diags->dropped++; /* parsing stopped at the cap: at least one more */
	else if (c.f->nsteps == 0 && diags->n == 0)
		scn_diag(&c, no ? no : 1, 1, "a scenario has at least one step", SCN_E_NO_STEPS);
	else if (diags->n == 0 && !c.oom)
		file_checks(&c);
	free(ln);
	if (c.oom) {
		scn_free(c.f);
		return -ENOMEM;
	}
	if (diags->n) {
		scn_free(c.f);
		return -EINVAL;
	}
	*out = c.f;
	return 0;
}

/* Read at most SCN_FILE_MAX + 1 bytes of path into a new buffer. */
static int read_all(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	int rc = 0;

	*buf = NULL;
	if (fd < 0)
		return -errno;
	*buf = malloc(SCN_FILE_MAX + 1);
	if (!*buf) {
		rc = -ENOMEM;
		goto out_close;
	}
	while (n < SCN_FILE_MAX + 1) {
		ssize_t r = read(fd, *buf + n, SCN_FILE_MAX + 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			goto out_free;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	close(fd);
	return n > SCN_FILE_MAX ? -EFBIG : 0;
out_free:
	free(*buf);
	*buf = NULL;
out_close:
	close(fd);
	return rc;
}

int scn_parse_file(const char *path, struct scn_file **out, struct scn_diags *diags)
{
	char *buf;
	size_t len = 0;
	int rc;

	if (!path || !out || !diags)
		return -EINVAL;
	*out = NULL;
	rc = read_all(path, &buf, &len);
	if (rc < 0) {
		struct scn_ctx c = { .d = diags };

		memset(diags, 0, sizeof(*diags));
		if (rc == -EFBIG)
			scn_diag(&c, 0, 0, NULL, SCN_E_FILE_TOO_LARGE, SCN_FILE_MAX);
		else
			scn_diag(&c, 0, 0, NULL, SCN_E_READ, strerror(-rc));
		free(buf);
		return rc;
	}
	rc = scn_parse_text(buf, len, path, out, diags);
	free(buf);
	return rc;
}

/* Release the strings step s owns. */
static void step_strings_free(struct scn_step *s)
{
	for (size_t k = 0; k < s->nargs; k++)
		free(s->args[k].v.str);
	for (size_t k = 0; k < s->nconds; k++)
		free(s->conds[k].v.str);
}

void scn_unappend(struct scn_file *f, const struct scn_mark *m)
{
	while (f->nsteps > m->nsteps)
		step_strings_free(&f->steps[--f->nsteps]);
	f->nobjs = m->nobjs;
	for (size_t i = 0; i < m->nobjs; i++)
		f->objs[i].live = m->live[i];
}

int scn_append_step(struct scn_file *f, const char *line, size_t len, uint32_t lineno, struct scn_diags *diags,
		    struct scn_mark *m)
{
	/* Where scn_parse_text stands after a file's steps: its nodes seen, in the steps. */
	struct scn_ctx c = { .f = f, .d = diags, .in_steps = true, .nodes_seen = true };
	struct scn_line *ln;

	if (!f || !diags || !m || (!line && len) || (len && memchr(line, '\n', len)))
		return -EINVAL;
	memset(diags, 0, sizeof(*diags));
	m->nsteps = f->nsteps;
	m->nobjs = f->nobjs;
	for (size_t i = 0; i < f->nobjs; i++)
		m->live[i] = f->objs[i].live;
	ln = malloc(sizeof(*ln));
	if (!ln)
		return -ENOMEM;
	*ln = (struct scn_line){ .p = line, .len = len, .no = lineno };
	if (ln->len && ln->p[ln->len - 1] == '\r')
		ln->len--;
	c.ln = ln;
	if (scn_lex_line(&c, ln) == 0 && ln->nwords > 0)
		statement(&c);
	c.ln = NULL;
	if (diags->n >= SCN_DIAG_MAX)
		diags->dropped++;
	else if (diags->n == 0 && !c.oom)
		file_checks(&c);
	free(ln);
	if (c.oom || diags->n) {
		scn_unappend(f, m);
		return c.oom ? -ENOMEM : -EINVAL;
	}
	return 0;
}

void scn_free(struct scn_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nsteps; i++)
		step_strings_free(&f->steps[i]);
	free(f->steps);
	free(f->objs);
	free(f->blocks);
	free(f);
}
