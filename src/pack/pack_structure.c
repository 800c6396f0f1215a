/* pack_structure.c - a packing with the structure a cost model assumes:
 * Poisson centres, or hard spheres from the rsa or dense generator,
 * whichever reaches the packing fraction at the least cost. */
#include "pack_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fractions up to which random sequential addition (2000 attempts per
 * particle, the rsa default) places every particle even for equal spheres,
 * the hardest case (largest first, smaller particles fill the gaps):
 * measured at N = 10^5, it completes at 0.29 (3D) and 0.45 (2D); RSA of
 * equal spheres jams at about 0.38 (3D) and 0.547 (2D) in the limit of
 * infinitely many attempts. */
static double rsa_safe_nu(int dim)
{
    return dim == 3 ? 0.28 : 0.42;
}

/* Fractions the dense generator reaches by growing equal spheres (its
 * narrowest case) from an RSA start: measured at N = 2e4, 0.60 in 3D and
 * 0.80 in 2D in about a second; a step towards 0.63 (3D) or 0.86 (2D)
 * jams, which its jam detection finds only after ~50 s. Above these, dense
 * works only when its first stage, RSA at the target radii, does not stall
 * (wide distributions), and that is checked before running it. */
static double dense_grow_nu(int dim)
{
    return dim == 3 ? 0.60 : 0.80;
}

/* Attempts per particle of the check above: those of the dense generator's
 * first stage. */
#define PROBE_ATTEMPTS 200

int hg_pack_structure_choose(const hg_pack_params *prm, hg_structure s,
                             hg_pack_choice *c, hg_err *e)
{
    int st = hg_pack_params_check(prm, e);
    if (st != HG_OK)
        return st;
    memset(c, 0, sizeof *c);
    if (s == HG_STRUCTURE_POISSON) {
        c->generator = "poisson";
        snprintf(c->why, sizeof c->why,
                 "uniformly random centres, overlaps "
                 "allowed (the assumption of KOL 2014)");
    } else if (s != HG_STRUCTURE_HARD_SPHERES) {
        return hg_fail(e, HG_EINVAL, "structure: %d is not a known structure",
                       (int)s);
    } else if (prm->nu <= rsa_safe_nu(prm->dim)) {
        c->generator = "rsa";
        snprintf(c->why, sizeof c->why,
                 "hard spheres at nu = %g <= %g, where random sequential "
                 "addition places every particle, even equal spheres (%dD)",
                 prm->nu, rsa_safe_nu(prm->dim), prm->dim);
    } else if (prm->nu <= dense_grow_nu(prm->dim)) {
        c->generator = "dense";
        snprintf(c->why, sizeof c->why,
                 "hard spheres at nu = %g > %g, where random sequential "
                 "addition of equal spheres stalls; dense reaches up to %g "
                 "(%dD) for any distribution",
                 prm->nu, rsa_safe_nu(prm->dim), dense_grow_nu(prm->dim),
                 prm->dim);
    } else {
        c->generator = "dense";
        snprintf(c->why, sizeof c->why,
                 "hard spheres at nu = %g > %g, which dense reaches only when "
                 "random sequential addition of this distribution does not "
                 "stall (%dD)",
                 prm->nu, dense_grow_nu(prm->dim), prm->dim);
    }
    return HG_OK;
}

/* Whether random sequential addition at the target radii stalls (as the
 * dense generator's first stage would); *nu_stall: fraction placed. */
static int rsa_stalls(const hg_psd *psd, const hg_pack_params *prm,
                      const hg_pack_options *opt, int *stalled,
                      double *nu_stall, hg_err *e)
{
    pack_rsa_run run;
    int st = pack_rsa_run_do(psd, prm, opt, PROBE_ATTEMPTS, 0.2, &run, e);
    if (st == HG_OK) {
        double v = 0.0;
        for (size_t k = 0; k < run.placed; k++)
            v += pow(run.r[run.idx[k]], prm->dim);
        *stalled = run.stalled;
        *nu_stall = hg_unit_ball_volume(prm->dim) * v / pow(run.A, prm->dim);
    }
    pack_rsa_run_free(&run);
    return st;
}

static int beyond_reach(const hg_pack_params *prm, const char *what,
                        double nu_reached, hg_err *e)
{
    return hg_fail(e, HG_ELIMIT,
                   "nu: %g is beyond what the packing generators reach for "
                   "hard %s of this distribution: %s at nu = %.4g (dense "
                   "grows equal %s to about %g)",
                   prm->nu, prm->dim == 3 ? "spheres" : "disks", what,
                   nu_reached, prm->dim == 3 ? "spheres" : "disks",
                   dense_grow_nu(prm->dim));
}

int hg_pack_structure_run(const hg_psd *psd, const hg_pack_params *prm,
                          hg_structure s, const hg_pack_options *opt,
                          hg_particles *out, hg_pack_report *rep,
                          hg_pack_choice *c, hg_err *e)
{
    hg_pack_options dflt;
    hg_pack_report r0;
    if (!opt) {
        hg_pack_options_init(&dflt);
        opt = &dflt;
    }
    if (!rep)
        rep = &r0;
    memset(out, 0, sizeof *out);
    memset(rep, 0, sizeof *rep);
    int st = hg_pack_structure_choose(prm, s, c, e);
    if (st != HG_OK)
        return st;
    if (!psd)
        return hg_fail(e, HG_EINVAL, "distribution: NULL");
    if (!strcmp(c->generator, "poisson")) {
        double t0 = hg_wall_seconds();
        if ((st = hg_pack_poisson(psd, prm, out, e)))
            return st;
        rep->requested = rep->placed = prm->n;
        rep->target_nu = prm->nu;
        rep->nu = hg_particles_packing_fraction(out);
        rep->reached = 1;
        rep->seconds = hg_wall_seconds() - t0;
        return HG_OK;
    }
    if (!strcmp(c->generator, "rsa")) {
        if ((st = hg_pack_rsa_run(psd, prm, opt, out, rep, e)))
            return st;
        if (rep->reached)
            return HG_OK;
        /* an unusual distribution stalled RSA early: grow instead */
        double nu_rsa = rep->nu;
        hg_particles_clear(out);
        c->generator = "dense";
        snprintf(c->why, sizeof c->why,
                 "hard spheres at nu = %g: random sequential addition "
                 "stalled at nu = %.4g, dense grows to it",
                 prm->nu, nu_rsa);
    } else if (prm->nu > dense_grow_nu(prm->dim)) {
        int stalled = 0;
        double nu_stall = 0.0;
        if ((st = rsa_stalls(psd, prm, opt, &stalled, &nu_stall, e)))
            return st;
        if (stalled)
            return beyond_reach(prm, "random sequential addition stalls",
                                nu_stall, e);
    }
    if ((st = hg_pack_dense_run(psd, prm, opt, out, rep, e)))
        return st;
    if (!rep->reached) {
        double nu = rep->nu, ov = rep->max_overlap;
        hg_particles_clear(out);
        if (nu < prm->nu * (1.0 - 1e-9))
            return beyond_reach(prm, "dense jammed", nu, e);
        return hg_fail(e, HG_ELIMIT,
                       "nu: %g: the dense generator left overlaps of %.3g "
                       "of the smaller radius (tolerance %g) within its "
                       "sweep limit",
                       prm->nu, ov, opt->overlap_tol);
    }
    return HG_OK;
}
