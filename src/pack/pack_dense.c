/* pack_dense.c - dense packings: RSA at the target radii (or, when it
 * stalls, at radii scaled down and then grown), overlaps removed by
 * Gauss-Seidel projection with HGrid Verlet lists. */
#include "pack_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Gauss-Seidel over-relaxation factor and target gap (in units of the
 * tolerance times the smaller radius) of a corrected pair: tuned on 10^4
 * monodisperse and power-law packings (fewest sweeps to 1 %). */
#define RELAX_SOR 1.8
#define RELAX_MARGIN 0.5
/* Skin of the neighbour lists in units of the smallest radius. */
#define RELAX_SKIN 1.0
/* Attempts per particle of the RSA stages of the dense generator. */
#define DENSE_RSA_ATTEMPTS 200
#define RELAX_STALL 500

/* Neighbour lists (both directions, sorted by index) of all pairs within
 * r_i + r_j + skin, from the HGrid; x_ref are the positions they were
 * built for. */
typedef struct nlist {
    size_t *start; /* n + 1 */
    uint32_t *nb;
    size_t cap;
    double *x_ref;
} nlist;

typedef struct relax {
    hg_particles p;  /* current positions and (scaled) radii */
    double *w;       /* r_i^d: the weights of the pair shares */
    nlist nl;
    hg_pairs pairs;
    double skin;
    size_t sweeps, rebuilds;
} relax;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Rebuild the neighbour lists of rx->p with skin rx->skin. */
static int rebuild(relax *rx, hg_err *e)
{
    hg_particles *p = &rx->p;
    int L, d = p->dim;
    double sizes[16], rmin = hg_particles_rmin(p), rmax = hg_particles_rmax(p);
    pack_grid_sizes(rmin, rmax, p->n, d, p->hi[0] - p->lo[0], &L, sizes);
    hg_grid *g = NULL;
    int st = hg_grid_create(d, L, sizes, HG_TOP_DOWN, &g, e);
    if (st == HG_OK)
        st = hg_grid_set_skin(g, rx->skin, e);
    if (st == HG_OK)
        st = hg_grid_build(g, p, e);
    if (st == HG_OK)
        st = hg_grid_find_contacts(g, &rx->pairs, NULL, e);
    hg_grid_free(g);
    if (st != HG_OK)
        return st;
    nlist *nl = &rx->nl;
    size_t m = 2 * rx->pairs.n;
    if (m > nl->cap) {
        uint32_t *nb = realloc(nl->nb, (m ? m : 1) * sizeof *nb);
        if (!nb)
            return hg_fail(e, HG_ENOMEM, "out of memory for %zu neighbours",
                           m);
        nl->nb = nb;
        nl->cap = m;
    }
    memset(nl->start, 0, (p->n + 1) * sizeof *nl->start);
    for (size_t k = 0; k < rx->pairs.n; k++) {
        nl->start[rx->pairs.v[k].i + 1]++;
        nl->start[rx->pairs.v[k].j + 1]++;
    }
    for (size_t i = 0; i < p->n; i++)
        nl->start[i + 1] += nl->start[i];
    /* fill using the end pointers, then restore the starts */
    for (size_t k = 0; k < rx->pairs.n; k++) {
        uint32_t i = rx->pairs.v[k].i, j = rx->pairs.v[k].j;
        nl->nb[nl->start[i]++] = j;
        nl->nb[nl->start[j]++] = i;
    }
    for (size_t i = p->n; i > 0; i--)
        nl->start[i] = nl->start[i - 1];
    nl->start[0] = 0;
    /* the pair order from the grid is unspecified: sort for determinism */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 4096)
#endif
    for (size_t i = 0; i < p->n; i++)
        if (nl->start[i + 1] - nl->start[i] > 1)
            qsort(nl->nb + nl->start[i], nl->start[i + 1] - nl->start[i],
                  sizeof *nl->nb, cmp_u32);
    memcpy(nl->x_ref, p->x, p->n * (size_t)d * sizeof *p->x);
    rx->rebuilds++;
    return HG_OK;
}

