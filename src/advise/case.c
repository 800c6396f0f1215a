/* case.c - what the user gives resolved into the case the models read
 * (hg_advise.h): the particle file with its frame, radii and boundary, the
 * system file, the distribution, dim, nu, the structure, K and the
 * engine's constants, the neighbour skin. Each value says where it came
 * from. */
#include "hg_advise.h"
#include "hg_export.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hg_case_clear(hg_case *c)
{
    if (!c)
        return;
    hg_sysfile_clear(&c->file);
    if (c->has_packing)
        hg_particles_clear(&c->packing);
    c->has_packing = 0;
    hg_snapshot_free(c->snapshot);
    c->snapshot = NULL;
    hg_psd_free(c->psd);
    c->psd = NULL;
    c->values.consts = NULL;
}

static void note(hg_case *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void note(hg_case *c, const char *fmt, ...)
{
    if (c->n_notes >= HG_CASE_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->notes[c->n_notes++], sizeof c->notes[0], fmt, ap);
    va_end(ap);
}

void hg_box_note(const char *path, const hg_particles *p, char *buf,
                 size_t len)
{
    snprintf(buf, len,
             "%s gives no box; using the bounding box of the spheres with "
             "walls (nu = %.4g). To give the box: CSV '# box xlo xhi ylo "
             "yhi%s periodic|walls' before the header, XYZ Lattice=\"...\" "
             "and pbc=\"...\", VTK the title line written by 'hgridopt "
             "pack'",
             strcmp(path, "-") ? path : "(stdin)",
             hg_particles_packing_fraction(p), p->dim == 3 ? " zlo zhi" : "");
}

/* A spec naming a file (table, sample): an error about the file's content
 * names the file and is a data error; one about the spec's own parameters
 * (a missing size=, a bad basis=) is a usage error. */
static int psd_error_names_file(const char *spec, const char *msg)
{
    const char *f = strstr(spec, "file=");
    if (!f)
        return 0;
    f += 5;
    size_t n = strcspn(f, ",");
    char path[4096];
    snprintf(path, sizeof path, "%.*s", (int)n, f);
    return n > 0 && strstr(msg, path) != NULL;
}

const hg_engine *hg_case_engine(const hg_case_input *in)
{
    if (in->engine)
        return hg_engine_find(in->engine);
    if (in->model && hg_engine_of_model(in->model))
        return hg_engine_of_model(in->model);
    return hg_engine_of_format(in->format);
}

/* The parameter values the engine's models take for its code, and its
 * constants, resolved once here and handed to every model evaluation as
 * c->values.consts: no model reads a file. */
static int engine_values(const hg_case_input *in, hg_case *c, hg_err *e)
{
    const hg_engine *eng = hg_case_engine(in);
    c->consts_source[0] = '\0';
    if (eng && eng->model_values) {
        hg_kv kv = {0};
        int st = hg_kv_parse(eng->model_values, &kv, e);
        for (size_t i = 0; i < kv.n && !st; i++)
            st = hg_model_values_set(&c->values, kv.items[i].key,
                                     atof(kv.items[i].val), e);
        hg_kv_clear(&kv);
        if (st)
            return st;
    }
    if (!eng || !eng->consts)
        return HG_OK;
    int st = hg_engine_consts(eng, c->sys.dim, &c->consts, c->consts_source,
                              sizeof c->consts_source, e);
    if (st)
        return hg_err_data(e, st);
    c->has_consts = 1;
    c->values.consts = &c->consts;
    return HG_OK;
}

/* --frame first|last|N|-N|step=S into o. */
static int parse_frame(const char *text, hg_io_options *o, hg_err *e)
{
    long v;
    if (!strcmp(text, "last"))
        o->frame = 0;
    else if (!strcmp(text, "first"))
        o->frame = 1;
    else if (!strncmp(text, "step=", 5)) {
        double s;
        if (hg_parse_double(text + 5, "--frame step", &s, NULL) ||
            s != floor(s) || fabs(s) > 9e15)
            return hg_fail(e, HG_EINVAL,
                           "--frame: '%s' is not step=S with an integer "
                           "timestep S",
                           text);
        o->by_step = 1;
        o->step = (long long)s;
    } else if (hg_parse_long(text, "--frame", -1000000000L, 1000000000L, &v,
                             NULL) == HG_OK &&
               v != 0) {
        o->frame = v;
    } else {
        return hg_fail(e, HG_EINVAL,
                       "--frame: '%s' is not last, first, N (1 = the "
                       "first), -N (from the end) or step=S",
                       text);
    }
    return HG_OK;
}

/* --type-radius T=R,...: radius[t-1] for types 1..*n (caller frees). */
int hg_type_radius_parse(const char *text, double **radius, size_t *n,
                         hg_err *e)
{
    *radius = NULL;
    *n = 0;
    hg_kv kv = {0};
    if (hg_kv_parse(text, &kv, NULL) || kv.n == 0) {
        hg_kv_clear(&kv);
        return hg_fail(e, HG_EINVAL,
                       "--type-radius: '%s' is not TYPE=RADIUS,... (e.g. "
                       "1=0.5,2=1)",
                       text);
    }
    long tmax = 0;
    int st = HG_OK;
    for (size_t i = 0; i < kv.n && !st; i++) {
        long t = 0;
        if (hg_parse_long(kv.items[i].key, "--type-radius type", 1, 100000,
                          &t, NULL))
            st = hg_fail(e, HG_EINVAL,
                         "--type-radius: type '%s' is not an atom type (1, "
                         "2, ...)",
                         kv.items[i].key);
        tmax = t > tmax ? t : tmax;
    }
    double *r = st ? NULL : calloc((size_t)tmax, sizeof *r);
    if (!st && !r)
        st = hg_fail(e, HG_ENOMEM, "out of memory");
    for (size_t i = 0; i < kv.n && !st; i++) {
        long t = atol(kv.items[i].key);
        double v;
        if (hg_parse_double(kv.items[i].val, "--type-radius", &v, NULL) ||
            !(v > 0.0))
            st = hg_fail(e, HG_EINVAL,
                         "--type-radius: radius '%s' of type %ld is not a "
                         "number > 0",
                         kv.items[i].val, t);
        else
            r[t - 1] = v;
    }
    hg_kv_clear(&kv);
    if (st) {
        free(r);
        return st;
    }
    *radius = r;
    *n = (size_t)tmax;
    return HG_OK;
}

/* The boundary of a file that does not state one: what the gaps tell
 * (an axis whose spheres leave a gap wider than any search behaves as
 * non-periodic), the rest the format's default, said as assumed. */
static void boundary_from_gaps(const hg_case_input *in, hg_case *c)
{
    hg_particles *p = &c->packing;
    const hg_io_info *fi = &c->file_info;
    double skin = 0.0;
    if (in->skin)
        (void)hg_parse_double(in->skin, "--skin", &skin, NULL);
    double rmax = hg_particles_rmax(p);
    double reach = 6.4 * rmax + (skin > 0.0 ? skin : 0.0);
    int told[3];
    int n = hg_particles_boundary_infer(p, reach, told, c->boundary_gap);
    int d = p->dim;
    char given[8];
    hg_particles_boundary_text(p, given);
    char inferred[128] = "", assumed[16] = ""; /* "x, y, z" at most */
    for (int a = 0; a < d; a++) {
        snprintf(c->boundary_axes[a], sizeof c->boundary_axes[a], "%s",
                 told[a] ? "inferred" : "assumed");
        if (told[a])
            snprintf(inferred + strlen(inferred),
                     sizeof inferred - strlen(inferred), "%s%c (gap %.4g)",
                     inferred[0] ? ", " : "", "xyz"[a], c->boundary_gap[a]);
        else
            snprintf(assumed + strlen(assumed),
                     sizeof assumed - strlen(assumed), "%s%c",
                     assumed[0] ? ", " : "", "xyz"[a]);
    }
    if (n == d) {
        c->boundary_source = HG_BOUNDARY_INFERRED;
        snprintf(c->boundary_why, sizeof c->boundary_why,
                 "inferred: the file does not say; along %s the spheres "
                 "leave a gap wider than any search (%.4g = 6.4 r_max%s), "
                 "so those axes behave as non-periodic",
                 inferred, reach, skin > 0.0 ? " + skin" : "");
        return;
    }
    c->boundary_source = HG_BOUNDARY_ASSUMED;
    snprintf(c->boundary_why, sizeof c->boundary_why,
             "assumed %s: %s does not say the boundary and the spheres "
             "reach the box's faces along %s (%s assumed %s)%s%s%s; if "
             "your input's boundary differs, give it: --boundary \"%s\" "
             "with your letters",
             given, fi->kind, assumed, assumed, fi->boundary_default,
             n ? "; non-periodic " : "",
             n ? "(inferred from the gaps): " : "", n ? inferred : "",
             given);
}

/* Read the particle file with --frame and --type-radius, and decide its
 * boundary: --boundary, else the file's own, else what the gaps tell,
 * else the format's default, said as assumed. */
static int load_packing(const hg_case_input *in, hg_case *c, hg_err *e)
{
    hg_io_options io = {0};
    double *tr = NULL;
    int st;
    if (in->frame && (st = parse_frame(in->frame, &io, e)))
        return st;
    if (in->type_radius &&
        (st = hg_type_radius_parse(in->type_radius, &tr, &io.n_types, e)))
        return st;
    io.type_radius = tr;
    io.progress = in->progress;
    io.progress_params = in->progress_params;
    io.boundary_given = in->boundary != NULL;
    st = hg_io_load_files(in->packing_path, &io, &c->packing, &c->file_info,
                          e);
    free(tr);
    if (st)
        return hg_err_data(e, st);
    c->has_packing = 1;
    const hg_io_info *fi = &c->file_info;
    if (in->frame && fi->format != HG_IO_DUMP &&
        fi->format != HG_IO_MERCURY_DATA)
        return hg_fail(e, HG_EINVAL, "--frame: '%s' is a %s, a file of one "
                       "frame", in->packing_path, fi->kind);
    if (in->type_radius && !(fi->format == HG_IO_DUMP))
        note(c, "--type-radius: '%s' has its radii; the option is not used",
             in->packing_path);
    hg_particles *p = &c->packing;
    for (int a = 0; a < 3; a++) {
        snprintf(c->boundary_axes[a], sizeof c->boundary_axes[a], "file");
        c->boundary_gap[a] = NAN;
    }
    if (in->boundary) {
        if ((st = hg_particles_set_boundary(p, in->boundary, e)))
            return hg_fail(e, HG_EINVAL, "--boundary: %s", e->msg);
        c->boundary_source = HG_BOUNDARY_GIVEN;
        for (int a = 0; a < 3; a++)
            snprintf(c->boundary_axes[a], sizeof c->boundary_axes[a],
                     "given");
        snprintf(c->boundary_why, sizeof c->boundary_why,
                 "given (--boundary)%s",
                 fi->boundary_stated ? "; the file states its own, which "
                                       "this replaces"
                                     : "");
        return HG_OK;
    }
    if (fi->boundary_stated) {
        c->boundary_source = HG_BOUNDARY_FILE;
        snprintf(c->boundary_why, sizeof c->boundary_why, "from the file");
        return HG_OK;
    }
    if (p->box_inferred) {
        c->boundary_source = HG_BOUNDARY_ASSUMED;
        for (int a = 0; a < 3; a++)
            snprintf(c->boundary_axes[a], sizeof c->boundary_axes[a],
                     "assumed");
        snprintf(c->boundary_why, sizeof c->boundary_why,
                 "assumed: the file gives no box, so the box is the "
                 "bounding box of the spheres with walls; if your "
                 "simulation's box differs, give it in the file (see "
                 "'hgridopt pack --help')");
        return HG_OK;
    }
    boundary_from_gaps(in, c);
    return HG_OK;
}

/* The particle file: its radii, dim and nu (the density its particles
 * experience, measured with their pair statistics: a snapshot's box is
 * not its bed) override a system file's. */
static int particle_file(const hg_case_input *in, hg_case *c,
                         hg_psd **psd, hg_err *e)
{
    hg_system ps = {0, 0.0};
    int st = load_packing(in, c, e);
    if (st)
        return st;
    if ((st = hg_io_system_from_particles(&c->packing, psd, &ps, e)))
        return hg_err_data(e, st);
    /* an assumed boundary: one note whatever the format (the table
     * repeats it on its boundary line, JSON carries it) */
    if (c->packing.box_inferred && c->n_notes < HG_CASE_MAX_NOTES)
        hg_box_note(in->packing_path, &c->packing, c->notes[c->n_notes++],
                    sizeof c->notes[0]);
    else if (c->boundary_source == HG_BOUNDARY_ASSUMED)
        note(c, "boundary %s", c->boundary_why);
    st = hg_snapshot_create_progress(&c->packing, in->progress,
                                     in->progress_params, &c->snapshot, e);
    if (st)
        return hg_fail_data(e, HG_EINVAL, "--packing: '%s': %s",
                            in->packing_path, e->msg);
    const hg_snapshot_info *si = hg_snapshot_get_info(c->snapshot);
    if (si->nu_local > 0.0 && si->nu_local < 1.0)
        ps.nu = si->nu_local;
    size_t ca = 0, cb = 0;
    if ((st = hg_particles_coincident(&c->packing, &c->coincident,
                                      &c->coincident_positions, &ca, &cb,
                                      e)))
        return st;
    if (c->coincident) {
        const double *x = &c->packing.x[ca * (size_t)c->packing.dim];
        char at[96];
        if (c->packing.dim == 3)
            snprintf(at, sizeof at, "%.6g, %.6g, %.6g", x[0], x[1], x[2]);
        else
            snprintf(at, sizeof at, "%.6g, %.6g", x[0], x[1]);
        note(c, "'%s': %zu particles lie at the same centre as another (%zu "
             "centre%s shared; e.g. particles %zu and %zu, in file order, at "
             "(%s)): duplicates of one another? the largest overlap "
             "measured is theirs",
             in->packing_path, c->coincident, c->coincident_positions,
             c->coincident_positions == 1 ? "" : "s", ca + 1, cb + 1, at);
    }
    if (in->dim && atoi(in->dim) != ps.dim)
        return hg_fail(e, HG_EINVAL,
                       "--dim: %s contradicts the %dD particle file '%s'",
                       in->dim, ps.dim, in->packing_path);
    c->file.has_dim = 1;
    c->file.dim = ps.dim;
    if (!in->nu && !(ps.nu > 0.0 && ps.nu < 1.0))
        return hg_fail_data(e, HG_EINVAL,
                            "--packing: the packing fraction of '%s' is %g, "
                            "outside (0, 1)",
                            in->packing_path, ps.nu);
    c->file.has_nu = 1;
    c->file.nu = ps.nu;
    return HG_OK;
}

/* dim and nu: option > particle file > system file. */
static int dim_and_nu(const hg_case_input *in, hg_case *c, hg_err *e)
{
    c->sys.dim = 0;
    if (in->dim) {
        long d;
        int st = hg_parse_long(in->dim, "--dim", 2, 3, &d, e);
        if (st)
            return st;
        c->sys.dim = (int)d;
    } else if (c->file.has_dim) {
        c->sys.dim = c->file.dim;
    } else {
        return hg_fail(e, HG_EINVAL,
                       "--dim: missing (give --dim 2 or --dim 3, or \"dim\" "
                       "in the system file)");
    }
    c->sys.nu = NAN;
    if (in->nu) {
        int st = hg_parse_double(in->nu, "--nu", &c->sys.nu, e);
        if (st)
            return st;
        if (!(c->sys.nu > 0.0 && c->sys.nu < 1.0))
            return hg_fail(e, HG_EINVAL, "--nu: %s is outside (0, 1)",
                           in->nu);
    } else if (c->file.has_nu) {
        c->sys.nu = c->file.nu;
    } else if (in->need_nu) {
        return hg_fail(e, HG_EINVAL,
                       "--nu: missing (give the packing fraction, 0 < nu < "
                       "1)");
    }
    return HG_OK;
}

/* structure: option > system file > measured from the particle file >
 * poisson. */
static int structure(const hg_case_input *in, hg_case *c, hg_err *e)
{
    c->sys.structure = HG_STRUCTURE_POISSON;
    c->sys.snapshot = c->snapshot;
    if (in->structure) {
        if (hg_structure_parse(in->structure, &c->sys.structure, NULL))
            return hg_fail(e, HG_EINVAL,
                           "--structure: unknown value '%s' (poisson, "
                           "hard-spheres or measured)",
                           in->structure);
        snprintf(c->structure_why, sizeof c->structure_why,
                 "given (--structure)");
        if (c->sys.structure == HG_STRUCTURE_MEASURED && !c->has_packing)
            return hg_fail(e, HG_EINVAL,
                           "--structure: measured needs a particle file "
                           "(--packing FILE)");
    } else if (c->file.has_structure) {
        c->sys.structure = c->file.structure;
        snprintf(c->structure_why, sizeof c->structure_why,
                 "from the system file");
    } else if (c->has_packing) {
        const hg_snapshot_info *si = hg_snapshot_get_info(c->snapshot);
        char coincident[96] = "";
        if (c->coincident)
            snprintf(coincident, sizeof coincident, "; %zu coincident "
                     "particles (at %zu shared centre%s)", c->coincident,
                     c->coincident_positions,
                     c->coincident_positions == 1 ? "" : "s");
        c->sys.structure = HG_STRUCTURE_MEASURED;
        snprintf(c->structure_why, sizeof c->structure_why,
                 "measured from the particle file: %.3g contacts per "
                 "particle (%.3g for random centres), largest overlap "
                 "%.3g of the smaller radius%s",
                 si->coordination, si->coordination_poisson,
                 si->max_overlap, coincident);
    } else {
        snprintf(c->structure_why, sizeof c->structure_why, "default");
    }
    return HG_OK;
}

/* K: one resolver decides (command line, system file, calibration file,
 * shipped default or paper value) for the engine whose K the output
 * uses; then the engine's parameter values and constants. */
static int K_and_constants(const hg_case_input *in, hg_case *c, hg_err *e)
{
    const hg_engine *eng = in->engine ? hg_engine_find(in->engine) : NULL;
    const char *kt = in->K ? in->K
                     : c->file.K_auto ? "auto" /* "K": "auto" in the file */
                                      : NULL;
    hg_K_request kr = {hg_engine_K_of(eng, in->format), c->sys.dim, kt,
                       c->file.has_K, c->file.K, c->file.path, NULL};
    int st = hg_K_resolve(&kr, &c->Kc, e);
    if (st) {
        /* a bad --K value is a usage error; a calibration file that is
         * missing, malformed or lacks the dimension is a data problem */
        int bad_text = in->K && strcmp(in->K, "auto") &&
                       strcmp(in->K, "paper") && strcmp(in->K, "shipped");
        return bad_text ? st : hg_err_data(e, st);
    }
    c->K = c->Kc.K;
    c->K_auto = c->Kc.source == HG_K_SOURCE_CALIBRATION;
    memset(&c->values, 0, sizeof c->values);
    /* K, and C for the bundled HGrid with its own K (--param C=V sets C) */
    if ((st = hg_K_values_set(&c->Kc, &c->values, e)))
        return st;
    return engine_values(in, c, e);
}

/* The distribution: --psd > the particle file's radii > the system
 * file's; psd (the particle file's) is taken over or freed. */
static int distribution(const hg_case_input *in, hg_case *c, hg_psd *psd,
                        hg_err *e)
{
    hg_psd_ctx ctx = {c->sys.dim, NULL};
    if (psd && !in->psd_spec) {
        c->psd = psd;
        return HG_OK;
    }
    hg_psd_free(psd);
    if (in->psd_spec) {
        int st = hg_psd_parse(in->psd_spec, &ctx, &c->psd, e);
        if (st && psd_error_names_file(in->psd_spec, e->msg))
            return hg_err_data(e, st);
        return st;
    }
    if (c->file.family) {
        ctx.base_dir = c->file.base_dir;
        int st = hg_psd_create(c->file.family, &c->file.params, &ctx,
                               &c->psd, e);
        if (st)
            return hg_fail_data(e, HG_EINVAL, "%s: \"distribution\": %s",
                                c->file.path, e->msg);
        return HG_OK;
    }
    return hg_fail(e, HG_EINVAL,
                   "--psd: missing (give --psd SPEC or a --system file with "
                   "a \"distribution\")");
}

/* The neighbour skin the settings and the models assume. */
static int skin(const hg_case_input *in, hg_case *c, hg_err *e)
{
    c->skin_given = in->skin != NULL;
    if (c->skin_given) {
        double v = NAN;
        if (hg_parse_double(in->skin, "--skin", &v, NULL) || !(v > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "--skin: '%s' is not a skin > 0 (your input's "
                           "neighbor SKIN, in the file's length unit)",
                           in->skin);
        c->skin = v;
        snprintf(c->skin_why, sizeof c->skin_why, "given (--skin)");
    } else {
        c->skin = hg_export_default_skin(c->psd);
        snprintf(c->skin_why, sizeof c->skin_why,
                 "hgridopt's default, 10 %% of the smallest diameter: give "
                 "your input's neighbor skin with --skin");
    }
    return HG_OK;
}

int hg_case_resolve(const hg_case_input *in, hg_case *c, hg_err *e)
{
    memset(c, 0, sizeof *c);
    int st;
    if (in->system_path && (st = hg_sysfile_load(in->system_path, &c->file,
                                                 e)))
        return hg_err_data(e, st);
    static const char *const names[3] = {"--boundary", "--frame",
                                         "--type-radius"};
    const char *vals[3] = {in->boundary, in->frame, in->type_radius};
    for (int k = 0; k < 3 && !in->packing_path; k++)
        if (vals[k])
            return hg_fail(e, HG_EINVAL,
                           "%s: '%s' describes a particle file; give it with "
                           "--packing FILE",
                           names[k], vals[k]);
    hg_psd *psd = NULL;
    if (in->packing_path && (st = particle_file(in, c, &psd, e))) {
        hg_psd_free(psd);
        return st;
    }
    if ((st = dim_and_nu(in, c, e)) || (st = structure(in, c, e)) ||
        (st = K_and_constants(in, c, e))) {
        hg_psd_free(psd);
        return st;
    }
    if ((st = distribution(in, c, psd, e)) || (st = skin(in, c, e)))
        return st;
    c->name = c->file.name;
    c->unit = c->file.length_unit;
    c->particles = c->file.has_particles ? c->file.particles : 0;
    if (c->has_packing)
        c->particles = (long)c->packing.n;
    return HG_OK;
}
