/* cmd_pack.c - `hgridopt pack`: generate a packing and write a particle
 * file. */
#include "cli.h"
#include "hg_io.h"
#include "hg_pack_gen.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pack_opts {
    const char *generator, *input, *max_memory;
    long n, seed, max_attempts;
    int walls;
    double tolerance;
} pack_opts;

static const cli_option options[] = {
    CLI_LONG("n", pack_opts, n, 1, 2000000000L),
    CLI_STR("generator", pack_opts, generator),
    CLI_FLAG("walls", pack_opts, walls),
    CLI_LONG("seed", pack_opts, seed, 0, 0x7fffffffL),
    CLI_DOUBLE("overlap", pack_opts, tolerance, CLI_OPEN_UNIT),
    CLI_LONG("max-attempts", pack_opts, max_attempts, 1, 1000000000L),
    CLI_STR("input", pack_opts, input),
    CLI_STR("max-memory", pack_opts, max_memory),
};

static void help(FILE *out)
{
    /* the system options but --packing (pack's own: the file converted) */
    char system_help[4096];
    size_t n = 0;
    int skip = 0;
    for (const char *l = cli_system_help; *l && n + 1 < sizeof system_help;) {
        size_t k = strcspn(l, "\n"), len = k + (l[k] == '\n');
        if (!strncmp(l, "  --", 4))
            skip = !strncmp(l, "  --packing ", 12);
        if (!skip && n + len < sizeof system_help) {
            memcpy(system_help + n, l, len);
            n += len;
        }
        l += len;
    }
    system_help[n] = '\0';
    fprintf(out,
            "Usage: hgridopt pack --psd SPEC --dim 2|3 --nu X --n N "
            "[options]\n\n"
            "Generate a packing of N spheres with radii from the "
            "distribution (systematic\nsampling of its quantile function) in "
            "a cube of packing fraction X, and\nwrite it as a particle file. "
            "A summary goes to standard error.\n\n"
            "  --n N            number of particles\n"
            "  --generator G    poisson (default): uniform random centres, "
            "overlaps allowed\n"
            "                   rsa: random sequential addition, largest "
            "first, no overlaps;\n"
            "                        stops early (nu below X) when placement "
            "stalls\n"
            "                   dense: no overlap above --overlap of the "
            "smaller radius,\n"
            "                        reaches X up to ~0.6 (3D) also for "
            "narrow "
            "distributions\n"
            "  --walls          box with walls (spheres inside it); default "
            "periodic\n"
            "  --seed S         random seed (default 1); same options and "
            "seed give the\n"
            "                   same file\n"
            "  --overlap T      dense: largest overlap / smaller radius "
            "(default 0.01)\n"
            "  --max-attempts M rsa: positions tried per particle (default "
            "2000)\n"
            "  --max-memory S   refuse runs whose estimated memory exceeds S "
            "bytes\n"
            "                   (suffix K, M, G; default: the physical "
            "memory)\n"
            "  --packing FILE   instead of generating, read the particle "
            "file FILE (any\n"
            "                   format, checked; - = stdin) and write it in "
            "--format\n"
            "                   (--input FILE: the same)\n"
            "  --output FILE    particle file (default: standard output)\n"
            "  --format F       csv, lammps, xyz or vtk (default: from the "
            "extension of\n"
            "                   --output, csv on standard output)\n\n%s\n"
            "Example:\n"
            "  hgridopt pack --psd powerlaw:alpha=-3,omega=100 --dim 3 --nu "
            "0.6 --n 100000 \\\n"
            "      --generator dense --seed 7 --output packing.data\n\n%s",
            system_help, cli_exit_help);
}

