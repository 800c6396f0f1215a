/* cmd_bench.c - `hgridopt bench`: the contact-detection methods side by
 * side on one packing (hg_detector.h), static and dynamic, every result
 * checked against the bundled HGrid. */
#include "cli.h"
#include "hg_grid.h"
#include "hg_io.h"
#include "hg_detector.h"
#include "hg_opt.h"
#include "hg_pack.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif

enum {
    OPT_N = CLI_OPT_FIRST_COMMAND,
    OPT_SEED,
    OPT_OPEN,
    OPT_METHODS,
    OPT_SIZES,
    OPT_SKIN,
    OPT_VERLET_SKIN,
    OPT_STEPS,
    OPT_DISPLACEMENT,
    OPT_REPEAT,
    OPT_FORCE_BRUTE,
    OPT_THREADS
};

#define BRUTE_LIMIT 20000

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt bench (--psd SPEC --dim 2|3 --nu X | --packing "
            "FILE) [options]\n\n"
            "Run contact-detection methods on one packing and compare them: "
            "time per\ndetection (median), pair checks, contacts, memory. "
            "Every method must find\nexactly the contact set of the bundled "
            "HGrid (Top-Down with the --sizes or\nrecommended sizes) at every "
            "step; a mismatch is an error (exit 1).\n\n"
            "  --n N              particles of the Poisson packing (default "
            "10000); with\n"
            "                     --packing FILE the particles of the file "
            "are used instead\n"
            "  --seed S           packing and displacement seed (default 1)\n"
            "  --open             walls instead of a periodic box (same "
            "centres);\n"
            "                     sap-incremental needs it\n"
            "  --methods LIST     comma-separated, from: ");
    for (size_t i = 0; i < hg_detector_type_count(); i++)
        fprintf(out, "%s%s", i ? "," : "", hg_detector_type_at(i)->name);
    fprintf(out,
            "\n                     (default: every method the box and the "
            "size limit allow)\n"
            "  --sizes LIST       HGrid cell sizes s_1..s_L for hgrid and "
            "hgrid-bu\n"
            "                     (default: hg_recommend's optimal sizes for "
            "--psd, or for\n"
            "                     the radii of --packing)\n"
            "  --skin X           contact distance added to r_i + r_j "
            "(default 0)\n"
            "  --verlet-skin X    Verlet list skin in units of r_min "
            "(default 0.4)\n"
            "  --steps S          dynamic run of S steps after the first "
            "detection (default 0)\n"
            "  --displacement D   per step, every particle moves by a uniform "
            "random vector\n"
            "                     in [-D r_min, D r_min]^d (default 0.05)\n"
            "  --repeat R         static detections per method, median "
            "reported (default 3)\n"
            "  --force-brute      run brute force above N = %d\n"
            "  --threads T        OpenMP threads of the HGrid search (default "
            "1, as the\n"
            "                     other methods are serial)\n"
            "  --format F         table (default) or json\n\n%s\n"
            "Methods:\n",
            BRUTE_LIMIT, cli_system_help);
    for (size_t i = 0; i < hg_detector_type_count(); i++) {
        const hg_detector_type *t = hg_detector_type_at(i);
        fprintf(out, "  %-16s %s%s\n", t->name, t->help,
                t->periodic ? "" : " [no periodic boxes]");
    }
    fprintf(out, "\nExample:\n"
                 "  hgridopt bench --psd powerlaw:alpha=-3,omega=10 --dim 3 "
                 "--nu 0.3 --n 20000 \\\n      --steps 10 --open\n");
}

typedef struct bench_method {
    const hg_detector_type *type;
    hg_detector *det;
    hg_pairs pairs;
    int explicit_choice;
    char *sizes;      /* hgrid*: the cell sizes "s1;...;sL" in use */
    /* static */
    double *t_static, *cpu_static;
    hg_detector_counters c_static;
    size_t contacts_static;
    /* dynamic */
    double *t_dyn, *cpu_dyn;
    double t_first, cpu_first;
    double pair_checks_dyn, cell_accesses_dyn, swaps_dyn, comparisons_dyn;
    uint64_t builds_dyn;
    size_t memory_max;
    size_t contacts_last;
} bench_method;

