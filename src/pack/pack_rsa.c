/* pack_rsa.c - random sequential addition, largest particles first, with
 * the bundled HGrid as the overlap test. */
#include "pack_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void hg_pack_options_init(hg_pack_options *o)
{
    memset(o, 0, sizeof *o);
    o->max_attempts = 2000;
    o->max_dropped = 50;
    o->overlap_tol = 0.01;
    o->start_nu = 0.25;
    o->nu_step = 0.05;
    o->max_sweeps = 20000;
}

gsl_rng *pack_rng(uint64_t seed)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (rng)
        gsl_rng_set(rng, (unsigned long)(seed * 0x9e3779b97f4a7c15ULL >> 11));
    return rng;
}

void pack_grid_sizes(double rmin, double rmax, size_t n, int dim, double A,
                     int *L, double *sizes)
{
    double cells = fmax(PACK_CELLS_PER_PARTICLE * (double)n, PACK_CELLS_MIN);
    double floor_s = A / pow(cells, 1.0 / dim);
    if (2.0 * rmin < floor_s)
        rmin = fmin(0.5 * floor_s, rmax);
    double omega = rmax / rmin;
    int nl = (int)ceil(log(omega) / log(2.0) - 1e-9);
    if (nl < 1)
        nl = 1;
    if (nl > 16)
        nl = 16;
    for (int h = 1; h <= nl; h++)
        sizes[h - 1] = 2.0 * rmin * pow(omega, (double)h / nl);
    sizes[nl - 1] = 2.0 * rmax;
    *L = nl;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

int pack_radii(const hg_psd *psd, const hg_pack_params *prm, double **r,
               double *edge, hg_err *e)
{
    *r = malloc(prm->n * sizeof **r);
    if (!*r)
        return hg_fail(e, HG_ENOMEM, "out of memory for %zu radii", prm->n);
    int st = hg_psd_sample_systematic(psd, prm->n, prm->seed, *r, e);
    if (st != HG_OK) {
        free(*r);
        *r = NULL;
        return st;
    }
    qsort(*r, prm->n, sizeof **r, cmp_desc);
    double vol = 0.0;
    for (size_t i = prm->n; i-- > 0;) /* small to large: less rounding */
        vol += pow((*r)[i], prm->dim);
    vol *= hg_unit_ball_volume(prm->dim);
    *edge = pow(vol / prm->nu, 1.0 / prm->dim);
    if (!prm->periodic && !(*edge > 2.0 * (*r)[0])) {
        hg_fail(e, HG_EINVAL,
                "n: %zu particles at nu = %g give a box of edge %g, too "
                "small for the largest diameter %g between walls",
                prm->n, prm->nu, *edge, 2.0 * (*r)[0]);
        free(*r);
        *r = NULL;
        return HG_EINVAL;
    }
    return HG_OK;
}

static int stop_at_first(size_t j, double dist, void *params)
{
    (void)j;
    (void)dist;
    (void)params;
    return 1;
}

/* Largest relative overlap of a trial sphere with the grid's spheres. */
typedef struct overlap_probe {
    const double *r;     /* radii by radius index */
    const size_t *idx;   /* grid index -> radius index */
    double ri, worst;
} overlap_probe;

static int measure_overlap(size_t j, double dist, void *params)
{
    overlap_probe *pb = params;
    double rj = pb->r[pb->idx[j]], rs = pb->ri < rj ? pb->ri : rj;
    double ov = (pb->ri + rj - dist) / rs;
    if (ov > pb->worst)
        pb->worst = ov;
    return 0;
}

/* Positions tried for a particle that has to be forced in: the one with
 * the smallest largest overlap wins. */
#define FORCE_TRIES 32

int pack_rsa_place(const double *r, size_t n, int dim, double A,
                   int periodic, gsl_rng *rng, size_t max_attempts,
                   size_t max_dropped, const hg_pack_options *opt, int force,
                   double *x, size_t *idx, size_t *placed, size_t *attempts,
                   int *stalled, double plo, double phi, hg_err *e)
{
    int L;
    double sizes[16];
    *placed = 0;
    *attempts = 0;
    *stalled = 0;
    if (n == 0)
        return HG_OK;
    pack_grid_sizes(r[n - 1], r[0], n, dim, A, &L, sizes);
    hg_grid *g = NULL;
    hg_particles empty = {0};
    int st = hg_grid_create(dim, L, sizes, HG_TOP_DOWN, &g, e);
    if (st != HG_OK)
        return st;
    st = hg_grid_set_storage(g, HG_GRID_DENSE, e);
    if (st != HG_OK)
        goto done;
    empty.dim = dim;
    for (int c = 0; c < dim; c++) {
        empty.lo[c] = 0.0;
        empty.hi[c] = A;
    }
    empty.periodic = periodic;
    st = hg_grid_build(g, &empty, e);
    if (st != HG_OK)
        goto done;

    size_t dropped_run = 0, step = n / 200 + 1;
    for (size_t i = 0; i < n; i++) {
        double lo = periodic ? 0.0 : r[i], span = periodic ? A : A - 2 * r[i];
        double pos[3];
        int ok = 0;
        for (size_t a = 0; a < max_attempts && !ok; a++) {
            for (int c = 0; c < dim; c++) {
                pos[c] = lo + span * gsl_rng_uniform(rng);
                if (periodic && pos[c] >= A)
                    pos[c] = 0.0;
                else if (!periodic)
                    pos[c] = pack_clamp_wall(pos[c], r[i], 0.0, A);
            }
            (*attempts)++;
            int q = hg_grid_query(g, pos, r[i], 0.0, stop_at_first, NULL, e);
            if (q < 0) {
                st = q;
                goto done;
            }
            ok = q == 0;
        }
        if (!ok && force != 1 && ++dropped_run >= max_dropped) {
            *stalled = 1;
            break;
        }
        if (!ok && !force)
            continue;
        if (ok)
            dropped_run = 0;
        if (!ok) {
            double best = INFINITY, cand[3];
            overlap_probe pb = {r, idx, r[i], 0.0};
            for (int a = 0; a < FORCE_TRIES; a++) {
                for (int c = 0; c < dim; c++) {
                    cand[c] = lo + span * gsl_rng_uniform(rng);
                    if (periodic && cand[c] >= A)
                        cand[c] = 0.0;
                    else if (!periodic)
                        cand[c] = pack_clamp_wall(cand[c], r[i], 0.0, A);
                }
                pb.worst = 0.0;
                st = hg_grid_query(g, cand, r[i], 0.0, measure_overlap, &pb,
                                   e);
                if (st != HG_OK)
                    goto done;
                if (pb.worst < best) {
                    best = pb.worst;
                    memcpy(pos, cand, sizeof cand);
                }
            }
            (*attempts) += FORCE_TRIES;
        }
        st = hg_grid_insert(g, pos, r[i], e);
        if (st != HG_OK)
            goto done;
        memcpy(x + *placed * (size_t)dim, pos, (size_t)dim * sizeof *pos);
        idx[*placed] = i;
        (*placed)++;
        if (opt->progress && i % step == 0)
            opt->progress("rsa", plo + (phi - plo) * (double)i / (double)n,
                          opt->progress_params);
    }
done:
    hg_grid_free(g);
    return st;
}

int hg_pack_rsa_run(const hg_psd *psd, const hg_pack_params *prm,
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
    if (st != HG_OK)
        return st;
    if (opt->max_attempts < 1 || opt->max_dropped < 1)
        return hg_fail(e, HG_EINVAL,
                       "rsa: max_attempts (%zu) and max_dropped (%zu) must "
                       "be >= 1",
                       opt->max_attempts, opt->max_dropped);
    pack_rsa_run run;
    const int d = prm->dim;
    st = pack_rsa_run_do(psd, prm, opt, opt->max_attempts, 1.0, &run, e);
    if (st != HG_OK)
        goto done;
    const size_t placed = run.placed;
    const double A = run.A;
    st = hg_particles_alloc(out, d, placed, e);
    if (st != HG_OK)
        goto done;
    memcpy(out->x, run.x, placed * (size_t)d * sizeof *run.x);
    for (size_t k = 0; k < placed; k++)
        out->r[k] = run.r[run.idx[k]];
    for (int c = 0; c < d; c++) {
        out->lo[c] = 0.0;
        out->hi[c] = A;
    }
    out->periodic = prm->periodic;
    if (rep) {
        memset(rep, 0, sizeof *rep);
        rep->requested = prm->n;
        rep->placed = placed;
        rep->target_nu = prm->nu;
        rep->nu = hg_particles_packing_fraction(out);
        rep->reached = placed == prm->n;
        rep->attempts = run.attempts;
        rep->seconds = hg_wall_seconds() - t0;
    }
    if (opt->progress)
        opt->progress("rsa", 1.0, opt->progress_params);
done:
    if (st != HG_OK)
        hg_particles_clear(out);
    pack_rsa_run_free(&run);
    return st;
}

int pack_rsa_run_do(const hg_psd *psd, const hg_pack_params *prm,
                    const hg_pack_options *opt, size_t max_attempts,
                    double phi, pack_rsa_run *run, hg_err *e)
{
    memset(run, 0, sizeof *run);
    int st = pack_radii(psd, prm, &run->r, &run->A, e);
    if (st != HG_OK)
        return st;
    run->x = malloc(prm->n * (size_t)prm->dim * sizeof *run->x);
    run->idx = malloc(prm->n * sizeof *run->idx);
    gsl_rng *rng = pack_rng(prm->seed);
    if (!run->x || !run->idx || !rng)
        st = hg_fail(e, HG_ENOMEM, "out of memory for %zu particles",
                     prm->n);
    else
        st = pack_rsa_place(run->r, prm->n, prm->dim, run->A, prm->periodic,
                            rng, max_attempts, opt->max_dropped, opt, 0,
                            run->x, run->idx, &run->placed, &run->attempts,
                            &run->stalled, 0.0, phi, e);
    gsl_rng_free(rng);
    return st;
}

void pack_rsa_run_free(pack_rsa_run *run)
{
    free(run->r);
    free(run->x);
    free(run->idx);
    memset(run, 0, sizeof *run);
}

int hg_pack_rsa(const hg_psd *psd, const hg_pack_params *prm,
                hg_particles *out, hg_err *e)
{
    return hg_pack_rsa_run(psd, prm, NULL, out, NULL, e);
}
