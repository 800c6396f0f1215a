/* cmd_bench.c - `hgridopt bench`: options of the benchmark harness
 * (hg_bench.h) and the formatting of its results. */
#include "cli.h"
#include "hg_figure.h"
#include "hg_bench.h"
#include "hg_pack_gen.h"

#include <stdlib.h>
#include <string.h>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif

#define BRUTE_LIMIT 20000

typedef struct bench_opts {
    long n, seed, steps, repeats, threads;
    double skin, verlet_skin, displacement, budget;
    const char *methods, *sizes;
    int walls, force_brute;
    hg_pack_choice pack; /* the generator of the packing (no --packing) */
} bench_opts;

static const cli_option options[] = {
    CLI_LONG("n", bench_opts, n, 2, 100000000L),
    CLI_LONG("seed", bench_opts, seed, 0, 2147483647L),
    CLI_FLAG("walls", bench_opts, walls),
    CLI_FLAG("open", bench_opts, walls),
    CLI_STR("methods", bench_opts, methods),
    CLI_STR("sizes", bench_opts, sizes),
    CLI_DOUBLE("contact-distance", bench_opts, skin, CLI_NONNEGATIVE),
    CLI_DOUBLE("verlet-skin", bench_opts, verlet_skin, CLI_POSITIVE),
    CLI_LONG("steps", bench_opts, steps, 0, 100000L),
    CLI_DOUBLE("displacement", bench_opts, displacement, CLI_NONNEGATIVE),
    CLI_LONG("repeats", bench_opts, repeats, 1, 1000L),
    CLI_LONG("repeat", bench_opts, repeats, 1, 1000L),
    CLI_FLAG("force-brute", bench_opts, force_brute),
    CLI_LONG("threads", bench_opts, threads, 1, 1024L),
    CLI_DOUBLE("budget", bench_opts, budget, CLI_POSITIVE),
};

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
            "  --n N              particles of the packing (default 10000): "
            "Poisson, or\n"
            "                     with --structure hard-spheres from the rsa "
            "or dense\n"
            "                     generator (as in validate); with\n"
            "                     --packing FILE the particles of the file "
            "are used instead\n"
            "  --seed S           packing and displacement seed (default 1)\n"
            "  --walls            walls instead of a periodic box (same "
            "centres);\n"
            "                     sap-incremental needs it (--open: the "
            "same)\n"
            "  --methods LIST     comma-separated, from: ");
    for (size_t i = 0; i < hg_detector_type_count(); i++)
        fprintf(out, "%s%s", i ? "," : "", hg_detector_type_at(i)->name);
    fprintf(out,
            "\n                     (default: every method the box and the "
            "size limit allow)\n"
            "  --sizes LIST       HGrid cell sizes s_1..s_L for hgrid and "
            "hgrid-bu\n"
            "                     (default: the recommended sizes for --psd, "
            "or for the\n"
            "                     radii of --packing)\n"
            "  --contact-distance X  added to r_i + r_j "
            "(default 0)\n"
            "  --verlet-skin X    Verlet list skin in units of r_min "
            "(default 0.4)\n"
            "  --steps S          dynamic run of S steps after the first "
            "detection (default 0)\n"
            "  --displacement D   per step, every particle moves by a uniform "
            "random vector\n"
            "                     in [-D r_min, D r_min]^d (default 0.05)\n"
            "  --repeats R        static detections per method, median "
            "reported (default 3;\n"
            "                     --repeat: the same)\n"
            "  --force-brute      run brute force above N = %d\n"
            "  --threads T        OpenMP threads of the HGrid search (default "
            "1, as the\n"
            "                     other methods are serial)\n"
            "  --budget W         work (pair checks + cell accesses + box "
            "tests + sort\n"
            "                     comparisons) one detection of a method may "
            "take, predicted\n"
            "                     or measured; above it: exit 1 (default "
            "2e8)\n"
            "  --format F         table (default) or json\n%s%s\n%s\n"
            "Methods:\n",
            BRUTE_LIMIT, cli_output_help, cli_plot_help, cli_system_help);
    for (size_t i = 0; i < hg_detector_type_count(); i++) {
        const hg_detector_type *t = hg_detector_type_at(i);
        fprintf(out, "  %-16s %s%s\n", t->name, t->help,
                t->periodic ? "" : " [no periodic boxes]");
    }
    fprintf(out, "\nExample:\n"
                 "  hgridopt bench --psd powerlaw:alpha=-3,omega=10 --dim 3 "
                 "--nu 0.3 --n 20000 \\\n      --steps 10 --walls\n\n%s",
            cli_exit_help);
}