typedef struct bench_opts {
    long n, seed, steps, repeat, threads;
    double skin, verlet_skin, displacement;
    const char *methods, *sizes;
    int open, force_brute, n_given;
} bench_opts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    gsl_sort(v, 1, n);
    return gsl_stats_median_from_sorted_data(v, 1, n);
}

static double rmin_of(const hg_particles *p)
{
    double m = INFINITY;
    for (size_t i = 0; i < p->n; i++)
        m = fmin(m, p->r[i]);
    return m;
}

static double rmax_of(const hg_particles *p)
{
    double m = 0.0;
    for (size_t i = 0; i < p->n; i++)
        m = fmax(m, p->r[i]);
    return m;
}

/* "s1;s2;..." for a method parameter. */
static char *sizes_param(const double *s, int L)
{
    size_t cap = (size_t)L * 26 + 1;
    char *buf = malloc(cap), *q = buf;
    if (!buf)
        return NULL;
    *q = '\0';
    for (int h = 0; h < L; h++)
        q += snprintf(q, cap - (size_t)(q - buf), "%s%.17g", h ? ";" : "",
                      s[h]);
    return buf;
}

/* Sizes for hgrid (alg) from --sizes or hg_recommend on --psd; the top
 * size is raised to the largest diameter of the particle set if needed.
 * Returns an exit code; *text owned by the caller. */
static int hgrid_sizes(const bench_opts *o, const cli_system *cs,
                       hg_algorithm alg, const hg_particles *p, char **text)
{
    hg_err e = {0};
    double *s = NULL;
    int L = 0, st;
    hg_recommendation rec = {0};
    *text = NULL;
    if (o->sizes) {
        if ((st = cli_parse_list(o->sizes, "--sizes", &s, &L, &e)))
            return cli_fail(&e, st, 0);
    } else if (cs->psd) {
        hg_recommend_options ro;
        hg_recommend_options_default(&ro);
        ro.n_models = 1;
        ro.models[0] = hg_model_for_grid(alg);
        hg_system sys = cs->sys;
        sys.dim = p->dim;
        sys.nu = hg_particles_packing_fraction(p);
        if (!(sys.nu > 0.0 && sys.nu < 1.0))
            sys.nu = cs->sys.nu;
        if ((st = hg_recommend(cs->psd, &sys, &cs->values, &ro, &rec, &e)))
            return cli_fail(&e, st, 1);
        L = rec.levels;
        s = malloc((size_t)L * sizeof *s);
        if (s)
            memcpy(s, rec.cell_sizes, (size_t)L * sizeof *s);
        hg_recommendation_clear(&rec);
    } else {
        cli_error("bench: %s needs cell sizes: give --sizes, --psd or "
                  "--packing",
                  alg == HG_TOP_DOWN ? "hgrid" : "hgrid-bu");
        return CLI_EUSAGE;
    }
    if (!s) {
        cli_error("bench: out of memory");
        return CLI_EDATA;
    }
    double dmax = 2.0 * rmax_of(p);
    if (s[L - 1] < dmax) {
        if (o->sizes) {
            cli_error("--sizes: the last cell size %g is below the largest "
                      "particle diameter %g",
                      s[L - 1], dmax);
            free(s);
            return CLI_EUSAGE;
        }
        s[L - 1] = dmax;
    }
    *text = sizes_param(s, L);
    free(s);
    if (!*text) {
        cli_error("bench: out of memory");
        return CLI_EDATA;
    }
    return CLI_OK;
}

