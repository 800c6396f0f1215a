/* whole_run.c - whole-run advice (hg_whole_run.h), first half: the run
 * read once for its frames' steps, atoms and motion and its largest
 * frame, the settings and skins to price, then read again to price every
 * frame (or every k-th of a long one) with the engine's model. The
 * choice is in whole_run_choose.c. */
#include "hg_engine.h"
#include "whole_run_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Skins tried when the skin is chosen. */
#define N_SKINS 40
#define SKIN_DMIN_MAX 8.0 /* the largest skin priced, in smallest diameters */

void run_note(hg_run_advice *a, const char *fmt, ...)
{
    if (a->n_notes >= HG_RUN_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->notes[a->n_notes++], sizeof a->notes[0], fmt, ap);
    va_end(ap);
}

void hg_run_advice_clear(hg_run_advice *a)
{
    if (!a)
        return;
    free(a->lines);
    free(a->own_lines);
    for (int i = 0; i < a->n_segments; i++)
        free(a->segments[i].lines);
    memset(a, 0, sizeof *a);
}

static void run_data_free(run_data *d)
{
    free(d->frames);
    free(d->priced);
    free(d->neigh);
    free(d->pair);
    free(d->contacts);
    memset(d, 0, sizeof *d);
}

/* Open paths[i] (the first) or go on with it. The trajectory's errors,
 * here and while its frames are read, are the data's (as a --packing
 * file's are). */
static int open_file(const hg_run_input *in, int i, hg_io_frames **t,
                     hg_err *e)
{
    int st = i == 0 ? hg_io_frames_open(in->paths[0], &in->io, t, e)
                    : hg_io_frames_continue(*t, in->paths[i], &in->io, e);
    return st ? hg_err_data(e, st) : HG_OK;
}

/* The largest frame, kept while the run is read: its box, centres and
 * radii (in full precision: the settings weighed are found on it as on
 * the same frame given as --packing). */
typedef struct rep_frame {
    hg_particles box; /* n, dim, box, boundary; no arrays */
    double *xr;       /* x, y, z, r of each atom */
} rep_frame;

static int rep_keep(const hg_particles *p, rep_frame *r, hg_err *e)
{
    double *xr = realloc(r->xr, sizeof *xr * 4 * (p->n ? p->n : 1));
    if (!xr)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    r->xr = xr;
    r->box = *p;
    r->box.x = r->box.r = NULL;
    for (size_t i = 0; i < p->n; i++) {
        for (int a = 0; a < 3; a++)
            xr[4 * i + a] = a < p->dim ? p->x[i * p->dim + a] : 0.0;
        xr[4 * i + 3] = p->r[i];
    }
    return HG_OK;
}

/* r as particles (out's arrays freed by hg_particles_clear). */
static int rep_particles(const rep_frame *r, hg_particles *out, hg_err *e)
{
    *out = r->box;
    size_t n = r->box.n ? r->box.n : 1;
    int d = r->box.dim;
    out->x = malloc(sizeof *out->x * (size_t)d * n);
    out->r = malloc(sizeof *out->r * n);
    if (!out->x || !out->r) {
        free(out->x);
        free(out->r);
        memset(out, 0, sizeof *out);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < r->box.n; i++) {
        for (int a = 0; a < d; a++)
            out->x[i * (size_t)d + a] = r->xr[4 * i + a];
        out->r[i] = r->xr[4 * i + 3];
    }
    return HG_OK;
}

/* The motion of frame f per step into fr: its displacements, or, when
 * both frames have speeds and the timestep is known, the mean of their
 * largest speeds times the timestep where that is over 1.5x the
 * displacements (frames far apart: the fastest atoms turned between
 * them). On LAMMPS' pour, drum and flatwall runs with frames 10-100 steps
 * apart the displacements gave builds 2-19 % above LAMMPS' count and the
 * speeds 3-32 %; with frames 2500 steps apart the displacements 37 %
 * below it and the speeds 17 % above.
 * Displacements no speed explains (the largest above 4x the largest speed
 * times the timestep; without speeds, above 10x the motion of the
 * frames before and after: motion()) mean the ids were renumbered
 * (LAMMPS' delete_atoms compresses them): the speeds stand for them,
 * else the frames around. */
