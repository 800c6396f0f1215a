/* resolve.c - the driver layer's first step: common options handed to the
 * library (hg_case_resolve, hg_model_choose, hg_case_params), its errors
 * and notes printed with the exit code they call for. */
#include "cli.h"
#include "hg_pack_gen.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("hgridopt: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_fail(const hg_err *e, int status, int from_file)
{
    cli_error("%s", e && e->msg[0] ? e->msg : hg_strerror(status));
    if (status == HG_EIO || status == HG_ENUMERIC || status == HG_ENOMEM ||
        status == HG_ELIMIT || from_file || (e && e->data))
        return CLI_EDATA;
    return CLI_EUSAGE;
}

void cli_system_clear(cli_system *cs)
{
    if (cs)
        hg_case_clear(&cs->c);
}

void cli_case_input(const cli_opts *o, int need_nu, cli_progress *pr,
                    hg_case_input *in)
{
    *in = (hg_case_input){
        .system_path = o->system_path,
        .packing_path = o->packing_path,
        .psd_spec = o->psd_spec,
        .dim = o->dim_text,
        .nu = o->nu_text,
        .structure = o->structure_text,
        .K = o->K_text,
        .skin = o->skin_text,
        .boundary = o->boundary_text,
        .frame = o->frame_text,
        .type_radius = o->type_radius_text,
        .engine = o->engine,
        .model = o->model_text,
        .format = o->format,
        .need_nu = need_nu,
        .progress = cli_progress_start(pr),
        .progress_params = pr,
    };
}

void cli_print_notes(const hg_case *c)
{
    for (int i = 0; i < c->n_notes; i++)
        fprintf(stderr, "hgridopt: note: %s\n", c->notes[i]);
}

int cli_system_resolve(cli_system *cs, int need_nu)
{
    cli_progress pr;
    hg_case_input in;
    cli_case_input(&cs->opt, need_nu, &pr, &in);
    hg_err e = {0};
    int st = hg_case_resolve(&in, &cs->c, &e);
    cli_progress_end(&pr);
    cli_print_notes(&cs->c);
    return st ? cli_fail(&e, st, 0) : CLI_OK;
}

const char cli_param_help[] =
    "  --param N=V,...  set parameters the model declares, e.g. "
    "atoms=1e6,ranks=4\n"
    "                   for lammps-multi (see 'hgridopt help models'; K: "
    "--K)\n";

int cli_params_apply(cli_system *cs, const char *text,
                     const hg_model *const *models, size_t n)
{
    hg_err e = {0};
    int st = hg_case_params(&cs->c, text, models, n, &e);
    return st ? cli_fail(&e, st, 0) : CLI_OK;
}

int cli_size_params(cli_system *cs, const hg_model *const *models, size_t n,
                    long atoms, long ranks)
{
    hg_err e = {0};
    int st = hg_case_size_params(&cs->c, models, n, atoms, ranks, &e);
    return st ? cli_fail(&e, st, 0) : CLI_OK;
}

int cli_model_resolve(const cli_opts *o, const char *const *words,
                      const hg_model *dflt, const hg_model **model,
                      const char **word)
{
    hg_err e = {0};
    int st = hg_model_choose(o->model_text, o->algorithm_text, words, dflt,
                             model, word, &e);
    return st ? cli_fail(&e, st, 0) : CLI_OK;
}

/* The message is printed for hard spheres only (their packing takes time
 * to make, a Poisson one does not) and, like progress, only on a
 * terminal: the output names the generator too. */
int cli_announce_packing(const char *cmd, const cli_system *cs, size_t n,
                         long seed)
{
    hg_pack_params pp = {cs->c.sys.dim, n, cs->c.sys.nu, (uint64_t)seed, 1};
    hg_pack_choice ch;
    hg_err e = {0};
    int st = hg_pack_structure_choose(&pp, cs->c.sys.structure, &ch, &e);
    if (st)
        return cli_fail(&e, st, 0);
    double need = hg_pack_memory_estimate(ch.generator, cs->c.sys.dim, n);
    double have = (double)sysconf(_SC_PHYS_PAGES) *
                  (double)sysconf(_SC_PAGE_SIZE);
    char mem[32];
    if (have > 0.0 && need > have) {
        cli_error("--n: %zu particles with the %s generator need about "
                  "%.3g GiB of memory, more than the %.3g GiB of this "
                  "machine", n, ch.generator, need / 1073741824.0,
                  have / 1073741824.0);
        return CLI_EUSAGE;
    }
    if (cs->c.sys.structure != HG_STRUCTURE_POISSON && isatty(STDERR_FILENO))
        fprintf(stderr, "%s: packing %zu particles with the %s generator "
                "(about %s of memory): %s\n", cmd, n, ch.generator,
                cli_bytes(need, mem, sizeof mem), ch.why);
    return CLI_OK;
}