static int create_method(bench_method *bm, const bench_opts *o,
                         const cli_system *cs, const hg_particles *p)
{
    hg_err e = {0};
    hg_kv kv = {0, NULL};
    char buf[64];
    int rc = CLI_OK, st = HG_OK;
    const char *name = bm->type->name;
    if (!strcmp(name, "hgrid") || !strcmp(name, "hgrid-bu")) {
        char *text = NULL;
        rc = hgrid_sizes(o, cs, strcmp(name, "hgrid") ? HG_BOTTOM_UP
                                                      : HG_TOP_DOWN,
                         p, &text);
        if (rc)
            return rc;
        st = hg_kv_add(&kv, "sizes", text, &e);
        free(bm->sizes);
        bm->sizes = text;
    } else if (!strcmp(name, "verlet")) {
        snprintf(buf, sizeof buf, "%.17g", o->verlet_skin);
        st = hg_kv_add(&kv, "list_skin_rel", buf, &e);
    } else if (!strcmp(name, "brute") && o->force_brute) {
        st = hg_kv_add(&kv, "force", "1", &e);
    }
    if (st == HG_OK)
        st = hg_detector_create(name, &kv, &bm->det, &e);
    if (st != HG_OK)
        rc = cli_fail(&e, st, 0);
    hg_kv_clear(&kv);
    return rc;
}

/* Choose the methods: the explicit list, or every method the box and the
 * size limit allow (skipped ones are named on stderr). */
static int choose_methods(const bench_opts *o, const hg_particles *p,
                          bench_method **out, size_t *nout)
{
    size_t nt = hg_detector_type_count(), n = 0;
    bench_method *v = calloc(nt, sizeof *v);
    if (!v) {
        cli_error("bench: out of memory");
        return CLI_EDATA;
    }
    if (o->methods) {
        const char *q = o->methods;
        while (*q) {
            size_t len = strcspn(q, ",");
            char name[64];
            if (len == 0 || len >= sizeof name) {
                cli_error("--methods: empty or overlong name in '%s'",
                          o->methods);
                free(v);
                return CLI_EUSAGE;
            }
            memcpy(name, q, len);
            name[len] = '\0';
            const hg_detector_type *t = hg_detector_type_find(name);
            if (!t) {
                cli_error("--methods: unknown method '%s' (see hgridopt "
                          "bench --help)", name);
                free(v);
                return CLI_EUSAGE;
            }
            for (size_t k = 0; k < n; k++)
                if (v[k].type == t) {
                    cli_error("--methods: '%s' is listed twice", name);
                    free(v);
                    return CLI_EUSAGE;
                }
            if (p->periodic && !t->periodic) {
                cli_error("--methods: %s does not support periodic boxes "
                          "(use --open, or a packing file with walls)",
                          name);
                free(v);
                return CLI_EUSAGE;
            }
            if (!strcmp(name, "brute") && p->n > BRUTE_LIMIT &&
                !o->force_brute) {
                cli_error("--methods: brute force on %zu particles exceeds "
                          "the limit N = %d (add --force-brute)",
                          p->n, BRUTE_LIMIT);
                free(v);
                return CLI_EUSAGE;
            }
            v[n].type = t;
            v[n].explicit_choice = 1;
            n++;
            q += len;
            if (*q == ',')
                q++;
        }
    } else {
        for (size_t i = 0; i < nt; i++) {
            const hg_detector_type *t = hg_detector_type_at(i);
            if (p->periodic && !t->periodic) {
                fprintf(stderr, "hgridopt: bench: skipping %s (periodic box "
                                "not supported; use --open)\n", t->name);
                continue;
            }
            if (!strcmp(t->name, "brute") && p->n > BRUTE_LIMIT &&
                !o->force_brute) {
                fprintf(stderr, "hgridopt: bench: skipping brute (N = %zu > "
                                "%d; --force-brute runs it)\n",
                        p->n, BRUTE_LIMIT);
                continue;
            }
            v[n++].type = t;
        }
    }
    *out = v;
    *nout = n;
    return CLI_OK;
}