static void motion_of(const hg_run_input *in, const hg_io_frame *f,
                      double vprev, run_frame *fr, int *from_speed)
{
    double u = f->max_step_displacement;
    int speeds = in->timestep > 0.0 && isfinite(f->max_speed) &&
                 isfinite(vprev);
    double uv = speeds ? in->timestep * 0.5 * (f->max_speed + vprev) : NAN;
    fr->renumbered = speeds && isfinite(u) &&
                     u > 4.0 * in->timestep * fmax(f->max_speed, vprev);
    if (fr->renumbered)
        u = uv; /* NAN without speeds: the frames around decide */
    else if (speeds && !(1.5 * u >= uv)) {
        u = uv;
        *from_speed = 1;
    }
    fr->u = u;
}

/* Pass 1: every frame's step, atoms and motion; the diameters; the
 * largest frame (the last of the largest) into rep. */
static int scan(const hg_run_input *in, run_data *d, rep_frame *rep,
                hg_run_advice *a, hg_err *e)
{
    hg_io_frames *t = NULL;
    size_t cap = 0;
    int st = HG_OK;
    double rmin = INFINITY, rmax = 0.0, vprev = NAN;
    for (int i = 0; st == HG_OK && i < in->n_paths; i++) {
        if ((st = open_file(in, i, &t, e)))
            break;
        hg_io_frame f;
        int r;
        while ((r = hg_io_frames_next(t, &f, e)) == 1) {
            if (d->nf == cap) {
                cap = cap ? 2 * cap : 256;
                run_frame *nfr = realloc(d->frames, sizeof *nfr * cap);
                if (!nfr) {
                    st = hg_fail(e, HG_ENOMEM, "out of memory");
                    break;
                }
                d->frames = nfr;
            }
            if (f.step < 0) {
                st = hg_fail_data(e, HG_EINVAL, "--trajectory: '%s' frame %zu "
                             "has no ITEM: TIMESTEP; the steps between "
                             "frames are needed", in->paths[i], f.index);
                break;
            }
            if (d->nf && f.step <= d->frames[d->nf - 1].step) {
                st = hg_fail_data(e, HG_EINVAL, "--trajectory: '%s' frame %zu is "
                             "step %lld after step %lld; give the files of "
                             "one run in the order they were written",
                             in->paths[i], f.index, f.step,
                             d->frames[d->nf - 1].step);
                break;
            }
            run_frame *fr = &d->frames[d->nf++];
            fr->step = f.step;
            fr->n = f.p->n;
            fr->vmax = f.max_speed;
            motion_of(in, &f, vprev, fr, &a->motion_from_speed);
            vprev = f.max_speed;
            a->has_velocities |= f.v != NULL;
            a->dim = f.p->dim;
            for (size_t k = 0; k < f.p->n; k++) {
                rmin = fmin(rmin, f.p->r[k]);
                rmax = fmax(rmax, f.p->r[k]);
            }
            if (f.p->n && f.p->n >= rep->box.n)
                st = rep_keep(f.p, rep, e);
            if (st)
                break;
            if (in->progress)
                in->progress("reading the frames",
                             (i + 0.5) / in->n_paths, in->progress_params);
        }
        if (r < 0)
            st = hg_err_data(e, r);
    }
    hg_io_frames_free(t);
    if (st)
        return st;
    if (d->nf < 2)
        return hg_fail_data(e, HG_EINVAL, "--trajectory: %zu frame%s; the motion "
                       "between frames decides the builds, so give a dump "
                       "of several frames", d->nf, d->nf == 1 ? "" : "s");
    if (!(rmax > 0.0))
        return hg_fail_data(e, HG_EINVAL, "--trajectory: no frame has atoms");
    a->dmin = 2.0 * rmin;
    a->dmax = 2.0 * rmax;
    return HG_OK;
}

