/* lammps_model.c - LAMMPS' neighbor build (models/lammps.c) as cost models
 * of the registry, so that every command taking a model can use it:
 *   lammps-multi  `neighbor SKIN multi`, collection h holding the atoms of
 *                 HGrid level h (cutoff = largest diameter on it)
 *   lammps-bin    `neighbor SKIN bin` (one level)
 * T is the predicted Neigh time per atom and build in units of one distance
 * check: T_cd = distance checks per atom, T_ca = everything else (bin
 * visits, bins cleared, binned atoms, collection loops, stored neighbours)
 * as the time of that many checks, weighted by K = 1. The constants are
 * a value the caller resolves once and passes in (hg_model_values.consts:
 * the lammps engine's consts_resolve gives the stored calibration of
 * `calibrate --engine lammps --save` or the shipped ones); without them
 * the shipped constants. The model reads no file.
 *
 * Gradient: central finite differences in each cell size (relative step
 * 1e-4). The model is piecewise smooth only: stencil sizes and bin counts
 * are integers that jump where a cutoff-to-bin ratio or the box-to-bin
 * ratio crosses a threshold, so the derivative of the smooth pieces would
 * ignore the jumps the optimiser must see; hg_lammps_optimise therefore
 * searches derivative-free, and the finite difference is what a gradient
 * optimiser gets here.
 */
#include "hg_lammps.h"
#include "hg_model.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const hg_model_param params[] = {
    {"atoms", 50000.0, 1.0, 1e12, 0, "atoms in the simulation"},
    {"skin", 0.1, 0.0, 100.0, 1,
     "neighbor skin in units of the smallest diameter"},
    {"ranks", 1.0, 1.0, 4096.0, 0, "MPI ranks"},
};

/* The constants (given, else the shipped ones in *shipped) and the
 * LAMMPS system of a model input: atoms, skin (in units of the smallest
 * diameter) and ranks from the parameters. */
static const hg_consts *model_view(const hg_model_input *in,
                                          hg_consts *shipped,
                                          hg_lammps_system *sys)
{
    const hg_consts *c = in->consts;
    if (!c) {
        hg_consts_shipped(&hg_lammps_consts_kind, shipped);
        c = shipped;
    }
    *sys = (hg_lammps_system){in->sys->dim,
                              in->sys->nu,
                              in->params[0],
                              in->params[1] * 2.0 * hg_psd_rmin(in->psd),
                              (int)in->params[2],
                              in->sys->structure,
                              in->sys->snapshot};
    return c;
}

static int evaluate_style(const hg_model_input *in, int bin, hg_cost *out,
                          hg_work *wk, hg_err *e)
{
    hg_consts shipped;
    hg_lammps_system sys;
    const hg_consts *c = model_view(in, &shipped, &sys);
    hg_lammps_setting s = {0};
    int st;
    if (!bin &&
        (st = hg_lammps_setting_from_sizes(in->psd, in->L, in->sizes, &s, e)))
        return st;
    hg_lammps_work w;
    if ((st = hg_lammps_work_eval(in->psd, &sys, &s, &w, e)))
        return st;
    if (!(c->c[0] > 0.0))
        return hg_fail(e, HG_EINVAL, "LAMMPS constants: the cost of a "
                                     "distance check is not > 0");
    double nloc = sys.atoms / sys.nprocs;
    double unit = c->c[0] * nloc; /* one check per atom */
    double T = hg_lammps_predict(c, &w) / unit;
    double T_cd = w.checks / nloc;
    if (wk) {
        wk->T = T;
        wk->T_cd = T_cd;
        wk->T_ca = T - T_cd;
    }
    if (!out)
        return HG_OK;
    int L = bin ? 1 : in->L;
    out->per_level = calloc((size_t)L, sizeof *out->per_level);
    if (!out->per_level)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    out->levels = L;
    out->K = 1.0;
    out->T = T;
    out->T_cd = T_cd;
    out->T_ca = T - T_cd;
    /* map each level to its collection (empty levels get zeros) */
    double rmax = hg_psd_rmax(in->psd);
    int k = 0;
    out->nonempty_levels = 0;
    for (int h = 0; h < L; h++) {
        hg_level_cost *lv = &out->per_level[h];
        lv->level = h + 1;
        lv->cell_size = bin ? 2.0 * rmax : in->sizes[h];
        lv->r_lo = h == 0 ? 0.0 : 0.5 * in->sizes[h - 1];
        lv->r_hi = h == L - 1 ? rmax : 0.5 * in->sizes[h];
        lv->fraction = hg_psd_moment(in->psd, 0, lv->r_lo, lv->r_hi);
        if (!(lv->fraction > 0.0) || k >= w.ncoll)
            continue;
        /* this level opens collection k when its upper diameter reaches
         * the cutoff (levels merged into one collection share it) */
        double top = fmin(lv->cell_size, 2.0 * rmax);
        int last_of_coll = bin || top >= (s.ncoll ? s.cut[k] : 2.0 * rmax) ||
                           h == L - 1;
        if (!last_of_coll)
            continue;
        double rest = c->c[1] * w.visits_c[k] + c->c[2] * w.bins_c[k] +
                      c->c[3] * w.binned_c[k] +
                      c->c[4] * (bin ? 0.0 : nloc * w.fraction[k] * w.ncoll) +
                      c->c[5] * w.neighbours * w.fraction[k];
        lv->fraction = w.fraction[k];
        lv->particles_per_cell = w.fraction[k] > 0.0
                                     ? w.checks_c[k] /
                                           (nloc * w.fraction[k] *
                                            (w.stencil[k] > 0 ? w.stencil[k]
                                                              : 1.0))
                                     : 0.0;
        lv->T_cd = w.checks_c[k] / nloc;
        lv->T_ca = rest / unit;
        lv->T = lv->T_cd + lv->T_ca;
        out->nonempty_levels++;
        k++;
    }
    return HG_OK;
}