static void move_all(hg_particles *p, double d, gsl_rng *rng)
{
    for (size_t i = 0; i < p->n; i++)
        for (int c = 0; c < p->dim; c++) {
            double *x = &p->x[i * (size_t)p->dim + (size_t)c];
            *x += d * (2.0 * gsl_rng_uniform(rng) - 1.0);
            if (p->periodic) {
                double len = p->hi[c] - p->lo[c];
                if (*x < p->lo[c])
                    *x += len;
                if (*x >= p->hi[c])
                    *x -= len;
                if (*x >= p->hi[c]) /* x + len rounded up to hi */
                    *x = p->lo[c];
            }
        }
}

/* Compare a method's sorted contacts with the reference; prints and
 * returns CLI_EDATA on a mismatch. */
static int check_same(const bench_method *bm, const hg_pairs *ref,
                      const char *phase, long step)
{
    if (hg_pairs_equal(&bm->pairs, ref))
        return CLI_OK;
    size_t k = 0;
    while (k < bm->pairs.n && k < ref->n &&
           bm->pairs.v[k].i == ref->v[k].i && bm->pairs.v[k].j == ref->v[k].j)
        k++;
    char what[96] = "";
    if (k < ref->n)
        snprintf(what, sizeof what, "; first difference at HGrid pair (%u, "
                 "%u)", ref->v[k].i, ref->v[k].j);
    else if (k < bm->pairs.n)
        snprintf(what, sizeof what, "; extra pair (%u, %u)",
                 bm->pairs.v[k].i, bm->pairs.v[k].j);
    cli_error("bench: %s found %zu contacts, the HGrid %zu (%s, step %ld)%s",
              bm->type->name, bm->pairs.n, ref->n, phase, step, what);
    return CLI_EDATA;
}

static int run_one(bench_method *bm, hg_particles *p, double skin,
                   int dynamic, double *t, double *cpu,
                   hg_detector_counters *c)
{
    hg_err e = {0};
    double c0 = cpu_s(), t0 = now_s();
    int st = dynamic ? hg_detector_update(bm->det, p, skin, &bm->pairs, c, &e)
                     : hg_detector_detect(bm->det, p, skin, &bm->pairs, c, &e);
    *t = now_s() - t0;
    *cpu = cpu_s() - c0;
    if (st != HG_OK) {
        cli_error("bench: %s: %s", bm->type->name, e.msg);
        return st == HG_ENOMEM || st == HG_ELIMIT ? CLI_EDATA : CLI_EUSAGE;
    }
    hg_pairs_sort(&bm->pairs);
    return CLI_OK;
}

/* The reference contact set of the bundled HGrid. */
static int reference(hg_detector *ref, hg_particles *p, double skin,
                     hg_pairs *out)
{
    hg_err e = {0};
    int st = hg_detector_detect(ref, p, skin, out, NULL, &e);
    if (st != HG_OK) {
        cli_error("bench: HGrid reference: %s", e.msg);
        return CLI_EDATA;
    }
    hg_pairs_sort(out);
    return CLI_OK;
}