/* The run's motion: every interval measured, the largest, the gaps. */
static int motion(const hg_run_input *in, run_data *d, hg_run_advice *a,
                  hg_err *e)
{
    a->frames = d->nf;
    a->first_step = d->frames[0].step;
    a->last_step = d->frames[d->nf - 1].step;
    size_t unknown = 0, first_unknown = 0, renumbered = 0, first_ren = 0;
    for (size_t i = 1; i < d->nf; i++) { /* without speeds: a spike */
        run_frame *f = &d->frames[i];
        double lo = i > 1 ? d->frames[i - 1].u : NAN;
        double hi = i + 1 < d->nf ? d->frames[i + 1].u : NAN;
        double around = fmax(isfinite(lo) ? lo : 0.0, isfinite(hi) ? hi : 0.0);
        if (!f->renumbered && isfinite(f->u) &&
            !(in->timestep > 0.0 && isfinite(f->vmax)) &&
            around > 0.0 && f->u > 10.0 * around) {
            f->renumbered = 1;
            f->u = NAN;
        }
    }
    for (size_t i = 1; i < d->nf; i++) { /* renumbered ids without speeds:
                                            the motion of the frames around */
        run_frame *f = &d->frames[i];
        if (f->renumbered && !renumbered++)
            first_ren = i;
        if (f->renumbered && !isfinite(f->u))
            for (size_t k = 1; k < d->nf; k++) {
                size_t lo = i > k ? i - k : 0, hi = i + k;
                if (lo >= 1 && !d->frames[lo].renumbered &&
                    isfinite(d->frames[lo].u)) {
                    f->u = d->frames[lo].u;
                    break;
                }
                if (hi < d->nf && !d->frames[hi].renumbered &&
                    isfinite(d->frames[hi].u)) {
                    f->u = d->frames[hi].u;
                    break;
                }
                if (lo < 1 && hi >= d->nf)
                    break;
            }
    }
    if (renumbered)
        run_note(a, "atom ids were renumbered between %zu pair%s of frames "
                "(first between steps %lld and %lld; LAMMPS' delete_atoms "
                "renumbers them unless compress no): there the motion is "
                "taken from %s",
             renumbered, renumbered == 1 ? "" : "s",
             d->frames[first_ren - 1].step, d->frames[first_ren].step,
             in->timestep > 0.0 && a->has_velocities
                 ? "the speeds times the timestep"
                 : "the frames around (give vx vy vz and --timestep)");
    for (size_t i = 1; i < d->nf; i++) {
        run_frame *f = &d->frames[i];
        long long gap = f->step - d->frames[i - 1].step;
        a->max_gap = gap > a->max_gap ? gap : a->max_gap;
        a->max_atoms = f->n > a->max_atoms ? f->n : a->max_atoms;
        if (!isfinite(f->u)) {
            /* no atom in both frames (a pour before its first atoms):
             * nothing moves that a list holds */
            if (f->n && d->frames[i - 1].n && !unknown++)
                first_unknown = i;
            f->u = 0.0;
        }
        if (f->u > a->max_motion) {
            a->max_motion = f->u;
            a->max_motion_step = f->step;
        }
    }
    a->max_atoms = d->frames[0].n > a->max_atoms ? d->frames[0].n
                                                 : a->max_atoms;
    if (unknown)
        return hg_fail_data(e, HG_EINVAL, "--trajectory: the motion between "
                       "frames %zu and %zu (steps %lld and %lld) cannot be "
                       "measured: the dump needs an id column (and vx vy vz "
                       "with --timestep for frames far apart)",
                       first_unknown, first_unknown + 1,
                       d->frames[first_unknown - 1].step,
                       d->frames[first_unknown].step);
    if (!(a->max_motion > 0.0))
        return hg_fail_data(e, HG_EINVAL, "--trajectory: no atom moves between "
                       "frames; a run without motion needs one build");
    if (a->has_velocities && !(in->timestep > 0.0))
        run_note(a, "the dump has velocities; give --timestep DT (the input's "
                "timestep) to count the motion between frames far apart "
                "from the speeds");
    return HG_OK;
}

/* The skins priced: the one given, else N_SKINS geometric ones from 4x
 * the largest motion per step (or 1/50 of the smallest diameter) up to
 * the largest diameter, at most 8 smallest diameters (at least 4x the
 * lowest), and the user's. Beyond 8 smallest diameters every small atom
 * lists hundreds of pairs: no run gains by it, and the many-ranks model,
 * which finds every pair at the largest skin, found 25 million in LAMMPS'
 * multi/in.powerlaw (diameters 1-164) and took 12 s an advice. */