/* --packing (--input): read, check, rewrite. */
static int convert(const char *in, const char *out, hg_io_format fmt,
                   const char *boundary)
{
    hg_particles p;
    hg_err e = {0};
    const char *name = strcmp(in, "-") ? in : "(stdin)";
    hg_io_options io = {0};
    io.boundary_given = boundary != NULL;
    int st = hg_io_load_files(in, &io, &p, NULL, &e);
    if (st == HG_OK && boundary &&
        (st = hg_particles_set_boundary(&p, boundary, &e))) {
        hg_particles_clear(&p);
        cli_error("--boundary: %s", e.msg);
        return CLI_EUSAGE;
    }
    int np = 0;
    for (int a = 0; st == HG_OK && a < p.dim; a++)
        np += hg_particles_axis_periodic(&p, a);
    if (st == HG_OK && np != 0 && np != p.dim && fmt != HG_IO_XYZ) {
        char b[8];
        cli_error("pack --input: boundary %s mixes periodic and "
                  "non-periodic axes; of the particle files only xyz "
                  "(pbc) carries that: write xyz, or give --boundary to "
                  "the command that reads the converted file",
                  hg_particles_boundary_text(&p, b));
        hg_particles_clear(&p);
        return CLI_EUSAGE;
    }
    if (st == HG_OK && np == 0)
        memset(p.boundary, 0, sizeof p.boundary);
    if (st == HG_OK)
        st = hg_particles_check(&p, &e);
    if (st) {
        hg_particles_clear(&p);
        /* reader messages start with the file name; checks do not */
        if (strncmp(e.msg, name, strlen(name)) != 0)
            cli_error("pack --input: reading %s: %s", name, e.msg);
        else
            cli_error("pack --input: %s", e.msg);
        return CLI_EDATA;
    }
    if (p.box_inferred) {
        char note[800];
        hg_box_note(in, &p, note, sizeof note);
        fprintf(stderr, "hgridopt: note: %s\n", note);
    }
    st = hg_io_write(out, fmt, &p, &e);
    if (st) {
        hg_particles_clear(&p);
        return cli_fail(&e, st, 1);
    }
    fprintf(stderr,
            "pack: %s: %zu particles, dim %d, nu = %.6f, %s box -> %s (%s)\n",
            strcmp(in, "-") ? in : "(stdin)", p.n, p.dim,
            hg_particles_packing_fraction(&p),
            p.periodic ? "periodic" : "walled",
            strcmp(out, "-") ? out : "(stdout)", hg_io_format_name(fmt));
    hg_particles_clear(&p);
    return CLI_OK;
}

static const cli_spec spec = {"pack", help,
                              CLI_SYSTEM | CLI_FORMAT | CLI_OUTPUT, options,
                              sizeof options / sizeof options[0], NULL};

typedef enum { GEN_POISSON, GEN_RSA, GEN_DENSE } generator;

/* --generator gen into *kind, checked against --walls. */
static int generator_of(const char *gen, int walls, generator *kind)
{
    int k = !strcmp(gen, "poisson") ? GEN_POISSON
            : !strcmp(gen, "rsa")   ? GEN_RSA
            : !strcmp(gen, "dense") ? GEN_DENSE
                                    : -1;
    if (k < 0) {
        cli_error("--generator: unknown value '%s' (poisson, rsa or dense)",
                  gen);
        return CLI_EUSAGE;
    }
    if (k == GEN_POISSON && walls) {
        cli_error("--walls: the poisson generator needs a periodic box "
                  "(use rsa or dense)");
        return CLI_EUSAGE;
    }
    *kind = (generator)k;
    return CLI_OK;
}

/* The file format into *fmt: --format, else from the extension of the
 * output path (csv on standard output). */
static int output_format(const char *format, const char *path,
                         hg_io_format *fmt, hg_err *e)
{
    *fmt = HG_IO_CSV;
    if (format) {
        if (hg_io_format_parse(format, fmt, e) || *fmt == HG_IO_AUTO) {
            cli_error("--format: unknown format '%s' (csv, lammps, xyz or "
                      "vtk)",
                      format);
            return CLI_EUSAGE;
        }
    } else if (strcmp(path, "-") != 0 &&
               hg_io_format_from_path(path, fmt, e)) {
        cli_error("--output: %s", e->msg);
        return CLI_EUSAGE;
    }
    return CLI_OK;
}

/* Refuse up front what cannot fit in memory: n particles of generator gen
 * against --max-memory (text; NULL: the physical memory). */
static int check_memory(const char *gen, long n, const char *max_memory,
                        hg_err *e)
{
    double need = hg_pack_memory_estimate(gen, 2, (size_t)n);
    double have = (double)sysconf(_SC_PHYS_PAGES) *
                  (double)sysconf(_SC_PAGE_SIZE);
    if (max_memory) {
        size_t lim;
        if (hg_parse_size(max_memory, "--max-memory", &lim, e))
            return cli_fail(e, e->status, 0);
        have = (double)lim;
    }
    if (have > 0.0 && need > have) {
        cli_error("--n: %ld particles with the %s generator need about "
                  "%.3g GiB of memory, more than the %.3g GiB %s (give "
                  "--max-memory SIZE to try anyway)",
                  n, gen, need / 1073741824.0, have / 1073741824.0,
                  max_memory ? "allowed by --max-memory" : "of this machine");
        return CLI_EUSAGE;
    }
    return CLI_OK;
}

/* The packing of the system's distribution by generator kind into *p, its
 * report into *rep (poisson: filled in here), progress on a tty. */