static int evaluate_multi(const hg_model_input *in, hg_cost *out, hg_work *w,
                          hg_err *e)
{
    return evaluate_style(in, 0, out, w, e);
}

static int evaluate_bin(const hg_model_input *in, hg_cost *out, hg_work *w,
                        hg_err *e)
{
    return evaluate_style(in, 1, out, w, e);
}

static int gradient_style(const hg_model_input *in, int bin, double *T,
                          double *dT_ds, hg_err *e)
{
    hg_work w;
    int st = evaluate_style(in, bin, NULL, &w, e);
    if (st)
        return st;
    *T = w.T;
    if (!dT_ds)
        return HG_OK;
    double *s = malloc(sizeof *s * (size_t)in->L);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    memcpy(s, in->sizes, sizeof *s * (size_t)in->L);
    hg_model_input q = *in;
    q.sizes = s;
    for (int h = 0; h < in->L; h++) {
        dT_ds[h] = 0.0;
        if (bin || h == in->L - 1)
            continue;
        double x = in->sizes[h], step = 1e-4 * x;
        double lo = h > 0 ? in->sizes[h - 1] : 0.0, hi = in->sizes[h + 1];
        double a = fmax(x - step, lo), b = fmin(x + step, hi);
        if (!(b > a))
            continue;
        hg_work wa, wb;
        s[h] = a;
        st = evaluate_style(&q, bin, NULL, &wa, e);
        s[h] = b;
        if (!st)
            st = evaluate_style(&q, bin, NULL, &wb, e);
        s[h] = x;
        if (st)
            break;
        dT_ds[h] = (wb.T - wa.T) / (b - a);
    }
    free(s);
    return st;
}

static int gradient_multi(const hg_model_input *in, double *T, double *dT_ds,
                          hg_err *e)
{
    return gradient_style(in, 0, T, dT_ds, e);
}

static int gradient_bin(const hg_model_input *in, double *T, double *dT_ds,
                        hg_err *e)
{
    return gradient_style(in, 1, T, dT_ds, e);
}

/* The LAMMPS optimiser (models/lammps_opt.c: derivative-free over the
 * cutoffs of each number of collections) as the model's optimiser. */
static int optimise_multi(const hg_model_input *in, int max_levels,
                          double *T, double *sizes, hg_err *e)
{
    hg_consts shipped;
    hg_lammps_system sys;
    const hg_consts *c = model_view(in, &shipped, &sys);
    int n = max_levels < HG_LAMMPS_MAX_COLLECTIONS ? max_levels
                                                   : HG_LAMMPS_MAX_COLLECTIONS;
    hg_lammps_optimum o;
    int st = hg_lammps_optimise(in->psd, &sys, c, n, 0.0, &o, e);
    if (st)
        return st;
    double unit = c->c[0] * sys.atoms / sys.nprocs; /* as evaluate_style */
    for (int L = 1; L <= max_levels; L++) {
        T[L - 1] = L <= n && isfinite(o.by_n_seconds[L])
                       ? o.by_n_seconds[L] / unit
                       : INFINITY;
        for (int h = 0; h < L; h++)
            sizes[(size_t)(L - 1) * (size_t)max_levels + (size_t)h] =
                L <= n ? o.by_n[L].cut[h] : 0.0;
    }
    return HG_OK;
}

const hg_model hg_model_lammps_multi = {
    "lammps-multi",
    "LAMMPS neighbor multi (collection/interval from the levels): Neigh "
    "time per atom in distance checks",
    HG_GRID_NONE,
    0,
    params,
    (int)(sizeof params / sizeof params[0]),
    evaluate_multi,
    gradient_multi,
    optimise_multi};

const hg_model hg_model_lammps_bin = {
    "lammps-bin",
    "LAMMPS neighbor bin: Neigh time per atom in distance checks",
    HG_GRID_NONE,
    1,
    params,
    (int)(sizeof params / sizeof params[0]),
    evaluate_bin,
    gradient_bin};