static void skins(const hg_run_input *in, double own, hg_run_advice *a)
{
    a->skin_min = 4.0 * a->max_motion;
    if (in->skin > 0.0) {
        a->skins[0] = in->skin;
        a->n_skins = 1;
        return;
    }
    double lo = fmax(a->skin_min, 0.02 * a->dmin);
    double hi = fmax(fmin(a->dmax, SKIN_DMIN_MAX * a->dmin), 4.0 * lo);
    int n = 0;
    for (int j = 0; j < N_SKINS; j++) {
        /* two significant digits (a skin to type), at least lo */
        double s = lo * pow(hi / lo, (double)j / (N_SKINS - 1));
        double p = pow(10.0, floor(log10(s)) - 1.0);
        s = ceil(s / p * (1.0 - 1e-12)) * p;
        if (n == 0 || s > a->skins[n - 1] * (1.0 + 1e-9))
            a->skins[n++] = s;
    }
    if (own > 0.0 && n < HG_RUN_MAX_SKINS)
        a->skins[n++] = own;
    a->n_skins = n;
}

/* lines read by the engine as a setting and skin; an error says whose
 * lines they are: the log's (log, its path) or --setting's (NULL). */
static int parse_lines(const hg_run_hooks *h, const char *lines,
                       const char *log, double dmax, hg_run_setting *s,
                       double *skin, hg_err *e)
{
    int st = h->parse(lines, dmax, s, skin, e);
    if (!st)
        return HG_OK;
    if (log)
        return hg_fail_data(e, st, "--log: the lines of '%s': %s", log,
                            e->msg);
    return hg_fail(e, st, "--setting: %s", e->msg);
}

/* LAMMPS sizes its cutoff by the largest diameter an atom may have
 * (fix pour: the top of its range), which the frames' largest may miss
 * by a little; bins sized to the frames' are then short of LAMMPS'
 * cutoff, and its stencil grows (LAMMPS' 2D pour on 2 ranks: the frames'
 * 0.999 against 1.0, bins of 1.219 under a cutoff of 1.22, Neigh per
 * build twice). With the log's cutoff at your skin, the largest diameter
 * is at least the cutoff less the skin. */
static int log_cutoff(hg_run_advice *a, double own)
{
    if (!a->has_log || !(a->log.cutoff > 0.0) || !(own > 0.0))
        return 0;
    double d = a->log.cutoff - own;
    if (d > a->dmax * (1.0 + 1e-9) && d < 1.5 * a->dmax) {
        run_note(a, "your log's neighbor cutoff %.6g at skin %.6g: the "
                    "largest diameter taken as %.6g (the frames' largest "
                    "is %.6g), so that bins match LAMMPS' cutoff",
                 a->log.cutoff, own, d, a->dmax);
        a->dmax = d;
        return 1;
    }
    return 0;
}

/* The user's setting (--setting), else bin at --skin, else LAMMPS'
 * default for units lj when it fits the sizes. */
static int own_setting(const hg_run_input *in, const hg_run_hooks *h,
                       hg_run_advice *a, double *own, hg_err *e)
{
    *own = 0.0;
    if (in->setting) {
        int st = parse_lines(h, in->setting, a->has_log ? in->log : NULL,
                             a->dmax, &a->own_setting, own, e);
        if (st)
            return st;
        if (in->skin > 0.0 && fabs(*own - in->skin) > 1e-12 * in->skin)
            return hg_fail(e, HG_EINVAL, "--skin: %g differs from the skin "
                           "%g of --setting; give one of them", in->skin,
                           *own);
        snprintf(a->own_why, sizeof a->own_why, "%s",
                 a->has_log ? "your log" : "--setting");
    } else if (in->skin > 0.0) {
        *own = in->skin;
        snprintf(a->own_setting.name, sizeof a->own_setting.name, "bin");
        snprintf(a->own_why, sizeof a->own_why,
                 "the code's default style at --skin");
    } else if (0.3 >= 0.01 * a->dmin && 0.3 <= 2.0 * a->dmax) {
        *own = 0.3;
        snprintf(a->own_setting.name, sizeof a->own_setting.name, "bin");
        snprintf(a->own_why, sizeof a->own_why,
                 "assumed: LAMMPS' default for units lj; give --setting");
    } else {
        run_note(a, "no own setting to compare with: give --setting \"LINES\" "
                "(your input's neighbor lines)");
        return HG_OK;
    }
    a->has_own = 1;
    return HG_OK;
}