static void print_sizes(FILE *out, const hg_bench_method *m, const char *sep,
                        int precision)
{
    for (int h = 0; h < m->L; h++)
        fprintf(out, "%s%.*g", h ? sep : "", precision, m->sizes[h]);
}

static void print_table(FILE *out, const bench_opts *o, const cli_system *cs,
                        const hg_bench_result *r)
{
    char mem[32];
    if (cs->c.psd)
        fprintf(out, "distribution:   %s\n", hg_psd_spec(cs->c.psd));
    if (cs->opt.packing_path)
        fprintf(out, "packing:        %s\n", cs->opt.packing_path);
    else
        fprintf(out, "packing:        %s generator (%s)\n",
                o->pack.generator, o->pack.why);
    fprintf(out, "particles:      %zu, dim %d, nu = %.4g, %s box, radii "
                 "%.6g .. %.6g\n",
            r->n, r->dim, r->nu, r->periodic ? "periodic" : "open", r->rmin,
            r->rmax);
    fprintf(out, "K:              %.6g for the HGrid's cell sizes (%s: %s)\n",
            cs->c.K, hg_K_source_name(cs->c.Kc.source), cs->c.Kc.detail);
    fprintf(out, "contact distance: %g; static: median of %ld detection%s",
            o->skin, o->repeats, o->repeats == 1 ? "" : "s");
    if (o->steps > 0)
        fprintf(out, "; dynamic: %ld steps of +-%g r_min per axis",
                o->steps, o->displacement);
    fprintf(out, "\nevery method found the HGrid's contact set at every "
                 "step\n\n");
    fprintf(out, "%-16s %10s %10s %13s %13s %10s %10s", "method",
            "static ms", "(cpu ms)", "pair checks", "other work", "contacts",
            "memory");
    if (o->steps > 0)
        fprintf(out, " %10s %10s %10s %13s %8s", "first ms", "step ms",
                "(cpu ms)", "checks/step", "builds");
    fprintf(out, "\n");
    for (size_t k = 0; k < r->n_methods; k++) {
        const hg_bench_method *b = &r->methods[k];
        const hg_detector_counters *c = &b->counters;
        uint64_t other = c->cell_accesses + c->box_tests +
                         c->sort_comparisons + c->swaps;
        fprintf(out, "%-16s %10.4g %10.4g %13llu %13llu %10zu %10s",
                b->type->name, 1e3 * b->time, 1e3 * b->cpu,
                (unsigned long long)c->pair_checks,
                (unsigned long long)other, b->contacts,
                cli_bytes((double)c->memory_bytes, mem, sizeof mem));
        if (o->steps > 0)
            fprintf(out, " %10.4g %10.4g %10.4g %13.6g %8llu",
                    1e3 * b->first_time, 1e3 * b->step_time,
                    1e3 * b->step_cpu, b->pair_checks_per_step,
                    (unsigned long long)b->builds);
        fprintf(out, "\n");
    }
    for (size_t k = 0; k < r->n_methods; k++)
        if (r->methods[k].L) {
            fprintf(out, "\n%s cell sizes: ", r->methods[k].type->name);
            print_sizes(out, &r->methods[k], " ", 6);
        }
    fprintf(out, "\n\ntimes: wall clock, medians; cpu ms: CPU time of the "
                 "process (robust on a\nloaded machine; with --threads > 1 "
                 "it adds up the threads)\nother work: cell accesses (lc, "
                 "hgrid*, verlet), box tests + sort comparisons\n(sap*, "
                 "sort) and endpoint "
                 "swaps (sap-incremental) of the static detection;\n"
                 "builds: structure (re)builds during the dynamic steps\n");
}