static int generate(generator kind, const cli_system *cs,
                    const hg_pack_params *prm, hg_pack_options *opt,
                    hg_particles *p, hg_pack_report *rep, hg_err *e)
{
    cli_progress pr;
    opt->progress = cli_progress_start(&pr);
    opt->progress_params = &pr;
    int st;
    if (kind == GEN_POISSON) {
        st = hg_pack_poisson(cs->c.psd, prm, p, e);
        rep->requested = rep->placed = prm->n;
        rep->target_nu = cs->c.sys.nu;
        rep->reached = 1;
        rep->seconds = hg_wall_seconds() - pr.t0;
    } else if (kind == GEN_RSA) {
        st = hg_pack_rsa_run(cs->c.psd, prm, opt, p, rep, e);
    } else {
        st = hg_pack_dense_run(cs->c.psd, prm, opt, p, rep, e);
    }
    cli_progress_end(&pr);
    if (st == HG_OK && kind == GEN_POISSON)
        rep->nu = hg_particles_packing_fraction(p);
    return st;
}

/* The summary of the packing p written to path (standard error). */
static void print_summary(const char *gen, generator kind, int walls,
                          const hg_pack_report *rep,
                          const hg_pack_options *opt, const hg_particles *p,
                          const char *path, hg_io_format fmt)
{
    fprintf(stderr,
            "pack: %s, %zu of %zu particles, nu = %.6f (target %g), box "
            "[0, %.6g]^%d %s, %.2f s -> %s (%s)\n",
            gen, rep->placed, rep->requested, rep->nu, rep->target_nu,
            p->hi[0], p->dim, walls ? "walls" : "periodic", rep->seconds,
            strcmp(path, "-") ? path : "(stdout)", hg_io_format_name(fmt));
    if (kind == GEN_DENSE && !rep->reached &&
        rep->nu < rep->target_nu * (1 - 1e-9))
        fprintf(stderr,
                "pack: dense jammed: stopped at nu = %.4f below the target "
                "%g (out of this generator's reach for this distribution)\n",
                rep->nu, rep->target_nu);
    if (kind == GEN_RSA && !rep->reached)
        fprintf(stderr,
                "pack: rsa stalled: %zu particles were not placed (largest "
                "first), nu %.4f < %g\n",
                rep->requested - rep->placed, rep->nu, rep->target_nu);
    if (kind == GEN_DENSE)
        fprintf(stderr,
                "pack: largest overlap %.3g of the smaller radius (tolerance "
                "%g)%s; %zu sweeps, %zu neighbour-list rebuilds\n",
                rep->max_overlap, opt->overlap_tol,
                rep->reached ? "" : " - NOT reached", rep->sweeps,
                rep->rebuilds);
}

int cmd_pack(int argc, char **argv)
{
    hg_pack_options opt;
    hg_pack_options_init(&opt);
    pack_opts o = {"poisson", NULL, NULL, 0, 1, (long)opt.max_attempts, 0,
                   opt.overlap_tol};
    cli_system cs = {0};
    int rc;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    const char *gen = o.generator;
    hg_err e = {0};
    opt.overlap_tol = o.tolerance;
    opt.max_attempts = (size_t)o.max_attempts;
    generator kind;
    if ((rc = generator_of(gen, o.walls, &kind)))
        return rc;
    hg_io_format fmt;
    const char *path =
        cs.opt.output && strcmp(cs.opt.output, "-") ? cs.opt.output : "-";
    if ((rc = output_format(cs.opt.format, path, &fmt, &e)))
        return rc;
    /* --packing FILE (or --input FILE): read, check, rewrite */
    if (o.input && cs.opt.packing_path) {
        cli_error("pack --input: the same as --packing FILE; give one");
        return CLI_EUSAGE;
    }
    const char *input = o.input ? o.input : cs.opt.packing_path;
    if (input && (o.n || cs.opt.psd_spec || cs.opt.system_path)) {
        cli_error("pack --packing: converts the file %s; --n, --psd and "
                  "--system generate a packing (give one or the other)",
                  input);
        return CLI_EUSAGE;
    }
    if (input)
        return convert(input, path, fmt, cs.opt.boundary_text);
    if (!o.n) {
        cli_error("--n: missing (number of particles)");
        return CLI_EUSAGE;
    }
    if ((rc = check_memory(gen, o.n, o.max_memory, &e)))
        return rc;
    rc = cli_system_resolve(&cs, 1);
    if (rc)
        goto done;

    hg_pack_params prm = {cs.c.sys.dim, (size_t)o.n, cs.c.sys.nu,
                          (uint64_t)o.seed, !o.walls};
    hg_particles p = {0};
    hg_pack_report rep = {0};
    int st = generate(kind, &cs, &prm, &opt, &p, &rep, &e);
    if (st) {
        rc = cli_fail(&e, st, 0);
        goto done;
    }
    st = hg_io_write(path, fmt, &p, &e);
    if (st) {
        rc = cli_fail(&e, st, 1);
        hg_particles_clear(&p);
        goto done;
    }
    print_summary(gen, kind, o.walls, &rep, &opt, &p, path, fmt);
    hg_particles_clear(&p);
done:
    cli_system_clear(&cs);
    return rc;
}