/* Put coordinate c of particle i back into the box. */
static inline double wrap(const hg_particles *p, size_t i, int c, double v)
{
    double lo = p->lo[c], hi = p->hi[c];
    if (p->periodic) {
        double len = hi - lo;
        if (v < lo)
            v += len;
        else if (v >= hi)
            v -= len;
        if (!(v >= lo && v < hi))
            v = lo;
    } else {
        v = pack_clamp_wall(v, p->r[i], lo, hi);
    }
    return v;
}

/* One Gauss-Seidel pass over the pairs (i < j, in index order): each
 * overlapping pair is pushed apart at once, i and j sharing the move in
 * inverse proportion to their volumes. Returns the largest relative
 * overlap met (before its correction) and the largest displacement since
 * the last rebuild in *far. */
static double sweep(relax *rx, double margin, double *far)
{
    hg_particles *p = &rx->p;
    const int d = p->dim;
    const size_t n = p->n;
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        double *xi = p->x + i * (size_t)d;
        double ri = p->r[i], wi = rx->w[i];
        for (size_t k = rx->nl.start[i]; k < rx->nl.start[i + 1]; k++) {
            size_t j = rx->nl.nb[k];
            if (j < i)
                continue;
            double *xj = p->x + j * (size_t)d;
            double rj = p->r[j], del[3], d2 = 0.0;
            for (int c = 0; c < d; c++) {
                del[c] = hg_particles_delta(p, c, xi[c] - xj[c]);
                d2 += del[c] * del[c];
            }
            double sum = ri + rj;
            if (d2 >= sum * sum)
                continue;
            double dist = sqrt(d2), rs = ri < rj ? ri : rj;
            double ov = sum - dist;
            if (ov / rs > worst)
                worst = ov / rs;
            double push = RELAX_SOR * (ov + margin * rs) / (wi + rx->w[j]);
            double u[3] = {1.0, 0.0, 0.0};
            if (dist > 0.0)
                for (int c = 0; c < d; c++)
                    u[c] = del[c] / dist;
            for (int c = 0; c < d; c++) {
                xi[c] = wrap(p, i, c, xi[c] + push * rx->w[j] * u[c]);
                xj[c] = wrap(p, j, c, xj[c] - push * wi * u[c]);
            }
        }
    }
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        double m2 = 0.0;
        for (int c = 0; c < d; c++) {
            size_t k = i * (size_t)d + (size_t)c;
            double s = hg_particles_delta(p, c, p->x[k] - rx->nl.x_ref[k]);
            m2 += s * s;
        }
        if (m2 > m)
            m = m2;
    }
    *far = sqrt(m);
    return worst;
}

/* Relax rx->p until the largest relative overlap is below tol, the sweep
 * budget is spent, or the packing is jammed (the largest overlap fell by
 * less than 2 % over RELAX_STALL sweeps); *worst is the largest overlap of
 * the last sweep (>= tol unless relaxed). */
static int relax_run(relax *rx, double tol, size_t max_sweeps,
                     const hg_pack_options *opt, const char *stage,
                     double plo, double phi, double *worst, hg_err *e)
{
    int st = rebuild(rx, e);
    if (st != HG_OK)
        return st;
    double w0 = -1.0, fmax = 0.0, wcheck = INFINITY;
    for (size_t s = 0; s < max_sweeps; s++) {
        double far;
        *worst = sweep(rx, RELAX_MARGIN * tol, &far);
        rx->sweeps++;
        if (*worst < tol)
            return HG_OK;
        if (s % RELAX_STALL == RELAX_STALL - 1) {
            if (*worst > 0.98 * wcheck)
                return HG_OK; /* jammed */
            wcheck = *worst;
        }
        if (w0 < 0.0)
            w0 = *worst;
        if (opt->progress && s % 20 == 0 && w0 > tol) {
            double f = log(w0 / *worst) / log(w0 / tol);
            fmax = f > fmax ? (f < 1.0 ? f : 1.0) : fmax;
            opt->progress(stage, plo + (phi - plo) * fmax,
                          opt->progress_params);
        }
        if (far > 0.5 * rx->skin) {
            st = rebuild(rx, e);
            if (st != HG_OK)
                return st;
        }
    }
    return HG_OK;
}