static void print_table(FILE *out, const bench_opts *o, const hg_particles *p,
                        const cli_system *cs, bench_method *v, size_t n)
{
    if (cs->psd)
        fprintf(out, "distribution:   %s\n", hg_psd_spec(cs->psd));
    if (cs->packing_path)
        fprintf(out, "packing:        %s\n", cs->packing_path);
    fprintf(out, "particles:      %zu, dim %d, nu = %.4g, %s box, radii "
                 "%.6g .. %.6g\n",
            p->n, p->dim, hg_particles_packing_fraction(p),
            p->periodic ? "periodic" : "open", rmin_of(p), rmax_of(p));
    fprintf(out, "skin:           %g; static: median of %ld detections",
            o->skin, o->repeat);
    if (o->steps > 0)
        fprintf(out, "; dynamic: %ld steps of +-%g r_min per axis",
                o->steps, o->displacement);
    fprintf(out, "\nevery method found the HGrid's contact set at every "
                 "step\n\n");
    fprintf(out, "%-16s %10s %10s %13s %13s %10s %9s", "method",
            "static ms", "(cpu ms)", "pair checks", "other work", "contacts",
            "memory MB");
    if (o->steps > 0)
        fprintf(out, " %10s %10s %10s %13s %8s", "first ms", "step ms",
                "(cpu ms)", "checks/step", "builds");
    fprintf(out, "\n");
    for (size_t k = 0; k < n; k++) {
        bench_method *b = &v[k];
        const hg_detector_counters *c = &b->c_static;
        uint64_t other = c->cell_accesses + c->box_tests +
                         c->sort_comparisons + c->swaps;
        fprintf(out, "%-16s %10.4g %10.4g %13llu %13llu %10zu %9.4g",
                b->type->name, 1e3 * median(b->t_static, (size_t)o->repeat),
                1e3 * median(b->cpu_static, (size_t)o->repeat),
                (unsigned long long)c->pair_checks,
                (unsigned long long)other, b->contacts_static,
                (double)c->memory_bytes / 1048576.0);
        if (o->steps > 0)
            fprintf(out, " %10.4g %10.4g %10.4g %13.6g %8llu",
                    1e3 * b->t_first, 1e3 * median(b->t_dyn, (size_t)o->steps),
                    1e3 * median(b->cpu_dyn, (size_t)o->steps),
                    b->pair_checks_dyn / (double)o->steps,
                    (unsigned long long)b->builds_dyn);
        fprintf(out, "\n");
    }
    for (size_t k = 0; k < n; k++)
        if (v[k].sizes)
            fprintf(out, "\n%s cell sizes: %s", v[k].type->name, v[k].sizes);
    fprintf(out, "\n\ntimes: wall clock, medians; cpu ms: CPU time of the "
                 "process (robust on a\nloaded machine; with --threads > 1 "
                 "it adds up the threads)\nother work: cell accesses (lc, "
                 "hgrid*, verlet), box tests + sort comparisons\n(sap*, "
                 "sort) and endpoint "
                 "swaps (sap-incremental) of the static detection;\n"
                 "builds: structure (re)builds during the dynamic steps\n");
}

static cJSON *to_json(const bench_opts *o, const hg_particles *p,
                      const cli_system *cs, bench_method *v, size_t n)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", "hgridopt.bench/1");
    if (cs->psd)
        cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->psd));
    if (cs->packing_path)
        cJSON_AddStringToObject(j, "packing", cs->packing_path);
    cJSON_AddNumberToObject(j, "particles", (double)p->n);
    cJSON_AddNumberToObject(j, "dim", p->dim);
    cJSON_AddNumberToObject(j, "nu", hg_particles_packing_fraction(p));
    cJSON_AddBoolToObject(j, "periodic", p->periodic);
    cJSON_AddNumberToObject(j, "r_min", rmin_of(p));
    cJSON_AddNumberToObject(j, "r_max", rmax_of(p));
    cJSON_AddNumberToObject(j, "skin", o->skin);
    cJSON_AddNumberToObject(j, "repeat", (double)o->repeat);
    cJSON_AddNumberToObject(j, "steps", (double)o->steps);
    cJSON_AddNumberToObject(j, "displacement_per_rmin", o->displacement);
    cJSON_AddBoolToObject(j, "all_match_hgrid", 1);
    cJSON *arr = cJSON_AddArrayToObject(j, "methods");
    for (size_t k = 0; k < n; k++) {
        bench_method *b = &v[k];
        const hg_detector_counters *c = &b->c_static;
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "name", b->type->name);
        if (b->sizes)
            cJSON_AddStringToObject(m, "cell_sizes", b->sizes);
        cJSON *s = cJSON_AddObjectToObject(m, "static");
        cJSON_AddNumberToObject(s, "time_ms",
                                1e3 * median(b->t_static, (size_t)o->repeat));
        cJSON_AddNumberToObject(s, "cpu_ms",
                                1e3 * median(b->cpu_static, (size_t)o->repeat));
        cJSON_AddNumberToObject(s, "pair_checks", (double)c->pair_checks);
        cJSON_AddNumberToObject(s, "cell_accesses", (double)c->cell_accesses);
        cJSON_AddNumberToObject(s, "box_tests", (double)c->box_tests);
        cJSON_AddNumberToObject(s, "sort_comparisons",
                                (double)c->sort_comparisons);
        cJSON_AddNumberToObject(s, "contacts", (double)b->contacts_static);
        cJSON_AddNumberToObject(s, "memory_bytes", (double)c->memory_bytes);
        if (o->steps > 0) {
            cJSON *d = cJSON_AddObjectToObject(m, "dynamic");
            double st = (double)o->steps;
            cJSON_AddNumberToObject(d, "first_time_ms", 1e3 * b->t_first);
            cJSON_AddNumberToObject(d, "time_ms",
                                    1e3 * median(b->t_dyn, (size_t)o->steps));
            cJSON_AddNumberToObject(d, "cpu_ms",
                                    1e3 * median(b->cpu_dyn, (size_t)o->steps));
            cJSON_AddNumberToObject(d, "first_cpu_ms", 1e3 * b->cpu_first);
            cJSON_AddNumberToObject(d, "pair_checks_per_step",
                                    b->pair_checks_dyn / st);
            cJSON_AddNumberToObject(d, "cell_accesses_per_step",
                                    b->cell_accesses_dyn / st);
            cJSON_AddNumberToObject(d, "sort_comparisons_per_step",
                                    b->comparisons_dyn / st);
            cJSON_AddNumberToObject(d, "swaps_per_step", b->swaps_dyn / st);
            cJSON_AddNumberToObject(d, "builds", (double)b->builds_dyn);
            cJSON_AddNumberToObject(d, "contacts_last_step",
                                    (double)b->contacts_last);
            cJSON_AddNumberToObject(d, "memory_bytes_max",
                                    (double)b->memory_max);
        }
        cJSON_AddItemToArray(arr, m);
    }
    return j;
}

