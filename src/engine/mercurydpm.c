/* mercurydpm.c - MercuryDPM as an engine: its HGrid is the one KOL 2014
 * describe (the authors' code), so its models are hgrid-top-down and
 * hgrid-bottom-up with K resolved for MercuryDPM (hg_K_resolve, target
 * MercuryDPM: the stored `calibrate --engine mercurydpm` fit, else the K
 * fitted in MercuryDPM and shipped, hg_mercurydpm_K_shipped); its settings
 * are the C++ subclass of --format mercurydpm; validate, tune and
 * calibrate run MercuryDPM through a timing driver compiled against a
 * build folder (hg_mercurydpm.h). */
#include "hg_calib.h"
#include "hg_engine.h"
#include "hg_export.h"
#include "hg_mercurydpm.h"
#include "hg_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const models[] = {"hgrid-top-down", "hgrid-bottom-up",
                                     NULL};

static int constants(int dim, char *buf, size_t len, hg_err *e)
{
    hg_K_request rq = {HG_K_TARGET_MERCURYDPM, dim, NULL, 0, 0.0, NULL,
                       NULL};
    hg_K_choice c;
    int st = hg_K_resolve(&rq, &c, e);
    if (st)
        return st;
    snprintf(buf, len, "K = %g (%s: %s)", c.K, hg_K_source_name(c.source),
             c.detail);
    return HG_OK;
}

/* The export of the grid in: its work from the model at K = 0 (T_cd and
 * T_ca do not depend on K), K from the prediction made with it
 * (predicted = T_cd + K T_ca in pair checks), else MercuryDPM's K. */
static int write_settings(const hg_engine_settings *in, char **text,
                          hg_err *e)
{
    *text = NULL;
    if (!in || !in->psd || !in->sys || !in->sizes || in->levels < 1)
        return hg_fail(e, HG_EINVAL, "mercurydpm settings: no grid given");
    const hg_model *m = in->model ? hg_model_find(in->model) : NULL;
    if (!m || m->grid_algorithm == HG_GRID_NONE)
        m = hg_model_for_grid(in->algorithm == HG_BOTTOM_UP ? HG_BOTTOM_UP
                                                            : HG_TOP_DOWN);
    hg_model_values v;
    hg_work w;
    int st = hg_mercurydpm_values(&v, 1e-300, e);
    if (st == HG_OK)
        st = hg_cost_evaluate(m, in->psd, in->sys, &v, in->levels, in->sizes,
                              NULL, &w, e);
    if (st)
        return st;
    double K = NAN;
    if (isfinite(in->predicted) && w.T_ca > 0.0 &&
        in->predicted > w.T_cd && in->unit &&
        strstr(in->unit, "pair check"))
        K = (in->predicted - w.T_cd) / w.T_ca;
    char note[600];
    if (!(K > 0.0)) {
        hg_K_request rq = {HG_K_TARGET_MERCURYDPM, in->sys->dim, NULL, 0,
                           0.0, NULL, NULL};
        hg_K_choice c;
        if ((st = hg_K_resolve(&rq, &c, e)))
            return st;
        K = c.K;
        hg_K_choice_describe(&c, note, sizeof note);
    } else {
        snprintf(note, sizeof note, "%s",
                 in->constants ? in->constants : "the prediction given");
    }
    hg_export_input x;
    memset(&x, 0, sizeof x);
    x.psd = in->psd;
    x.sys = in->sys;
    x.algorithm = m->grid_algorithm;
    x.levels = in->levels;
    x.sizes = in->sizes;
    x.K = K;
    x.T_cd = w.T_cd;
    x.T_ca = w.T_ca;
    x.T = w.T_cd + K * w.T_ca;
    x.T_linked_cell = NAN;
    x.name = in->name;
    x.unit = in->length_unit;
    x.K_note = note;
    return hg_export_mercurydpm(&x, text, e);
}

const hg_engine hg_engine_mercurydpm = {
    "mercurydpm",
    "MercuryDPM's HGrid (the KOL 2014 model, K fitted in MercuryDPM; "
    "validate, calibrate and tune --engine mercurydpm compile a timing "
    "driver against a MercuryDPM build: --program DIR or "
    "$HG_MERCURYDPM_DIR)",
    models,
    "mercurydpm",
    constants,
    0,
    NULL,
    write_settings,
    hg_mercurydpm_validate,
    hg_mercurydpm_tune,
    hg_mercurydpm_calibrate,
    NULL,
    /* one setting's time per step moved by +-30 % between runs on the
     * development machine while the ranks of 41 alternating runs of 2
     * steps agreed between two measurements */
    2,
    1,
    41,
    "whole=0",
};
