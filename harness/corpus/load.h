/*
 * load.h — scenario files loaded for the subcommands (harness/corpus/load.c):
 * collecting and parsing them, their diagnostics with the source line, the
 * profile a run judges by, and the model walk lint, predict and coverage share.
 */
#ifndef RDMACHECK_LOAD_H
#define RDMACHECK_LOAD_H

#include "harness/corpus/files.h"
#include "harness/run/runner.h"
#include "harness/lang/scn.h"

#include <stdio.h>

/*
 * Collect PATHs and parse every file; print each diagnostic to stderr.
 * Returns 0 with fl and *files (parsed, same order; release with cli_unload),
 * or EXIT_USAGE when a path is unusable or a file has errors.
 */
int cli_load(int npaths, char **paths, struct filelist *fl, struct scn_file ***files);
/*
 * Like cli_load, but a file that does not parse is no reason to stop (run
 * reports it as an ERROR and goes on): (*files)[i] is NULL and (*diags)[i]
 * its diagnostics as text ("FILE:LINE:COL: MESSAGE\n" lines, malloc'd; NULL
 * for a file that parsed), nothing printed but what files_add noted. What
 * files_add could not read (fl->unread: a directory it may not list) comes
 * after the files, an entry each with (*files)[i] NULL and the diagnostic
 * "PATH: WHY (" CLI_UNREAD_NOTE ")": every report shows it as an ERROR.
 * Returns 0, EXIT_USAGE (a path unusable, said on stderr) or EXIT_INFRA (no
 * memory). Release diags with cli_unload_diags(fl->n, diags).
 */
int cli_load_each(int npaths, char **paths, struct filelist *fl, struct scn_file ***files, char ***diags);
/* Release what cli_load / cli_load_each gave (files[i] may be NULL). */
void cli_unload(struct filelist *fl, struct scn_file **files);
void cli_unload_diags(size_t n, char **diags);

#define CLI_UNREAD_NOTE "the scenarios it holds are not run"
/*
 * Make r (r->file set) the result of a file that does not parse: ERROR, its
 * first diagnostic ("FILE:LINE:COL: MESSAGE", from cli_load_each's diags) the
 * reason and its LINE the line, the others the detail; the title "(does not
 * parse)", or "(not read)" for a path the walk could not read. Returns 0 or -ENOMEM.
 */
int cli_parse_error(struct result *r, const char *diags);

/*
 * Print d about path to out as the parser formats it, with path's line
 * d->line shown and a caret under d->col (scn_diag_format_src); a line that
 * cannot be read is left out.
 */
void cli_diag_print(FILE *out, const char *path, const struct scn_diag *d);
/*
 * A disagreement between path's file and the model (run_opts.on_disagree's
 * line, col, msg and word) as a diagnostic *d, the way lint says it: col
 * moved onto word (an outcome's name; NULL: none) where the source line
 * has it there or after.
 */
void cli_disagree_diag(const char *path, uint32_t line, uint32_t col, const char *msg, const char *word,
		       struct scn_diag *d);
/*
 * Make d (a cli_disagree_diag) r's reason and line as lint prints it:
 * "PATH:LINE:COL: MESSAGE", the source line and its caret first in the
 * detail (what the detail held follows). r's verdict stays. 0 or -ENOMEM.
 */
int cli_disagree_result(struct result *r, const char *path, const struct scn_diag *d);
/*
 * The first disagreement of a run on the model engine (run_opts.model_engine,
 * --stack=model), kept as lint says it: cli_first_disagree is an
 * on_disagree with ctx a struct cli_first_disagree (path: the file's), and
 * cli_first_disagree_result makes r's FAIL at that line its text
 * (cli_disagree_result). 0 or -ENOMEM.
 */
struct cli_first_disagree {
	const char *path;
	int said;
	struct scn_diag d;
};
void cli_first_disagree(void *ctx, const struct scn_file *f, size_t step, uint32_t line, uint32_t col,
			const char *msg, const char *word);
int cli_first_disagree_result(const struct cli_first_disagree *fd, struct result *r);
/* Line no (1-based) of path, without its end (LF or CRLF), into buf; 0 or -ENOENT. */
int cli_source_line(const char *path, uint32_t no, char *buf, size_t len);

/* Look up --profile=NAME[:MAJOR.MINOR]; 0 or -EINVAL with a message printed. */
int cli_profile(const char *arg, struct m_profile *out);

/* The model capabilities every model engine has (all of them). */
uint32_t cli_all_caps(void);

/*
 * Walk f on the model (run_walk, runner.h: the generic reading of prof's
 * device with what f requires is the engine and the judge, prof the
 * profile's predictions) and judge it into *r (release with result_clear).
 * on_step and on_disagree (NULL: none) with ctx are run_opts' (runner.h):
 * with on_disagree the walk reports every disagreement and goes on past it.
 * Returns r->v.
 */
enum verdict cli_walk(const struct scn_file *f, const struct m_profile *prof,
		      void (*on_step)(void *, const struct scn_file *, size_t, const struct m_pred *,
				      const struct m_pred *, int),
		      void (*on_disagree)(void *, const struct scn_file *, size_t, uint32_t, uint32_t, const char *,
					  const char *),
		      void *ctx, struct result *r);

/*
 * Look up a rule by its catalog ID (case does not matter: ra-acc-1); 0 and
 * *out, or -ENOENT with "unknown rule 'X' (did you mean 'Y'?)" printed to
 * stderr after the prefix what ("rdmacheck explain").
 */
int cli_rule(const char *what, const char *id, enum m_rule *out);

#endif
