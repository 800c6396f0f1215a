/* k_choice.c - which K (cost of one cell access in pair checks) a command
 * uses, and where it came from: the command line, the system file, the
 * engine's calibration file, else the engine's shipped K (hg_engine_K:
 * the bundled HGrid's own measurement, the K fitted in MercuryDPM). */
#include "hg_calib.h"
#include "hg_engine.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int hg_K_values_set(const hg_K_choice *c, hg_model_values *v, hg_err *e)
{
    int st = hg_model_values_set(v, "K", c->K, e);
    int own = c->source == HG_K_SOURCE_SHIPPED ||
              c->source == HG_K_SOURCE_CALIBRATION;
    const hg_engine_K *k = c->engine ? c->engine->K : NULL;
    if (st == HG_OK && k && k->C && own)
        st = hg_model_values_set(v, "C", k->C(c->dim, NULL), e);
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

const char *hg_K_target(const hg_K_choice *c)
{
    return c->engine && c->engine->K ? c->engine->K->target : "?";
}

char *hg_K_target_phrase(const hg_K_choice *c, char *buf, size_t len)
{
    if (buf && len)
        snprintf(buf, len, "%s%s",
                 c->engine && c->engine->K ? c->engine->K->article : "",
                 hg_K_target(c));
    return buf;
}

char *hg_K_choice_describe(const hg_K_choice *c, char *buf, size_t len)
{
    char who[96];
    if (buf && len)
        snprintf(buf, len, "%s, for %s: %s", hg_K_source_name(c->source),
                 hg_K_target_phrase(c, who, sizeof who), c->detail);
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
    const hg_engine_K *k = o->engine->K;
    const char *where;
    char buf[400];
    double K = k->shipped(o->dim, &where);
    snprintf(buf, sizeof buf, "shipped default for %s in %dD (%s)%.200s",
             k->shipped_for, o->dim, where, why ? why : "");
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
    if (!rq->engine || !rq->engine->K)
        return hg_fail(e, HG_EINVAL, "K: engine %s has no K",
                       rq->engine ? rq->engine->name : "(none)");
    out->dim = rq->dim;
    out->engine = rq->engine;
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
    /* the engine's calibration file: required with --K auto, else when
     * present */
    if (rq->calibration_path) {
        snprintf(path, sizeof path, "%s", rq->calibration_path);
        st = HG_OK;
    } else
        st = rq->engine->K->calibration_path(path, sizeof path, e);
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
