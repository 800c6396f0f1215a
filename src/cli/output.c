/* output.c - output files and the formatting helpers shared by the
 * commands (JSON documents, tables). */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_write(const char *path, int (*write)(FILE *out, const void *ctx),
              const void *ctx)
{
    if (!path || strcmp(path, "-") == 0) {
        int rc = write(stdout, ctx);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            cli_error("standard output: write error: %s", strerror(errno));
            return CLI_EDATA;
        }
        return rc;
    }
    /* temporary file next to path, renamed on success (hg_io_output) */
    hg_output *o = NULL;
    hg_err e = {0};
    if (hg_io_output_open(path, &o, &e) != HG_OK) {
        cli_error("--output: %s", e.msg);
        return CLI_EDATA;
    }
    int rc = write(hg_io_output_stream(o), ctx);
    if (rc) {
        hg_io_output_abort(o);
        return rc;
    }
    if (hg_io_output_commit(o, &e) != HG_OK) {
        cli_error("--output: %s", e.msg);
        return CLI_EDATA;
    }
    return CLI_OK;
}

cJSON *cli_json_document(const char *schema, const cli_system *cs)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", schema);
    cJSON_AddStringToObject(j, "version", HG_VERSION_STRING);
    if (cs && cs->c.unit)
        cJSON_AddStringToObject(j, "length_unit", cs->c.unit);
    return j;
}