int hg_pack_max_overlap(const hg_particles *p, double *max_overlap,
                        hg_err *e)
{
    *max_overlap = 0.0;
    if (p->n < 2)
        return HG_OK;
    relax rx;
    memset(&rx, 0, sizeof rx);
    rx.p = *p; /* borrowed: rebuild only reads p */
    rx.nl.start = malloc((p->n + 1) * sizeof *rx.nl.start);
    rx.nl.x_ref = malloc(p->n * (size_t)p->dim * sizeof *rx.nl.x_ref);
    int st = HG_OK;
    if (!rx.nl.start || !rx.nl.x_ref)
        st = hg_fail(e, HG_ENOMEM, "out of memory");
    if (st == HG_OK)
        st = rebuild(&rx, e);
    for (size_t k = 0; st == HG_OK && k < rx.pairs.n; k++) {
        size_t i = rx.pairs.v[k].i, j = rx.pairs.v[k].j;
        double d2 = 0.0;
        for (int c = 0; c < p->dim; c++) {
            double t = hg_particles_delta(
                p, c, p->x[i * (size_t)p->dim + (size_t)c] -
                          p->x[j * (size_t)p->dim + (size_t)c]);
            d2 += t * t;
        }
        double ov = p->r[i] + p->r[j] - sqrt(d2);
        double rs = p->r[i] < p->r[j] ? p->r[i] : p->r[j];
        if (ov / rs > *max_overlap)
            *max_overlap = ov / rs;
    }
    free(rx.nl.start);
    free(rx.nl.nb);
    free(rx.nl.x_ref);
    hg_pairs_clear(&rx.pairs);
    return st;
}

/* Set the radii of rx->p to scale * r[idx[i]], their weights, the skin,
 * and (walls) push grown spheres back inside the box. */
static void set_radii(relax *rx, const double *r, const size_t *idx,
                      double scale)
{
    hg_particles *p = &rx->p;
    const int d = p->dim;
    for (size_t i = 0; i < p->n; i++) {
        double ri = r[idx[i]] * scale;
        p->r[i] = ri;
        rx->w[i] = d == 3 ? ri * ri * ri : ri * ri;
        for (int c = 0; c < d; c++) {
            double *v = &p->x[i * (size_t)d + (size_t)c];
            *v = wrap(p, i, c, *v);
        }
    }
    rx->skin = RELAX_SKIN * hg_particles_rmin(p);
}

/* The options the dense generator needs, and a target nu that equal
 * spheres can reach. */
static int check_dense(const hg_psd *psd, const hg_pack_params *prm,
                       const hg_pack_options *opt, hg_err *e)
{
    if (!(opt->overlap_tol > 0.0 && opt->overlap_tol < 1.0) ||
        !(opt->start_nu > 0.0) || !(opt->nu_step > 0.0) ||
        opt->max_sweeps < 1 || opt->max_dropped < 1)
        return hg_fail(e, HG_EINVAL,
                       "dense: need 0 < overlap_tol (%g) < 1, start_nu (%g) "
                       "> 0, nu_step (%g) > 0, max_sweeps and max_dropped "
                       ">= 1",
                       opt->overlap_tol, opt->start_nu, opt->nu_step);
    /* equal spheres cannot beat the densest lattice packing (Kepler in
     * 3D, hexagonal in 2D); the jam detection handles the rest */
    double densest = prm->dim == 3 ? M_PI / sqrt(18.0) : M_PI / sqrt(12.0);
    if (hg_psd_rmin(psd) == hg_psd_rmax(psd) && prm->nu > densest)
        return hg_fail(e, HG_EINVAL,
                       "dense: nu = %g is above the densest packing of equal "
                       "spheres (%.4f in %dD); random packings jam near "
                       "%.2f",
                       prm->nu, densest, prm->dim,
                       prm->dim == 3 ? 0.64 : 0.84);
    return HG_OK;
}

/* The dense generator's working set: target radii r (box edge A), scaled
 * radii rs, positions x of the last step relaxed, idx[i] the radius of
 * particle i, the random numbers, the relaxation. */
typedef struct dense_state {
    double *r, *rs, *x, A;
    size_t *idx;
    gsl_rng *rng;
    relax rx;
    size_t attempts;
} dense_state;

static void dense_free(dense_state *ds)
{
    hg_particles_clear(&ds->rx.p);
    free(ds->rx.w);
    free(ds->rx.nl.start);
    free(ds->rx.nl.nb);
    free(ds->rx.nl.x_ref);
    hg_pairs_clear(&ds->rx.pairs);
    free(ds->r);
    free(ds->rs);
    free(ds->x);
    free(ds->idx);
    gsl_rng_free(ds->rng);
}