static cJSON *to_json(const bench_opts *o, const cli_system *cs,
                      const hg_bench_result *r)
{
    cJSON *j = cli_json_document("hgridopt.bench/1", cs);
    if (cs->c.psd)
        cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->c.psd));
    if (cs->opt.packing_path) {
        cJSON_AddStringToObject(j, "packing", cs->opt.packing_path);
    } else {
        cJSON_AddStringToObject(j, "generator", o->pack.generator);
        cJSON_AddStringToObject(j, "generator_why", o->pack.why);
    }
    cJSON_AddNumberToObject(j, "particles", (double)r->n);
    cJSON_AddNumberToObject(j, "dim", r->dim);
    cJSON_AddNumberToObject(j, "nu", r->nu);
    cJSON_AddBoolToObject(j, "periodic", r->periodic);
    cJSON_AddNumberToObject(j, "r_min", r->rmin);
    cJSON_AddNumberToObject(j, "r_max", r->rmax);
    cli_json_add_K(j, cs);
    cJSON_AddNumberToObject(j, "contact_distance", o->skin);
    cJSON_AddNumberToObject(j, "repeats", (double)o->repeats);
    cJSON_AddNumberToObject(j, "steps", (double)o->steps);
    cJSON_AddNumberToObject(j, "displacement_per_rmin", o->displacement);
    cJSON_AddBoolToObject(j, "all_match_hgrid", 1);
    cJSON *arr = cJSON_AddArrayToObject(j, "methods");
    for (size_t k = 0; k < r->n_methods; k++) {
        const hg_bench_method *b = &r->methods[k];
        const hg_detector_counters *c = &b->counters;
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "name", b->type->name);
        if (b->L)
            cli_json_add_array(m, "cell_sizes", b->sizes, b->L);
        cJSON *s = cJSON_AddObjectToObject(m, "static");
        cJSON_AddNumberToObject(s, "time_ms", 1e3 * b->time);
        cJSON_AddNumberToObject(s, "cpu_ms", 1e3 * b->cpu);
        cJSON_AddNumberToObject(s, "pair_checks", (double)c->pair_checks);
        cJSON_AddNumberToObject(s, "cell_accesses", (double)c->cell_accesses);
        cJSON_AddNumberToObject(s, "box_tests", (double)c->box_tests);
        cJSON_AddNumberToObject(s, "sort_comparisons",
                                (double)c->sort_comparisons);
        cJSON_AddNumberToObject(s, "contacts", (double)b->contacts);
        cJSON_AddNumberToObject(s, "memory_bytes", (double)c->memory_bytes);
        if (o->steps > 0) {
            cJSON *d = cJSON_AddObjectToObject(m, "dynamic");
            cJSON_AddNumberToObject(d, "first_time_ms", 1e3 * b->first_time);
            cJSON_AddNumberToObject(d, "time_ms", 1e3 * b->step_time);
            cJSON_AddNumberToObject(d, "cpu_ms", 1e3 * b->step_cpu);
            cJSON_AddNumberToObject(d, "first_cpu_ms", 1e3 * b->first_cpu);
            cJSON_AddNumberToObject(d, "pair_checks_per_step",
                                    b->pair_checks_per_step);
            cJSON_AddNumberToObject(d, "cell_accesses_per_step",
                                    b->cell_accesses_per_step);
            cJSON_AddNumberToObject(d, "sort_comparisons_per_step",
                                    b->comparisons_per_step);
            cJSON_AddNumberToObject(d, "swaps_per_step", b->swaps_per_step);
            cJSON_AddNumberToObject(d, "builds", (double)b->builds);
            cJSON_AddNumberToObject(d, "contacts_last_step",
                                    (double)b->contacts_last);
            cJSON_AddNumberToObject(d, "memory_bytes_max",
                                    (double)b->memory_max);
        }
        cJSON_AddItemToArray(arr, m);
    }
    return j;
}

typedef struct bench_output {
    const bench_opts *o;
    const cli_system *cs;
    const hg_bench_result *r;
} bench_output;

static int write_result(FILE *out, const void *ctx)
{
    const bench_output *b = ctx;
    if (!strcmp(b->cs->opt.format, "json"))
        return cli_json_print(out, to_json(b->o, b->cs, b->r));
    print_table(out, b->o, b->cs, b->r);
    return CLI_OK;
}

/* The particles: read --packing, or a packing of --n particles from --psd
 * with the system's structure (Poisson, or hard spheres from rsa or dense;
 * always periodic when generated; --walls switches to walls). */
static int load_particles(bench_opts *o, cli_system *cs, hg_particles *p)
{
    hg_err e = {0};
    int st, rc;
    if (cs->opt.packing_path) {
        /* read by cli_system_resolve, with the file's radii as the
         * distribution unless --psd is given */
        if ((rc = cli_system_resolve(cs, 0)))
            return rc;
        *p = cs->c.packing;
        memset(&cs->c.packing, 0, sizeof cs->c.packing);
        cs->c.has_packing = 0;
    } else {
        if ((rc = cli_system_resolve(cs, 1)))
            return rc;
        if (!o->n)
            o->n = cs->c.particles >= 2 ? cs->c.particles : 10000;
        hg_pack_params pp = {.dim = cs->c.sys.dim,
                             .n = (size_t)o->n,
                             .nu = cs->c.sys.nu,
                             .seed = (uint64_t)o->seed,
                             .periodic = 1};
        if ((rc = cli_announce_packing("bench", cs, pp.n, o->seed)))
            return rc;
        hg_pack_options po;
        hg_pack_options_init(&po);
        cli_progress pr;
        po.progress = cli_progress_start(&pr);
        po.progress_params = &pr;
        st = hg_pack_structure_run(cs->c.psd, &pp, cs->c.sys.structure, &po, p,
                                   NULL, &o->pack, &e);
        cli_progress_end(&pr);
        if (st)
            return cli_fail(&e, st, 0);
    }
    if (o->walls) {
        p->periodic = 0;
        memset(p->boundary, 0, sizeof p->boundary);
    }
    return CLI_OK;
}