static int parse_opts(bench_opts *o, cli_system *cs, int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_SYSTEM_LONG_OPTIONS,
        {"n", required_argument, NULL, OPT_N},
        {"seed", required_argument, NULL, OPT_SEED},
        {"open", no_argument, NULL, OPT_OPEN},
        {"methods", required_argument, NULL, OPT_METHODS},
        {"sizes", required_argument, NULL, OPT_SIZES},
        {"skin", required_argument, NULL, OPT_SKIN},
        {"verlet-skin", required_argument, NULL, OPT_VERLET_SKIN},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"displacement", required_argument, NULL, OPT_DISPLACEMENT},
        {"repeat", required_argument, NULL, OPT_REPEAT},
        {"force-brute", no_argument, NULL, OPT_FORCE_BRUTE},
        {"threads", required_argument, NULL, OPT_THREADS},
        {NULL, 0, NULL, 0}};
    hg_err e = {0};
    int c, st = HG_OK;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (cli_system_option(cs, c, optarg))
            continue;
        switch (c) {
        case OPT_N:
            st = hg_parse_long(optarg, "--n", 2, 100000000L, &o->n, &e);
            o->n_given = 1;
            break;
        case OPT_SEED:
            st = hg_parse_long(optarg, "--seed", 0, 2147483647L, &o->seed,
                               &e);
            break;
        case OPT_OPEN: o->open = 1; break;
        case OPT_METHODS: o->methods = optarg; break;
        case OPT_SIZES: o->sizes = optarg; break;
        case OPT_SKIN:
            st = hg_parse_double(optarg, "--skin", &o->skin, &e);
            if (!st && !(o->skin >= 0.0))
                st = hg_fail(&e, HG_EINVAL, "--skin: %s must be >= 0",
                             optarg);
            break;
        case OPT_VERLET_SKIN:
            st = hg_parse_double(optarg, "--verlet-skin", &o->verlet_skin,
                                 &e);
            if (!st && !(o->verlet_skin > 0.0))
                st = hg_fail(&e, HG_EINVAL, "--verlet-skin: %s must be > 0",
                             optarg);
            break;
        case OPT_STEPS:
            st = hg_parse_long(optarg, "--steps", 0, 100000L, &o->steps, &e);
            break;
        case OPT_DISPLACEMENT:
            st = hg_parse_double(optarg, "--displacement", &o->displacement,
                                 &e);
            if (!st && !(o->displacement >= 0.0))
                st = hg_fail(&e, HG_EINVAL, "--displacement: %s must be >= 0",
                             optarg);
            break;
        case OPT_REPEAT:
            st = hg_parse_long(optarg, "--repeat", 1, 1000L, &o->repeat, &e);
            break;
        case OPT_FORCE_BRUTE: o->force_brute = 1; break;
        case OPT_THREADS:
            st = hg_parse_long(optarg, "--threads", 1, 1024L, &o->threads,
                               &e);
            break;
        default: return cli_bad_option("bench", c, argv[optind - 1]);
        }
        if (st)
            return cli_fail(&e, st, 0);
    }
    if (!cs->help && optind < argc) {
        cli_error("bench: unexpected argument '%s'", argv[optind]);
        return CLI_EUSAGE;
    }
    return CLI_OK;
}