static int dense_alloc(const hg_psd *psd, const hg_pack_params *prm,
                       dense_state *ds, hg_err *e)
{
    const int d = prm->dim;
    const size_t n = prm->n;
    memset(ds, 0, sizeof *ds);
    int st = pack_radii(psd, prm, &ds->r, &ds->A, e);
    if (st != HG_OK)
        return st;
    ds->rs = malloc(n * sizeof *ds->rs);
    ds->x = malloc(n * (size_t)d * sizeof *ds->x);
    ds->idx = malloc(n * sizeof *ds->idx);
    ds->rng = pack_rng(prm->seed);
    relax *rx = &ds->rx;
    st = hg_particles_alloc(&rx->p, d, n, e);
    rx->w = malloc(n * sizeof *rx->w);
    rx->nl.start = malloc((n + 1) * sizeof *rx->nl.start);
    rx->nl.x_ref = malloc(n * (size_t)d * sizeof *rx->nl.x_ref);
    if (st != HG_OK || !ds->rs || !ds->x || !ds->idx || !ds->rng || !rx->w ||
        !rx->nl.start || !rx->nl.x_ref)
        return hg_fail(e, HG_ENOMEM, "out of memory for %zu particles", n);
    for (int c = 0; c < d; c++) {
        rx->p.lo[c] = 0.0;
        rx->p.hi[c] = ds->A;
    }
    rx->p.periodic = prm->periodic;
    return HG_OK;
}

/* The starting positions into ds->x. 1. RSA at the target radii: wide
 * distributions get there directly; the few particles finding no free
 * spot are put where they overlap least, and relaxed. 2. When RSA stalls
 * (narrow distribution): an RSA packing of the radii scaled down to
 * start_nu (*nu0), then grown in *steps steps. p_rsa: each RSA's share
 * of the progress bar. */
static int start_positions(dense_state *ds, const hg_pack_params *prm,
                           const hg_pack_options *opt, double p_rsa,
                           double *nu0, int *steps, hg_err *e)
{
    const int d = prm->dim;
    const size_t n = prm->n;
    size_t placed = 0, tries;
    int stalled = 0;
    int st = pack_rsa_place(ds->r, n, d, ds->A, prm->periodic, ds->rng,
                            DENSE_RSA_ATTEMPTS, opt->max_dropped, opt, 2,
                            ds->x, ds->idx, &placed, &tries, &stalled, 0.0,
                            p_rsa, e);
    ds->attempts += tries;
    *nu0 = prm->nu;
    *steps = 0;
    if (st != HG_OK || !stalled)
        return st;
    *nu0 = opt->start_nu < prm->nu ? opt->start_nu : prm->nu;
    double scale0 = pow(*nu0 / prm->nu, 1.0 / d);
    for (size_t i = 0; i < n; i++)
        ds->rs[i] = ds->r[i] * scale0;
    st = pack_rsa_place(ds->rs, n, d, ds->A, prm->periodic, ds->rng,
                        DENSE_RSA_ATTEMPTS, opt->max_dropped, opt, 1, ds->x,
                        ds->idx, &placed, &tries, &stalled, p_rsa,
                        2.0 * p_rsa, e);
    ds->attempts += tries;
    if (st != HG_OK)
        return st;
    *steps = (int)ceil((prm->nu - *nu0) / opt->nu_step - 1e-9);
    if (*steps < 1)
        *steps = 1;
    return HG_OK;
}

/* The radii grown from nu0 to the target in steps steps (0: at the
 * target at once), relaxed at each (progress from pb on); a step that
 * cannot be relaxed stops the growth at the last step relaxed
 * (*jammed). *worst: the largest overlap; stage: the last step's name. */
