/* k_choice.c - which K (cost of one cell access in pair checks) a command
 * uses, and where it came from. Parameters follow the code they describe:
 * for MercuryDPM its stored calibration (`calibrate --engine mercurydpm`)
 * else the K fitted in MercuryDPM and shipped (hg_mercurydpm_K_shipped),
 * for the bundled HGrid this tool's own measurement. */
#include "hg_calib.h"
#include "hg_grid.h"
#include "hg_mercurydpm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The shipped default K of the bundled HGrid, in one place: the median of
 * 14 runs of `hgridopt calibrate --dim D` per dimension (defaults:
 * powerlaw:alpha=-3,omega=10, nu 0.3, N = 200000, 3 repeats per grid;
 * Release build, gcc 12, 7 runs with OpenMP on 2 threads and 7 with
 * OMP_NUM_THREADS=1, alternating 2D and 3D) on an otherwise idle 2-core
 * x86_64 Debian 12 machine, 2026-11-23, hgridopt 0.1.0 with the search
 * that tests a chunk's candidates in one loop in 2D. 2D: median 1.23,
 * quartiles 1.07-1.42, range 0.83-1.63 (two threads median 1.12, one
 * 1.41); 3D: median 0.81, quartiles 0.75-0.90, range 0.64-1.23. The same
 * day, 20 runs per dimension of calibrate timing its grids in rounds
 * (unchanged search) agreed: 2D median 1.28 (two threads 1.11, one 1.38),
 * 3D 0.79. With the pair loop that loads no id per pair check, 5 runs
 * on two threads the same day: 2D median 1.25, 3D 0.78. A 2D particle
 * makes 5 cell accesses for ~2 pair checks, so its fixed work per
 * particle weighs on K more than in 3D. The papers' 0.2 (KOL 2014; Ogarko
 * & Luding 2012: 0.2-0.45) was measured in a DEM code whose pair check is
 * its contact routine, far dearer than the bundled HGrid's distance
 * check. */
static const double shipped_K2 = 1.2, shipped_K3 = 0.8;
static const char shipped_where[] =
    "median of 14 runs of hgridopt calibrate, 2-core x86_64 Debian 12, "
    "2026-11-23";
/* 3D with the AVX2 pair loop (hg_grid_simd), which tests four candidates
 * at a time: the same 14 runs (7 on one thread, 7 on two, alternating) on
 * the same machine, 2026-11-26: median 2.14, quartiles 2.05-2.32, range
 * 1.80-2.45 (one thread median 2.06, two 2.22), where the scalar loop
 * gave 0.64-0.77 in three runs alternated with them. A pair check costs
 * less, a cell access the same. */
static const double shipped_K3_simd = 2.1;
static const char shipped_where_simd[] =
    "median of 14 runs of hgridopt calibrate with the AVX2 pair loop, "
    "2-core x86_64 Debian 12, 2026-11-26";

double hg_K_shipped(int dim, const char **where)
{
    const int simd = dim == 3 && hg_grid_simd(-1);
    if (where)
        *where = simd ? shipped_where_simd : shipped_where;
    if (dim == 3)
        return simd ? shipped_K3_simd : shipped_K3;
    return dim == 2 ? shipped_K2 : NAN;
}

/* The shipped C of the bundled HGrid, in one place. Measured 2026-11-26
 * on the 2-core AMD EPYC (Zen 3) VM, one thread, hgridopt 0.1.0, with
 * tests/bench_tables.sh: rebuild plus detection of one level and the
 * model's grids of 2-5 levels on RSA or Poisson packings of 30 000
 * particles of the eight systems of tests/bench_hgrid_tune.sh, 41
 * alternated repeats, paired medians. Least squares of time = a (T_cd +
 * K T_ca) + c T_tab + b per system: C = c / a = 0.36-0.85 on the four
 * systems where sparse tables matter, negative (below the noise) on the
 * other four. The measured time of the grid the model ranks cheapest over
 * the fastest measured, worst over the systems: 1.154 with C = 0, 1.088
 * with C = 0.25-0.75, 1.111 with C = 1. The case C decides: uniform radii
 * on [1, 10] in 2D, where C = 0 recommends a bottom-up grid whose fine
 * level has 8 cells per particle, measured 6-12 % slower than one level.
 * Both dimensions: 0.5. */
