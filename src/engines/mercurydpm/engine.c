/* engine.c - MercuryDPM as an engine: its HGrid is the one KOL 2014
 * describe (the authors' code), so its models are hgrid-top-down and
 * hgrid-bottom-up with MercuryDPM's K (the stored `calibrate --engine
 * mercurydpm` fit, else the K fitted in MercuryDPM and shipped,
 * hg_mercurydpm_K_shipped); its settings
 * are the C++ subclass of --format mercurydpm; validate, tune and
 * calibrate run MercuryDPM through a timing driver compiled against a
 * build folder (hg_mercurydpm.h). */
#include "hg_engine.h"
#include "hg_mercurydpm.h"
#include "mercurydpm_engine.h"

static const char *const models[] = {"hgrid-top-down", "hgrid-bottom-up",
                                     NULL};

/* K fitted in MercuryDPM (the papers' code), its own file */
static const hg_engine_K K = {
    .target = "MercuryDPM",
    .article = "",
    .own = 1,
    .shipped_for = "MercuryDPM",
    .shipped = hg_mercurydpm_K_shipped,
    .calibration_path = hg_mercurydpm_calibration_path,
};

const hg_engine hg_engine_mercurydpm = {
    .name = "mercurydpm",
    .help = "MercuryDPM's HGrid (the KOL 2014 model, K fitted in "
            "MercuryDPM; validate, calibrate and tune --engine mercurydpm "
            "compile a timing driver against a MercuryDPM build: --program "
            "DIR or $HG_MERCURYDPM_DIR)",
    .code = "MercuryDPM",
    .modelled = "MercuryDPM's HGrid",
    .models = models,
    .settings_format = "mercurydpm",
    .K = &K,
    .write_settings = hg_mercurydpm_write_settings,
    .validate = hg_mercurydpm_validate,
    .tune = hg_mercurydpm_tune,
    .calibrate = hg_mercurydpm_calibrate,
    /* one setting's time per step moved by +-30 % between runs on the
     * development machine while the ranks of 41 alternating runs of 2
     * steps agreed between two measurements */
    .run_steps = 2,
    .run_warmup = 1,
    .run_repeats = 41,
    .model_values = "whole=0",
};