static int near_equal(double x, double y)
{
    return fabs(x - y) <= 1e-9 * (fabs(x) + fabs(y));
}

/* The same style, bins and collections (names aside). */
static int same_setting(const hg_run_setting *a, const hg_run_setting *b)
{
    int same = a->ncoll == b->ncoll && near_equal(a->binsize, b->binsize) &&
               near_equal(a->bin_factor, b->bin_factor);
    for (int i = 0; same && i < a->ncoll; i++)
        same = near_equal(a->cut[i], b->cut[i]);
    return same;
}

/* The settings priced: the engine's candidates and the user's. */
static int settings(const hg_run_input *in, const hg_run_hooks *h,
                    const hg_particles *rep, double own, hg_run_advice *a,
                    hg_err *e)
{
    if (in->own_only) { /* check_input: with the user's lines */
        a->candidates[0] = a->own_setting;
        a->n_candidates = 1;
        a->own.candidate = 0;
        return HG_OK;
    }
    double ref = in->skin > 0.0 ? in->skin : own > 0.0 ? own
                                                       : 0.1 * a->dmin;
    int n = h->candidates(rep, a->dmax, ref, &a->build, a->candidates,
                          HG_RUN_MAX_CANDIDATES - 1, e);
    if (n < 0) {
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "%s", e->msg);
        return hg_fail_data(e, -n, "--trajectory: the largest frame at skin "
                            "%g: %s", ref, msg);
    }
    if (in->multi_only) { /* bin dropped: the run cannot go back to it */
        int m = 0;
        for (int k = 0; k < n; k++)
            if (a->candidates[k].ncoll > 0)
                a->candidates[m++] = a->candidates[k];
        n = m;
    }
    a->n_candidates = n;
    if (!a->has_own)
        return HG_OK;
    for (int k = 0; k < n; k++) {
        if (same_setting(&a->candidates[k], &a->own_setting)) {
            a->own.candidate = k;
            return HG_OK;
        }
    }
    a->own.candidate = a->n_candidates;
    a->candidates[a->n_candidates] = a->own_setting;
    snprintf(a->candidates[a->n_candidates].name,
             sizeof a->candidates[0].name, "your setting: %.70s",
             a->own_setting.name);
    a->n_candidates++;
    return HG_OK;
}

/* Pass 2: the frames priced (every stride-th and the last), each
 * candidate at each skin. */