static int grow_radii(dense_state *ds, const hg_pack_params *prm,
                      const hg_pack_options *opt, double nu0, int steps,
                      double pb, char *stage, size_t stage_len,
                      double *worst, int *jammed, hg_err *e)
{
    const int d = prm->dim;
    const size_t n = prm->n;
    relax *rx = &ds->rx;
    *jammed = 0;
    for (int k = 1; k <= steps || k == 1; k++) {
        double nuk = steps ? nu0 + (prm->nu - nu0) * k / steps : prm->nu;
        set_radii(rx, ds->r, ds->idx, pow(nuk / prm->nu, 1.0 / d));
        snprintf(stage, stage_len, "dense nu=%.3f", nuk);
        double span = steps ? (1.0 - pb) / steps : 1.0 - pb;
        double plo = pb + span * (k - 1);
        int st = relax_run(rx, opt->overlap_tol, opt->max_sweeps, opt, stage,
                           plo, plo + span, worst, e);
        if (st != HG_OK)
            return st;
        if (steps && *worst >= opt->overlap_tol && k > 1) {
            /* the target is out of reach: stop at the last step relaxed
             * (x holds its positions) and report the nu reached */
            double nuprev = nu0 + (prm->nu - nu0) * (k - 1) / steps;
            memcpy(rx->p.x, ds->x, n * (size_t)d * sizeof *ds->x);
            set_radii(rx, ds->r, ds->idx, pow(nuprev / prm->nu, 1.0 / d));
            *jammed = 1;
            break;
        }
        if (steps)
            memcpy(ds->x, rx->p.x, n * (size_t)d * sizeof *ds->x);
    }
    return HG_OK;
}

/* Gauss-Seidel moves pairs after measuring them: confirm with a fresh
 * search (*worst), relax again if a pair crept over the tolerance. */
static int confirm_overlaps(relax *rx, const hg_pack_options *opt,
                            const char *stage, double *worst, hg_err *e)
{
    int st;
    for (int round = 0;; round++) {
        st = hg_pack_max_overlap(&rx->p, worst, e);
        if (st != HG_OK || *worst < opt->overlap_tol || round == 5)
            break;
        double dummy;
        st = relax_run(rx, opt->overlap_tol, opt->max_sweeps, opt, stage,
                       1.0, 1.0, &dummy, e);
        if (st != HG_OK)
            break;
    }
    return st;
}

int hg_pack_dense_run(const hg_psd *psd, const hg_pack_params *prm,
                      const hg_pack_options *opt, hg_particles *out,
                      hg_pack_report *rep, hg_err *e)
{
    double t0 = hg_wall_seconds();
    hg_pack_options dflt;
    if (!opt) {
        hg_pack_options_init(&dflt);
        opt = &dflt;
    }
    memset(out, 0, sizeof *out);
    int st = hg_pack_params_check(prm, e);
    if (st == HG_OK)
        st = check_dense(psd, prm, opt, e);
    if (st != HG_OK)
        return st;
    const int d = prm->dim;
    const size_t n = prm->n;
    double worst = 0.0, nu0;
    int steps, jammed = 0;
    char stage[64];
    dense_state ds;
    const double p_rsa = 0.2; /* share of the progress bar */
    if ((st = dense_alloc(psd, prm, &ds, e)) ||
        (st = start_positions(&ds, prm, opt, p_rsa, &nu0, &steps, e)))
        goto done;
    memcpy(ds.rx.p.x, ds.x, n * (size_t)d * sizeof *ds.x);
    double pb = steps ? 2.0 * p_rsa : p_rsa;
    if ((st = grow_radii(&ds, prm, opt, nu0, steps, pb, stage, sizeof stage,
                         &worst, &jammed, e)) ||
        (st = confirm_overlaps(&ds.rx, opt, stage, &worst, e)))
        goto done;
    *out = ds.rx.p;
    memset(&ds.rx.p, 0, sizeof ds.rx.p);
    if (rep) {
        memset(rep, 0, sizeof *rep);
        rep->requested = n;
        rep->placed = n;
        rep->target_nu = prm->nu;
        rep->nu = hg_particles_packing_fraction(out);
        rep->max_overlap = worst;
        rep->reached = worst < opt->overlap_tol && !jammed;
        rep->attempts = ds.attempts;
        rep->sweeps = ds.rx.sweeps;
        rep->rebuilds = ds.rx.rebuilds;
        rep->seconds = hg_wall_seconds() - t0;
    }
    if (opt->progress)
        opt->progress("dense", 1.0, opt->progress_params);
done:
    dense_free(&ds);
    return st;
}

int hg_pack_dense(const hg_psd *psd, const hg_pack_params *prm,
                  hg_particles *out, hg_err *e)
{
    return hg_pack_dense_run(psd, prm, NULL, out, NULL, e);
}