/* Split --methods "a,b,c" into names (pointers into *buf). */
static int split_methods(const char *text, char **buf, const char ***names,
                         size_t *n)
{
    size_t cap = 1;
    for (const char *q = text; *q; q++)
        cap += *q == ',';
    *buf = strdup(text);
    *names = calloc(cap, sizeof **names);
    if (!*buf || !*names) {
        cli_error("bench: out of memory");
        return CLI_EDATA;
    }
    char *q = *buf;
    for (*n = 0; *n < cap; (*n)++) {
        char *comma = strchr(q, ',');
        if (comma)
            *comma = '\0';
        if (!*q) {
            cli_error("--methods: empty name in '%s'", text);
            return CLI_EUSAGE;
        }
        (*names)[*n] = q;
        q = comma ? comma + 1 : q + strlen(q);
    }
    return CLI_OK;
}

static const char *const formats[] = {"table", "json", NULL};
static const cli_spec spec = {"bench", help,
                              CLI_SYSTEM | CLI_FORMAT | CLI_OUTPUT | CLI_PLOT,
                              options,
                              sizeof options / sizeof options[0], formats};

int cmd_bench(int argc, char **argv)
{
    hg_bench_config bc;
    hg_bench_config_default(&bc);
    bench_opts o = {0, 1, 0, bc.repeats, 1, 0.0, bc.verlet_skin,
                    bc.displacement, bc.budget, NULL, NULL, 0, 0, {0}};
    cli_system cs = {0};
    hg_particles p = {0};
    hg_bench_result r = {0};
    char *names_buf = NULL;
    const char **names = NULL;
    double *sizes = NULL;
    size_t L = 0;
    hg_err e = {0};
    int rc, st;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
#ifdef HG_HAVE_OPENMP
    omp_set_num_threads((int)o.threads);
#endif
    if (o.methods &&
        (rc = split_methods(o.methods, &names_buf, &names, &bc.n_methods)))
        goto done;
    if (o.sizes && (st = hg_parse_list(o.sizes, ',', "--sizes", &sizes, &L,
                                       &e))) {
        rc = cli_fail(&e, st, 0);
        goto done;
    }
    if ((rc = load_particles(&o, &cs, &p)))
        goto done;
    bc.particles = &p;
    bc.methods = names;
    bc.L = (int)L;
    bc.sizes = sizes;
    bc.psd = cs.c.psd;
    bc.sys = cs.c.sys;
    bc.values = &cs.c.values;
    bc.skin = o.skin;
    bc.verlet_skin = o.verlet_skin;
    bc.displacement = o.displacement;
    bc.repeats = o.repeats;
    bc.steps = o.steps;
    bc.seed = (uint64_t)o.seed;
    bc.brute_limit = BRUTE_LIMIT;
    bc.force_brute = o.force_brute;
    bc.budget = o.budget;
    cli_progress pr;
    bc.progress = cli_progress_start(&pr);
    bc.progress_params = &pr;
    st = hg_bench_run(&bc, &r, &e);
    cli_progress_end(&pr);
    for (size_t k = 0; k < r.n_skipped; k++)
        fprintf(stderr, "hgridopt: bench: skipping %s (%s)\n",
                r.skipped[k].type->name, r.skipped[k].reason);
    if (st) {
        if (st == HG_EINVAL || st == HG_EUNKNOWN) {
            cli_error("--%s", e.msg);
            rc = CLI_EUSAGE;
        } else {
            rc = cli_fail(&e, st, 1);
        }
        goto done;
    }
    bench_output res = {&o, &cs, &r};
    rc = cli_write(cs.opt.output, write_result, &res);
    if (!rc && cs.opt.plot &&
        (st = hg_figure_bench(cs.opt.plot, &r, o.steps > 0, &e)))
        rc = cli_fail(&e, st, 1);
done:
    hg_bench_result_clear(&r);
    free(names_buf);
    free(names);
    free(sizes);
    hg_particles_clear(&p);
    cli_system_clear(&cs);
    return rc;
}