static int price(const hg_run_input *in, const hg_run_hooks *h, run_data *d,
                 run_ranks *rr, hg_run_advice *a, hg_err *e)
{
    size_t maxf = in->max_frames > 0 ? (size_t)in->max_frames : 500;
    size_t stride = (d->nf + maxf - 1) / maxf;
    stride = stride ? stride : 1;
    d->K = a->n_candidates;
    d->S = a->n_skins;
    size_t np = (d->nf - 1) / stride + 1 + ((d->nf - 1) % stride != 0);
    d->priced = malloc(sizeof *d->priced * np);
    d->neigh = calloc(np * (size_t)d->K * (size_t)d->S, sizeof *d->neigh);
    d->pair = calloc(np * (size_t)d->S, sizeof *d->pair);
    d->contacts = h->frame_contacts ? malloc(sizeof *d->contacts * np)
                                    : NULL;
    if (!d->priced || !d->neigh || !d->pair ||
        (h->frame_contacts && !d->contacts))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_io_frames *t = NULL;
    int st = HG_OK;
    size_t idx = 0;
    for (int i = 0; st == HG_OK && i < in->n_paths; i++) {
        if ((st = open_file(in, i, &t, e)))
            break;
        hg_io_frames_no_motion(t); /* read in the first pass */
        hg_io_frame f;
        int r;
        while (st == HG_OK && (r = hg_io_frames_next(t, &f, e)) == 1) {
            size_t fi = idx++;
            if (fi >= d->nf) {
                st = hg_fail_data(e, HG_EINVAL, "--trajectory: '%s' has more "
                                  "frames than when it was first read (is it "
                                  "still being written?)", in->paths[i]);
                break;
            }
            if (fi % stride && fi != d->nf - 1)
                continue;
            size_t m = d->np++;
            d->priced[m] = fi;
            struct hg_run_frame *fr = NULL;
            st = h->frame_open(f.p, a->dmax, &fr, e);
            if (st == HG_OK && d->contacts)
                d->contacts[m] = fr ? h->frame_contacts(fr) : 0.0;
            int kf = -1, jf = -1; /* the setting and skin that failed */
            for (int k = 0; st == HG_OK && fr && k < d->K; k++)
                for (int j = 0; st == HG_OK && j < d->S; j++) {
                    double pr, *nb = &d->neigh[(m * d->K + k) * d->S + j];
                    st = h->frame_cost(fr, &a->candidates[k], a->skins[j],
                                       &a->build, &a->pair, nb, &pr, e);
                    if (st == HG_OK && !(isfinite(*nb) && *nb >= 0.0 &&
                                         isfinite(pr) && pr >= 0.0))
                        st = hg_fail(e, HG_ENUMERIC, "the model gives Neigh "
                                     "%g s per build and Pair %g s per step",
                                     *nb, pr);
                    if (st) {
                        kf = k;
                        jf = j;
                    }
                    if (k == 0)
                        d->pair[m * d->S + j] = pr;
                }
            h->frame_free(fr);
            if (st == HG_OK && rr)
                st = run_ranks_frame(rr, a, f.p, m, d->frames[fi].u,
                                     &d->neigh[(m * d->K) * d->S],
                                     &d->pair[m * d->S], e);
            if (st) {
                char msg[sizeof e->msg], at[200] = "";
                snprintf(msg, sizeof msg, "%s", e->msg);
                if (kf >= 0)
                    snprintf(at, sizeof at, ", %s at skin %.4g",
                             a->candidates[kf].name, a->skins[jf]);
                st = hg_fail_data(e, st, "--trajectory: frame %zu (step "
                                  "%lld)%s: %s", fi + 1, d->frames[fi].step,
                                  at, msg);
            }
            if (in->progress)
                in->progress("pricing the frames", (double)(fi + 1) / d->nf,
                             in->progress_params);
        }
        if (st == HG_OK && r < 0)
            st = hg_err_data(e, r);
    }
    hg_io_frames_free(t);
    a->measured = d->np;
    /* contacts known on every frame or on none (a frame of fewer than two
     * atoms has none) */
    for (size_t m = 0; d->contacts && m < d->np; m++)
        if (d->contacts[m] < 0.0) {
            if (d->frames[d->priced[m]].n < 2) {
                d->contacts[m] = 0.0;
            } else {
                free(d->contacts);
                d->contacts = NULL;
            }
        }
    if (st == HG_OK && stride > 1)
        run_note(a, "priced %zu of the %zu frames (one in %zu and the last; "
                "--max-frames N prices more)", d->np, d->nf, stride);
    return st;
}

/* The engine's constants, given or resolved, with their source. */
static int constants(const hg_run_input *in, const hg_engine *g,
                     hg_run_advice *a, hg_err *e)
{
    int st = HG_OK;
    if (in->build) {
        a->build = *in->build;
        snprintf(a->build_source, sizeof a->build_source, "given");
    } else {
        st = hg_engine_consts(g, a->dim, &a->build, a->build_source,
                              sizeof a->build_source, e);
    }
    if (st)
        return st;
    if (in->pair) {
        a->pair = *in->pair;
        snprintf(a->pair_source, sizeof a->pair_source, "given");
        return HG_OK;
    }
    int from_file = 0;
    char path[500];
    if ((st = hg_consts_auto(g->run->pair_kind, &a->pair, &from_file, path,
                             sizeof path, e)))
        return st;
    if (from_file)
        snprintf(a->pair_source, sizeof a->pair_source,
                 "stored calibration %s", path);
    else
        snprintf(a->pair_source, sizeof a->pair_source,
                 "shipped defaults (%s, %s)", a->pair.machine,
                 a->pair.created);
    return HG_OK;
}