static const double shipped_C = 0.5;
static const char shipped_C_where[] =
    "fitted to rebuild + detection of 76 grids over 8 systems, 2-core "
    "x86_64 Debian 12, 2026-11-26";

double hg_C_shipped(int dim, const char **where)
{
    if (where)
        *where = shipped_C_where;
    return dim == 2 || dim == 3 ? shipped_C : NAN;
}

int hg_K_values_set(const hg_K_choice *c, hg_model_values *v, hg_err *e)
{
    int st = hg_model_values_set(v, "K", c->K, e);
    int own = c->source == HG_K_SOURCE_SHIPPED ||
              c->source == HG_K_SOURCE_CALIBRATION;
    if (st == HG_OK && c->target == HG_K_TARGET_HGRID && own)
        st = hg_model_values_set(v, "C", hg_C_shipped(c->dim, NULL), e);
    return st;
}

const char *hg_K_source_name(hg_K_source s)
{
    switch (s) {
    case HG_K_SOURCE_PAPER: return "paper";
    case HG_K_SOURCE_SHIPPED: return "shipped-default";
    case HG_K_SOURCE_CALIBRATION: return "calibration-file";
    case HG_K_SOURCE_SYSTEM_FILE: return "system-file";
    case HG_K_SOURCE_COMMAND_LINE: return "command-line";
    }
    return "?";
}

const char *hg_K_target_name(hg_K_target t)
{
    switch (t) {
    case HG_K_TARGET_HGRID: return "bundled HGrid";
    case HG_K_TARGET_MERCURYDPM: return "MercuryDPM";
    case HG_K_TARGET_LAMMPS: return "LAMMPS";
    }
    return "?";
}

hg_K_target hg_K_target_for_format(const char *format)
{
    if (format && !strcmp(format, "mercurydpm"))
        return HG_K_TARGET_MERCURYDPM;
    if (format && !strcmp(format, "lammps"))
        return HG_K_TARGET_LAMMPS;
    return HG_K_TARGET_HGRID;
}

char *hg_K_choice_describe(const hg_K_choice *c, char *buf, size_t len)
{
    if (buf && len)
        snprintf(buf, len, "%s, for %s%s: %s", hg_K_source_name(c->source),
                 c->target == HG_K_TARGET_HGRID ? "the " : "",
                 hg_K_target_name(c->target), c->detail);
    return buf;
}

static void set(hg_K_choice *o, double K, hg_K_source s, const char *fmt,
                const char *a, const char *b)
{
    o->K = K;
    o->source = s;
    snprintf(o->detail, sizeof o->detail, fmt, a ? a : "", b ? b : "");
}

static void paper(hg_K_choice *o, const char *why)
{
    set(o, HG_K_PAPER, HG_K_SOURCE_PAPER,
        "paper value (KOL 2014; Ogarko & Luding 2012 measured 0.2-0.45)%s%s",
        why, NULL);
}

static void shipped(hg_K_choice *o, const char *why)
{
    const char *where;
    char buf[400];
    if (o->target == HG_K_TARGET_MERCURYDPM) {
        double K = hg_mercurydpm_K_shipped(o->dim, &where);
        snprintf(buf, sizeof buf, "shipped default for MercuryDPM in %dD "
                 "(%s)%.150s", o->dim, where, why ? why : "");
        set(o, K, HG_K_SOURCE_SHIPPED, "%s%s", buf, NULL);
        return;
    }
    double K = hg_K_shipped(o->dim, &where);
    snprintf(buf, sizeof buf, "shipped default for the bundled HGrid in "
             "%dD (%s)%.200s", o->dim, where, why ? why : "");
    set(o, K, HG_K_SOURCE_SHIPPED, "%s%s", buf, NULL);
}

