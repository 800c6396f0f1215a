/* engine.c - MercuryDPM as an engine: its HGrid is the one KOL 2014
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
#include "mercurydpm_engine.h"

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
    hg_mercurydpm_write_settings,
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