/* --setting's lines x and the log's (at log) y read back as the same
 * setting and skin. */
static int same_lines(const hg_run_hooks *h, const char *x, const char *y,
                      const char *log, double dmax, hg_err *e)
{
    hg_run_setting a, b;
    double sa, sb;
    if (parse_lines(h, x, NULL, dmax, &a, &sa, e) ||
        parse_lines(h, y, log, dmax, &b, &sb, e))
        return -1;
    return near_equal(sa, sb) && same_setting(&a, &b);
}

/* The code's log of the run (--log): read and checked against the
 * engine and the options; the user's lines (own, cap bytes) and the
 * timestep taken from it. in is the caller's copy of the input. */
static int read_log(hg_run_input *in, const hg_run_hooks *h,
                    hg_run_advice *a, char *own, size_t cap, hg_err *e)
{
    if (!in->log)
        return HG_OK;
    hg_run_log *L = &a->log;
    int st = hg_run_log_read(in->log, L, e);
    if (st)
        return st;
    if (!h->log_code || strcmp(L->code, h->log_code))
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' is not a log of %s "
                            "(it begins with '%s'); give the log of the run "
                            "that wrote the trajectory", in->log,
                            h->log_code ? h->log_code : in->engine->name,
                            L->code);
    if (L->untimed)
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' line %lld: the run "
                            "has no Pair and Neigh rows (its timing table; "
                            "written with timer loop?): the model is scaled "
                            "to those times",
                            in->log, L->untimed_line);
    a->has_log = 1;
    /* without a units command: lj, the default of both codes */
    const char *units = *L->units ? L->units : "lj";
    double dskin = h->default_skin ? h->default_skin(units) : 0.0;
    if (!strncmp(L->lines, "neighbor ", 9)) {
        snprintf(own, cap, "%s", L->lines);
    } else if (in->setting) {
        snprintf(own, cap, "%s", in->setting);
        run_note(a, "your log echoes no neighbor command (written with "
                    "-echo none?): --setting is taken as the lines it ran "
                    "with");
    } else if (!L->echoed) {
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' echoes no commands "
                            "(written with -echo none?): give --setting "
                            "with the input's neighbor lines", in->log);
    } else if (dskin > 0.0) {
        snprintf(own, cap, "neighbor %g bin\n%s", dskin, L->lines);
        run_note(a, "your log echoes no neighbor command: %s's default for "
                    "units %s (neighbor %g bin) is taken as your lines",
                 L->code, units, dskin);
    } else {
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' echoes no neighbor "
                            "command and no default skin for units %s is "
                            "known: give --setting with the input's "
                            "neighbor lines", in->log, units);
    }
    if (in->setting && in->setting != own) {
        /* the frames are not read yet: both are read with a diameter
         * of 1, which the comparison does not depend on */
        int same = same_lines(h, in->setting, own, in->log, 1.0, e);
        if (same < 0)
            return e->status;
        if (!same)
            return hg_fail(e, HG_EINVAL, "--setting: '%s' is not what your "
                           "log ran ('%.*s'); its times are of its own lines: "
                           "give one of them", in->setting,
                           (int)strcspn(own, "\n"), own);
    }
    in->setting = own;
    if (L->timestep > 0.0) {
        if (in->timestep > 0.0 &&
            fabs(in->timestep - L->timestep) > 1e-6 * L->timestep)
            return hg_fail(e, HG_EINVAL, "--timestep: %g is not your log's "
                           "timestep %g", in->timestep, L->timestep);
        in->timestep = L->timestep;
    }
    if (L->lines_changed)
        run_note(a, "your log changes its neighbor lines after its first run: "
                "its times are of all its runs, compared with the first "
                "lines");
    if (L->procs > L->mpi)
        run_note(a, "your log's runs used %d procs (%d MPI ranks x "
                    "threads): its times are per rank, so the predictions "
                    "scaled to them are for as many threads",
                 L->procs, L->mpi);
    return HG_OK;
}