/* The particles: read --packing, or a Poisson packing of --n particles
 * from --psd (always periodic when generated; --open switches to walls). */
static int load_particles(bench_opts *o, cli_system *cs,
                          hg_particles *p)
{
    hg_err e = {0};
    int st, rc;
    if (cs->packing_path) {
        /* read by cli_system_resolve, with the file's radii as the
         * distribution unless --psd is given */
        if ((rc = cli_system_resolve(cs, 0)))
            return rc;
        *p = cs->packing;
        memset(&cs->packing, 0, sizeof cs->packing);
        cs->has_packing = 0;
    } else {
        if ((rc = cli_system_resolve(cs, 1)))
            return rc;
        if (!o->n_given && cs->particles >= 2)
            o->n = cs->particles;
        hg_pack_params pp = {.dim = cs->sys.dim,
                             .n = (size_t)o->n,
                             .nu = cs->sys.nu,
                             .seed = (uint64_t)o->seed,
                             .periodic = 1};
        st = hg_pack_poisson(cs->psd, &pp, p, &e);
        if (st)
            return cli_fail(&e, st, 0);
    }
    if (o->open)
        p->periodic = 0;
    if (p->n < 2) {
        cli_error("bench: the packing has %zu particle(s); need at least 2",
                  p->n);
        return CLI_EDATA;
    }
    return CLI_OK;
}