const char *cli_bytes(double bytes, char *buf, size_t len)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000.0 && u < 4) {
        bytes /= 1000.0;
        u++;
    }
    snprintf(buf, len, u ? "%.3g %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

void cli_json_add_array(cJSON *obj, const char *key, const double *v, int n)
{
    cJSON *a = cJSON_AddArrayToObject(obj, key);
    for (int i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
}

void cli_json_add_per_level(cJSON *obj, const hg_cost *c)
{
    cJSON *arr = cJSON_AddArrayToObject(obj, "per_level");
    for (int h = 0; arr && h < c->levels; h++) {
        const hg_level_cost *l = &c->per_level[h];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "level", l->level);
        cJSON_AddNumberToObject(o, "cell_size", l->cell_size);
        cJSON_AddNumberToObject(o, "r_lo", l->r_lo);
        cJSON_AddNumberToObject(o, "r_hi", l->r_hi);
        cJSON_AddNumberToObject(o, "fraction", l->fraction);
        cJSON_AddNumberToObject(o, "particles_per_cell",
                                l->particles_per_cell);
        cJSON_AddNumberToObject(o, "T_cd", l->T_cd);
        cJSON_AddNumberToObject(o, "T_ca", l->T_ca);
        if (c->C > 0.0)
            cJSON_AddNumberToObject(o, "T_tab", l->T_tab);
        cJSON_AddNumberToObject(o, "work", l->T);
        cJSON_AddItemToArray(arr, o);
    }
}

int cli_json_print(FILE *out, cJSON *json)
{
    char *s = hg_json_print(json);
    cJSON_Delete(json);
    if (!s) {
        cli_error("out of memory while writing JSON");
        return CLI_EDATA;
    }
    fputs(s, out);
    fputc('\n', out);
    free(s);
    return CLI_OK;
}

void cli_print_system(FILE *out, const cli_system *cs)
{
    const char *u = cs->c.unit ? cs->c.unit : "";
    if (cs->c.name)
        fprintf(out, "system:         %s\n", cs->c.name);
    if (cs->c.has_packing && !cs->opt.psd_spec)
        fprintf(out, "distribution:   sample of the %zu radii in %s\n",
                cs->c.packing.n, cs->opt.packing_path);
    else
        fprintf(out, "distribution:   %s\n", hg_psd_spec(cs->c.psd));
    fprintf(out, "radii:          %.6g .. %.6g%s%s (omega = %.6g)\n",
            hg_psd_rmin(cs->c.psd), hg_psd_rmax(cs->c.psd), *u ? " " : "", u,
            hg_psd_rmax(cs->c.psd) / hg_psd_rmin(cs->c.psd));
    if (cs->no_K) { /* a model of another engine: its constants */
        fprintf(out, "dim %d, nu = %.6g\n", cs->c.sys.dim, cs->c.sys.nu);
        fprintf(out, "constants:      %s\n",
                cs->c.consts_source[0] ? cs->c.consts_source : "the model's");
    } else {
        char who[96];
        fprintf(out, "dim %d, nu = %.6g, K = %.6g (%s, for %s)\n",
                cs->c.sys.dim, cs->c.sys.nu, cs->c.K,
                hg_K_source_name(cs->c.Kc.source),
                hg_K_target_phrase(&cs->c.Kc, who, sizeof who));
        fprintf(out, "K from:         %s\n", cs->c.Kc.detail);
    }
    cli_print_structure(out, cs);
}

/* What the snapshot (--packing) tells: the box against the bed, the
 * density experienced, the layer profile and the verdict on
 * heterogeneity. */
/* "PATH: KIND, frame 3 of 5 (timestep 2000)" */
static void file_text(const cli_system *cs, char *buf, size_t len)
{
    const hg_io_info *fi = &cs->c.file_info;
    int n = snprintf(buf, len, "%s: %s", cs->opt.packing_path, fi->kind);
    if (n < 0 || (size_t)n >= len)
        return;
    if (fi->format == HG_IO_DUMP || fi->format == HG_IO_MERCURY_DATA) {
        n += snprintf(buf + n, len - (size_t)n, ", frame %zu", fi->frame);
        if (fi->frames && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, " of %zu", fi->frames);
        if (fi->step >= 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, " (timestep %lld)",
                          fi->step);
        else if (isfinite(fi->time) && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, " (time %g)", fi->time);
    }
    if (fi->note[0] && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "; %s", fi->note);
}

static void print_snapshot(FILE *out, const cli_system *cs)
{
    if (!cs->c.snapshot)
        return;
    const hg_snapshot_info *si = hg_snapshot_get_info(cs->c.snapshot);
    char ft[800];
    file_text(cs, ft, sizeof ft);
    fprintf(out, "file:           %s\n", ft);
    fprintf(out, "boundary:       %s, %s\n", si->boundary, cs->c.boundary_why);
    fprintf(out, "snapshot:       N = %zu, boundary %s, box nu %.4g, "
                 "occupied region nu %.4g",
            si->n, si->boundary, si->nu_box, si->nu_occupied);
    for (int c = 0; c < si->dim; c++)
        if (fabs(si->occ_hi[c] - si->occ_lo[c]) <
            0.9 * (si->box_hi[c] - si->box_lo[c]))
            fprintf(out, ", %c %.4g..%.4g of %.4g..%.4g", "xyz"[c],
                    si->occ_lo[c], si->occ_hi[c], si->box_lo[c],
                    si->box_hi[c]);
    fprintf(out, "\n");
    fprintf(out, "density:        the particles experience nu %.4g at the "
                 "linked cell's scale (6 r_max)%s\n",
            si->nu_local,
            cs->c.sys.structure == HG_STRUCTURE_MEASURED
                ? "; the model counts pairs with the measured statistics"
                : "");
    if (si->layer_axis >= 0) {
        fprintf(out, "layers (%c):     nu", "xyz"[si->layer_axis]);
        for (int k = 0; k < si->layers; k++)
            fprintf(out, " %.3g", si->layer_nu[k]);
        fprintf(out, "; mean radius");
        for (int k = 0; k < si->layers; k++)
            fprintf(out, " %.3g", si->layer_rmean[k]);
        fprintf(out, " (%d slabs of the occupied extent, bottom first)\n",
                si->layers);
    }
    char why[256] = "";
    if (si->nu_box < 0.8 * si->nu_local)
        snprintf(why + strlen(why), sizeof why - strlen(why),
                 "%sthe box's nu is %.3g times below the density "
                 "experienced (free space: a tall box, a free surface)",
                 *why ? "; " : "", si->nu_local / si->nu_box);
    if (si->size_layering > 1.3)
        snprintf(why + strlen(why), sizeof why - strlen(why),
                 "%ssizes layered (slab mean radii differ %.3g times)",
                 *why ? "; " : "", si->size_layering);
    if (*why)
        fprintf(out, "heterogeneous:  %s\n", why);
}

void cli_json_add_snapshot(cJSON *obj, const cli_system *cs)
{
    if (!cs->c.snapshot)
        return;
    const hg_snapshot_info *si = hg_snapshot_get_info(cs->c.snapshot);
    const hg_io_info *fi = &cs->c.file_info;
    cJSON *pf = cJSON_AddObjectToObject(obj, "particle_file");
    cJSON_AddStringToObject(pf, "path", cs->opt.packing_path);
    cJSON_AddStringToObject(pf, "format", hg_io_format_name(fi->format));
    cJSON_AddStringToObject(pf, "kind", fi->kind);
    cJSON_AddBoolToObject(pf, "compressed", fi->compressed);
    if (fi->format == HG_IO_DUMP || fi->format == HG_IO_MERCURY_DATA) {
        cJSON_AddNumberToObject(pf, "frame", (double)fi->frame);
        if (fi->frames)
            cJSON_AddNumberToObject(pf, "frames", (double)fi->frames);
        if (fi->step >= 0)
            cJSON_AddNumberToObject(pf, "timestep", (double)fi->step);
        if (isfinite(fi->time))
            cJSON_AddNumberToObject(pf, "time", fi->time);
    }
    if (fi->note[0])
        cJSON_AddStringToObject(pf, "note", fi->note);
    static const char *const bsrc[] = {"file", "given", "inferred",
                                       "assumed"};
    cJSON *b = cJSON_AddObjectToObject(pf, "boundary");
    cJSON_AddStringToObject(b, "value", si->boundary);
    cJSON_AddStringToObject(b, "source", bsrc[cs->c.boundary_source]);
    cJSON_AddBoolToObject(b, "assumed",
                          cs->c.boundary_source == HG_BOUNDARY_ASSUMED);
    cJSON *ax = cJSON_AddArrayToObject(b, "axes");
    for (int a = 0; a < si->dim; a++) {
        cJSON *o = cJSON_CreateObject();
        char name[2] = {"xyz"[a], 0};
        char letter[2] = {si->boundary[2 * a], 0};
        cJSON_AddStringToObject(o, "axis", name);
        cJSON_AddStringToObject(o, "letter", letter);
        cJSON_AddStringToObject(o, "source", cs->c.boundary_axes[a]);
        if (isfinite(cs->c.boundary_gap[a]))
            cJSON_AddNumberToObject(o, "gap", cs->c.boundary_gap[a]);
        cJSON_AddItemToArray(ax, o);
    }
    cJSON_AddStringToObject(b, "detail", cs->c.boundary_why);
    cJSON *j = cJSON_AddObjectToObject(obj, "snapshot");
    cJSON_AddNumberToObject(j, "particles", (double)si->n);
    cJSON_AddNumberToObject(j, "centres_counted", (double)si->centres);
    cJSON_AddStringToObject(j, "boundary", si->boundary);
    cJSON_AddNumberToObject(j, "nu_box", si->nu_box);
    cJSON_AddNumberToObject(j, "nu_occupied", si->nu_occupied);
    cJSON_AddNumberToObject(j, "nu_local", si->nu_local);
    cJSON_AddNumberToObject(j, "coordination", si->coordination);
    cJSON_AddNumberToObject(j, "coordination_poisson",
                            si->coordination_poisson);
    cJSON_AddNumberToObject(j, "max_overlap", si->max_overlap);
    cli_json_add_array(j, "occupied_lo", si->occ_lo, si->dim);
    cli_json_add_array(j, "occupied_hi", si->occ_hi, si->dim);
    cli_json_add_array(j, "box_lo", si->box_lo, si->dim);
    cli_json_add_array(j, "box_hi", si->box_hi, si->dim);
    if (si->layer_axis >= 0) {
        cJSON *l = cJSON_AddObjectToObject(j, "layers");
        char ax[2] = {"xyz"[si->layer_axis], 0};
        cJSON_AddStringToObject(l, "axis", ax);
        cli_json_add_array(l, "nu", si->layer_nu, si->layers);
        cli_json_add_array(l, "mean_radius", si->layer_rmean, si->layers);
        cli_json_add_array(l, "fraction", si->layer_fraction, si->layers);
    }
    cJSON_AddNumberToObject(j, "size_layering", si->size_layering);
}

int cli_homogeneous_check(const cli_system *cs, const hg_model *m, int L,
                          const double *sizes, double *ratio)
{
    *ratio = NAN;
    if (!cs->c.snapshot || cs->c.sys.structure != HG_STRUCTURE_MEASURED)
        return 0;
    hg_system h = cs->c.sys;
    h.structure = HG_STRUCTURE_POISSON;
    h.snapshot = NULL;
    hg_work a, b;
    if (hg_cost_evaluate(m, cs->c.psd, &cs->c.sys, &cs->c.values, L, sizes, NULL,
                         &a, NULL) ||
        hg_cost_evaluate(m, cs->c.psd, &h, &cs->c.values, L, sizes, NULL, &b,
                         NULL))
        return 0;
    *ratio = b.T_cd / a.T_cd;
    return fabs(*ratio - 1.0) > 0.1;
}

void cli_print_structure(FILE *out, const cli_system *cs)
{
    print_snapshot(out, cs);
    fprintf(out, "structure:      %s (%s)\n",
            hg_structure_name(cs->c.sys.structure), cs->c.structure_why);
    double lim = hg_structure_fluid_limit(cs->c.sys.dim);
    if (cs->c.sys.structure == HG_STRUCTURE_HARD_SPHERES && cs->c.sys.nu > lim)
        fprintf(out, "note:           nu = %.6g is above the fluid range of "
                     "hard %s (%.2f): near jamming the model under-predicts "
                     "the pair checks\n",
                cs->c.sys.nu, cs->c.sys.dim == 2 ? "disks" : "spheres", lim);
}

void cli_json_add_K(cJSON *obj, const cli_system *cs)
{
    cJSON_AddNumberToObject(obj, "K", cs->c.K);
    cJSON *k = cJSON_AddObjectToObject(obj, "K_choice");
    cJSON_AddNumberToObject(k, "value", cs->c.Kc.K);
    cJSON_AddStringToObject(k, "source", hg_K_source_name(cs->c.Kc.source));
    cJSON_AddStringToObject(k, "target", hg_K_target(&cs->c.Kc));
    cJSON_AddStringToObject(k, "detail", cs->c.Kc.detail);
}

void cli_print_levels(FILE *out, const hg_cost *c, double rmin)
{
    /* T_tab (table cells per particle) only where the model weighs it */
    const int tab = c->C > 0.0;
    fprintf(out, "%5s %12s %9s %11s %12s %11s %11s", "level", "cell size",
            "s/r_min", "fraction", "part./cell", "T_cd", "T_ca");
    if (tab)
        fprintf(out, " %11s", "T_tab");
    fprintf(out, " %11s\n", "work");
    for (int h = 0; h < c->levels; h++) {
        const hg_level_cost *l = &c->per_level[h];
        fprintf(out, "%5d %12.6g %9.4g %11.5g %12.5g %11.5g %11.5g",
                l->level, l->cell_size, l->cell_size / rmin, l->fraction,
                l->particles_per_cell, l->T_cd, l->T_ca);
        if (tab)
            fprintf(out, " %11.5g", l->T_tab);
        fprintf(out, " %11.5g\n", l->T);
    }
    fprintf(out, "%5s %12s %9s %11.5g %12s %11.5g %11.5g", "total", "", "",
            1.0, "", c->T_cd, c->T_ca);
    if (tab)
        fprintf(out, " %11.5g", c->T_tab);
    fprintf(out, " %11.5g\n", c->T);
}

void cli_print_work(FILE *out, const hg_cost *c)
{
    if (c->C > 0.0)
        fprintf(out,
                "\nwork per particle T = T_cd + K T_ca + C T_tab = %.6g + "
                "%.6g x %.6g + %.6g x %.6g = %.6g\n"
                "(T_tab: the cells of the grid's tables per particle, which "
                "every rebuild sweeps)\n",
                c->T_cd, c->K, c->T_ca, c->C, c->T_tab, c->T);
    else
        fprintf(out,
                "\nwork per particle T = T_cd + K T_ca = %.6g + %.6g x %.6g = "
                "%.6g\n",
                c->T_cd, c->K, c->T_ca, c->T);
}

void cli_json_add_tables(cJSON *obj, const hg_cost *c)
{
    if (!(c->C > 0.0))
        return;
    cJSON_AddNumberToObject(obj, "C", c->C);
    cJSON_AddNumberToObject(obj, "T_tab", c->T_tab);
}

void cli_print_single_level(FILE *out, double cutoff,
                            const hg_single_level *sl, double T)
{
    fprintf(out,
            "linked cell (one level, s = %.6g): T = %.6g  -> predicted "
            "speed-up %.4g\n",
            cutoff, sl->linked_cell.T, sl->linked_cell.T / T);
    fprintf(out,
            "bin (bins of half the cutoff, %.6g): T = %.6g  -> predicted "
            "speed-up %.4g\n",
            0.5 * cutoff, sl->bin.T, sl->bin.T / T);
    fprintf(out, "best single-level method: %s\n",
            sl->cheaper == hg_model_find("bin") ? "bin" : "linked cell");
}

static void on_progress(const char *stage, double f, void *params)
{
    cli_progress *pr = params;
    double t = hg_wall_seconds();
    if (t - pr->t0 < pr->delay || (t - pr->last < 0.2 && f < 1.0))
        return;
    pr->last = t;
    pr->shown = 1;
    fprintf(stderr, "\r%-24s %5.1f%%  %6.1f s", stage, 100.0 * f, t - pr->t0);
    fflush(stderr);
}

hg_progress_fn cli_progress_start(cli_progress *pr)
{
    /* HGRIDOPT_PROGRESS_DELAY: seconds before the first report (2) */
    const char *d = getenv("HGRIDOPT_PROGRESS_DELAY");
    char *end = NULL;
    double delay = d ? strtod(d, &end) : 2.0;
    if (!d || end == d || *end || !(delay >= 0.0))
        delay = 2.0;
    *pr = (cli_progress){hg_wall_seconds(), 0.0, delay, 0};
    return isatty(STDERR_FILENO) ? on_progress : NULL;
}

void cli_progress_end(cli_progress *pr)
{
    if (pr->shown)
        fputc('\n', stderr);
    pr->shown = 0;
}