static int check_input(const hg_run_input *in, hg_err *e)
{
    if (!in->engine || !in->engine->run)
        return hg_fail(e, HG_EINVAL, "--engine: %s gives no whole-run "
                       "advice (lammps and liggghts do)",
                       in->engine ? in->engine->name : "(none)");
    if (in->n_paths < 1 || !in->paths)
        return hg_fail(e, HG_EINVAL, "--trajectory: no file given");
    if (!(in->skin >= 0.0) || !isfinite(in->skin))
        return hg_fail(e, HG_EINVAL, "--skin: %g must be > 0", in->skin);
    if (!(in->timestep >= 0.0) || !isfinite(in->timestep))
        return hg_fail(e, HG_EINVAL, "--timestep: %g must be > 0",
                       in->timestep);
    if (!(in->keep_margin < 1.0) || !isfinite(in->keep_margin))
        return hg_fail(e, HG_EINVAL, "keep margin: %g must be < 1",
                       in->keep_margin);
    if (in->own_only && !in->setting)
        return hg_fail(e, HG_EINVAL, "own lines only: no lines given to "
                       "price");
    return HG_OK;
}

int hg_run_advise(const hg_run_input *given, hg_run_advice *a, hg_err *e)
{
    memset(a, 0, sizeof *a);
    int st = check_input(given, e);
    if (st)
        return st;
    hg_run_input input = *given, *in = &input;
    char own_lines[sizeof a->log.lines + 64] = "";
    const hg_run_hooks *h = in->engine->run;
    a->files = in->n_paths;
    run_data d = {0};
    run_ranks rr = {0};
    int ranks = 0;
    rep_frame rf = {0};
    hg_particles rep = {0};
    double own = 0.0;
    if ((st = read_log(in, h, a, own_lines, sizeof own_lines, e)) == HG_OK &&
        (st = scan(in, &d, &rf, a, e)) == HG_OK &&
        (st = motion(in, &d, a, e)) == HG_OK &&
        (st = constants(in, in->engine, a, e)) == HG_OK &&
        (st = own_setting(in, h, a, &own, e)) == HG_OK &&
        (st = rep_particles(&rf, &rep, e)) == HG_OK) {
        /* your lines read again at the raised diameter: multi by atom
         * type is one collection of the largest diameter (LAMMPS' funnel:
         * 0.99979 in the frames, 1 by fix pour) */
        if (log_cutoff(a, own) && in->setting)
            st = own_setting(in, h, a, &own, e);
    }
    if (st == HG_OK) {
        free(rf.xr);
        rf.xr = NULL;
        skins(in, own, a);
        st = settings(in, h, &rep, own, a, e);
        if (in->mpi < 1)
            in->mpi = a->has_log && a->log.mpi > 0 ? a->log.mpi : 1;
        ranks = in->mpi > 1 || (a->has_log && a->log.mpi > 1);
        if (st == HG_OK && ranks)
            st = run_ranks_setup(in, &rep, d.nf, a, &rr, e);
        hg_particles_clear(&rep);
        if (st == HG_OK &&
            (st = price(in, h, &d, ranks ? &rr : NULL, a, e)) == HG_OK)
            st = ranks ? run_ranks_choose(in, &d, &rr, a, e)
                       : run_choose(in, &d, a, e);
    }
    free(rf.xr);
    if (st == HG_OK && a->has_own)
        st = h->lines(&a->own_setting, own, a->dmax, 0, &a->own_lines, e);
    if (st == HG_OK && a->best.steps_every_step > 0.0)
        run_note(a, "at the skin %.4g atoms move half of it in one step during "
                "%.0f steps: expect dangerous builds; a skin of %.3g or more "
                "avoids them",
             a->best.skin, a->best.steps_every_step, a->skin_min);
    if (st == HG_OK && a->sampling_change > 0.01)
        run_note(a, "with every other priced frame the answer's total moves "
                "%.2g %%: for an answer within 1 %%, write frames more often "
                "(or price more with --max-frames)",
             100.0 * a->sampling_change);
    hg_particles_clear(&rep);
    run_data_free(&d);
    run_ranks_free(&rr);
    if (st)
        hg_run_advice_clear(a);
    return st;
}