int cmd_bench(int argc, char **argv)
{
    bench_opts o = {.n = 10000, .seed = 1, .repeat = 3, .threads = 1,
                    .verlet_skin = 0.4, .displacement = 0.05};
    cli_system cs = {0};
    hg_particles p = {0};
    bench_method *v = NULL;
    size_t nm = 0;
    hg_detector *ref = NULL;
    hg_pairs refpairs = {0};
    gsl_rng *rng = NULL;
    int rc = parse_opts(&o, &cs, argc, argv);
    if (rc)
        goto done;
    if (cs.help) {
        help(stdout);
        goto done;
    }
    static const char *const formats[] = {"table", "json", NULL};
    const char *format = cs.format ? cs.format : "table";
    if ((rc = cli_check_format("bench", format, formats)))
        goto done;
#ifdef HG_HAVE_OPENMP
    omp_set_num_threads((int)o.threads);
#endif
    if ((rc = load_particles(&o, &cs, &p)))
        goto done;
    if ((rc = choose_methods(&o, &p, &v, &nm)))
        goto done;
    if (nm == 0) {
        cli_error("bench: no method to run");
        rc = CLI_EUSAGE;
        goto done;
    }
    for (size_t k = 0; k < nm; k++) {
        if ((rc = create_method(&v[k], &o, &cs, &p)))
            goto done;
        size_t nd = o.steps > 0 ? (size_t)o.steps : 1;
        v[k].t_static = calloc((size_t)o.repeat, sizeof(double));
        v[k].cpu_static = calloc((size_t)o.repeat, sizeof(double));
        v[k].t_dyn = calloc(nd, sizeof(double));
        v[k].cpu_dyn = calloc(nd, sizeof(double));
        if (!v[k].t_static || !v[k].t_dyn || !v[k].cpu_static ||
            !v[k].cpu_dyn) {
            cli_error("bench: out of memory");
            rc = CLI_EDATA;
            goto done;
        }
    }
    /* the reference: the HGrid (Top-Down) with the given or recommended
     * sizes, else with one level (the linked cell) */
    bench_method refm = {0};
    refm.type = hg_detector_type_find("hgrid");
    if ((rc = create_method(&refm, &o, &cs, &p)))
        goto done;
    ref = refm.det;
    free(refm.sizes);
    /* static */
    if ((rc = reference(ref, &p, o.skin, &refpairs)))
        goto done;
    for (long r = 0; r < o.repeat; r++)
        for (size_t k = 0; k < nm; k++) {
            if ((rc = run_one(&v[k], &p, o.skin, 0, &v[k].t_static[r],
                              &v[k].cpu_static[r], &v[k].c_static)))
                goto done;
            if ((rc = check_same(&v[k], &refpairs, "static", r)))
                goto done;
            v[k].contacts_static = v[k].pairs.n;
        }
    /* dynamic: step 0 is the first (full) detection of update */
    if (o.steps > 0) {
        rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!rng) {
            cli_error("bench: out of memory");
            rc = CLI_EDATA;
            goto done;
        }
        gsl_rng_set(rng, (unsigned long)o.seed + 1);
        double d = o.displacement * rmin_of(&p);
        for (size_t k = 0; k < nm; k++) {
            hg_detector_free(v[k].det);
            v[k].det = NULL;
            if ((rc = create_method(&v[k], &o, &cs, &p)))
                goto done;
        }
        for (long s = 0; s <= o.steps; s++) {
            if (s > 0)
                move_all(&p, d, rng);
            if ((rc = reference(ref, &p, o.skin, &refpairs)))
                goto done;
            for (size_t k = 0; k < nm; k++) {
                bench_method *b = &v[k];
                hg_detector_counters c;
                double t, cpu;
                if ((rc = run_one(b, &p, o.skin, 1, &t, &cpu, &c)))
                    goto done;
                if ((rc = check_same(b, &refpairs, "dynamic", s)))
                    goto done;
                if (s == 0) {
                    b->t_first = t;
                    b->cpu_first = cpu;
                    continue;
                }
                b->t_dyn[s - 1] = t;
                b->cpu_dyn[s - 1] = cpu;
                b->pair_checks_dyn += (double)c.pair_checks;
                b->cell_accesses_dyn += (double)c.cell_accesses;
                b->swaps_dyn += (double)c.swaps;
                b->comparisons_dyn += (double)c.sort_comparisons;
                b->builds_dyn += c.list_builds;
                if (c.memory_bytes > b->memory_max)
                    b->memory_max = c.memory_bytes;
                b->contacts_last = b->pairs.n;
            }
        }
    }
    FILE *out = cli_open_output(cs.output);
    if (!out) {
        rc = CLI_EDATA;
        goto done;
    }
    if (!strcmp(format, "json"))
        cli_json_print(out, to_json(&o, &p, &cs, v, nm));
    else
        print_table(out, &o, &p, &cs, v, nm);
    rc = cli_close_output(out, cs.output);
done:
    for (size_t k = 0; k < nm; k++) {
        hg_detector_free(v[k].det);
        hg_pairs_clear(&v[k].pairs);
        free(v[k].sizes);
        free(v[k].t_static);
        free(v[k].t_dyn);
        free(v[k].cpu_static);
        free(v[k].cpu_dyn);
    }
    free(v);
    hg_detector_free(ref);
    hg_pairs_clear(&refpairs);
    gsl_rng_free(rng);
    hg_particles_clear(&p);
    cli_system_clear(&cs);
    return rc;
}
