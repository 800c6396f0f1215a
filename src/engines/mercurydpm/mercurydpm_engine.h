/* mercurydpm_engine.h - what the files of the MercuryDPM engine share. */
#ifndef HG_MERCURYDPM_ENGINE_H
#define HG_MERCURYDPM_ENGINE_H

#include "hg_engine.h"
#include "hg_mercurydpm.h"
#include "hg_model.h"
#include "hg_snapshot.h"

#include <stddef.h>

extern const hg_engine hg_engine_mercurydpm;

/* --format mercurydpm: the C++ subclass of a grid, with the prediction at
 * MercuryDPM's K (or the K the prediction given implies). */
int hg_mercurydpm_write_settings(const hg_engine_settings *in, char **text,
                                 hg_err *e);

/* ---- the runners (calibrate.c, validate.c, tune.c) ---- */

/* Settings the model puts more than this many times the best's (or the
 * recommendation's) work are not measured. */
#define HG_MERCURYDPM_SLOWEST 8.0

/* K for MercuryDPM (consts.c): the stored calibration, else the shipped K
 * (hg_K_resolve), and a, the seconds per pair check of the stored
 * calibration or the shipped fit (for predicted seconds); src (len bytes)
 * gets the report's text on the constants. */
int hg_mercurydpm_K_resolve(int dim, double *K, double *a, char *src,
                            size_t len, hg_err *e);

/* One packing as the model sees it (predict.c). */
typedef struct hg_mercurydpm_pack {
    const hg_particles *p;
    hg_psd *own_psd;
    const hg_psd *psd;
    hg_system sys;
    hg_snapshot *snap;
} hg_mercurydpm_pack;

/* Packing p as the model sees it: run->sys and run->psd when given (the
 * command's view of packings[0]: use_run), else the radii and packing
 * fraction of the particles with run->sys's structure (measured: the
 * packing's own pair statistics). m is overwritten; free it with
 * hg_mercurydpm_pack_clear, also when this fails. */
int hg_mercurydpm_pack_init(const hg_engine_run *run, const hg_particles *p,
                            int use_run, hg_mercurydpm_pack *m, hg_err *e);
/* Free what m owns and zero it. */
void hg_mercurydpm_pack_clear(hg_mercurydpm_pack *m);

/* The cost model of algorithm a (hgrid-top-down or hgrid-bottom-up). */
const hg_model *hg_mercurydpm_model(hg_algorithm a);

/* The sizes setting s gives (MercuryDPM's exponential ones computed):
 * s->levels of them into sizes. */
int hg_mercurydpm_setting_sizes(const hg_mercurydpm_pack *m,
                                const hg_mercurydpm_setting *s,
                                double *sizes, hg_err *e);

/* The model's work per particle of setting s at K into w. */
int hg_mercurydpm_predict(const hg_mercurydpm_pack *m,
                          const hg_mercurydpm_setting *s, double K,
                          hg_work *w, hg_err *e);

/* The model's optimum for K: algorithm alg (HG_GRID_NONE: the better of
 * both) with at most max_levels levels, as user sizes into s. */
int hg_mercurydpm_optimum(const hg_mercurydpm_pack *m, double K,
                          hg_algorithm alg, int max_levels,
                          hg_mercurydpm_setting *s, hg_err *e);

/* Exponential sizes of L levels as a user setting. */
int hg_mercurydpm_exponential(const hg_mercurydpm_pack *m, hg_algorithm alg,
                              int L, hg_mercurydpm_setting *s, hg_err *e);

/* 1 when a and b are the same grid for MercuryDPM. */
int hg_mercurydpm_setting_same(const hg_mercurydpm_setting *a,
                               const hg_mercurydpm_setting *b);

/* s without the empty levels of user sizes equal to the one below (no
 * particle lies in (s_h, s_h]): the same grid for MercuryDPM. */
void hg_mercurydpm_setting_normalize(const hg_mercurydpm_setting *s,
                                     hg_mercurydpm_setting *o);

/* Append s (normalized) to list (n entries, room cap) unless it is there;
 * returns its index, -1 when full. */
int hg_mercurydpm_setting_add(hg_mercurydpm_setting *list, int *n, int cap,
                              const hg_mercurydpm_setting *s);

/* Refuse a run without >= need packings or with a NULL one (measure.c). */
int hg_mercurydpm_run_check(const hg_engine_run *run, int need, hg_err *e);

/* Measure list[0..n-1] on packing m; predicted work into w (K), the
 * timings into t. */
int hg_mercurydpm_measure(const hg_mercurydpm_pack *m,
                          const hg_mercurydpm_setting *list, int n,
                          const hg_engine_run *run, double K, hg_work *w,
                          hg_mercurydpm_timing *t, hg_err *e);

/* Add setting s of packing m to report r as a point: role, whether it is
 * the code's default, its description and MercuryDPM lines (at K), its
 * sizes, the predicted and the measured seconds (t). */
int hg_mercurydpm_report_add(hg_engine_report *r, const char *role,
                             int is_default, const hg_mercurydpm_pack *m,
                             double K, const hg_mercurydpm_setting *s,
                             const double *sizes, double predicted,
                             const hg_mercurydpm_timing *t, hg_err *e);

/* The report's program (the MercuryDPM build of run->program) and unit. */
void hg_mercurydpm_report_program(hg_engine_report *r,
                                  const hg_engine_run *run);

#endif