/* Prefix e's message with "--K auto: ". */
static int auto_fail(hg_err *e, int st)
{
    char msg[HG_ERRLEN];
    snprintf(msg, sizeof msg, "%s", e ? e->msg : "");
    return hg_fail(e, st, "--K auto: %s", msg);
}

static void from_calibration(hg_K_choice *o, const hg_calibration *c,
                             const char *path)
{
    char buf[512];
    snprintf(buf, sizeof buf, "calibration file %.200s, %dD, %s%s%.200s",
             path,
             c->dim, c->created[0] ? c->created : "undated",
             c->machine[0] ? ", " : "", c->machine);
    set(o, c->K, HG_K_SOURCE_CALIBRATION, "%s%s", buf, NULL);
}

int hg_K_resolve(const hg_K_request *rq, hg_K_choice *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    if (!rq)
        return hg_fail(e, HG_EINVAL, "K: NULL request");
    if (rq->dim != 2 && rq->dim != 3)
        return hg_fail(e, HG_EINVAL, "K: dim %d is not 2 or 3", rq->dim);
    if (rq->target != HG_K_TARGET_HGRID &&
        rq->target != HG_K_TARGET_MERCURYDPM &&
        rq->target != HG_K_TARGET_LAMMPS)
        return hg_fail(e, HG_EINVAL, "K: unknown target %d",
                       (int)rq->target);
    out->dim = rq->dim;
    out->target = rq->target;
    char path[4096];
    const char *cl = rq->command_line;
    int st;
    if (cl && !strcmp(cl, "paper")) {
        paper(out, ", --K paper");
        return HG_OK;
    }
    if (cl && !strcmp(cl, "shipped")) {
        shipped(out, ", --K shipped");
        return HG_OK;
    }
    if (cl && strcmp(cl, "auto")) {
        double K;
        if (hg_parse_double(cl, "--K", &K, NULL))
            return hg_fail(e, HG_EPARSE, "--K: '%s' is not a number, auto, "
                           "paper or shipped", cl);
        if (!(K > 0.0))
            return hg_fail(e, HG_EINVAL, "--K: %s must be > 0", cl);
        out->K = K;
        out->source = HG_K_SOURCE_COMMAND_LINE;
        snprintf(out->detail, sizeof out->detail, "--K %s", cl);
        return HG_OK;
    }
    if (!cl && rq->has_file_K) {
        if (!(isfinite(rq->file_K) && rq->file_K > 0.0))
            return hg_fail(e, HG_EINVAL, "K: %g from the system file must "
                           "be > 0", rq->file_K);
        out->K = rq->file_K;
        out->source = HG_K_SOURCE_SYSTEM_FILE;
        snprintf(out->detail, sizeof out->detail, "system file %s",
                 rq->file_path ? rq->file_path : "");
        return HG_OK;
    }
    /* the calibration file: required with --K auto, else when present
     * (MercuryDPM: its own file, written by calibrate --engine
     * mercurydpm) */
    if (rq->target == HG_K_TARGET_MERCURYDPM)
        st = hg_mercurydpm_calibration_path(path, sizeof path, e);
    else if (rq->calibration_path) {
        snprintf(path, sizeof path, "%s", rq->calibration_path);
        st = HG_OK;
    } else
        st = hg_calibration_default_path(path, sizeof path, e);
    if (st) {
        if (cl)
            return auto_fail(e, st);
        shipped(out, NULL);
        return HG_OK;
    }
    if (!cl && access(path, F_OK) != 0) {
        shipped(out, ", no calibration file");
        return HG_OK;
    }
    hg_calibration c;
    st = hg_calibration_load(path, rq->dim, &c, e);
    if (st == HG_OK) {
        from_calibration(out, &c, path);
        return HG_OK;
    }
    if (cl)
        return auto_fail(e, st);
    if (st == HG_EUNKNOWN) {
        char why[200];
        snprintf(why, sizeof why, "; %.150s has no %dD calibration", path,
                 rq->dim);
        shipped(out, why);
        return HG_OK;
    }
    return st;
}
