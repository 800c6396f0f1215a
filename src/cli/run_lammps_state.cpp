// run_lammps_state.cpp - what `hgridopt run` reads of a LAMMPS instance
// beyond LAMMPS' C library interface: the timers of the last run, the
// neighbor list builds, the neighbor and thermo settings in force. It
// reads, flushes the log file, and puts back the insertion schedule of
// fixes that a setup moved (nothing else); compiled against the headers
// of the same liblammps it links.
#include "run_lammps.h"

/* utils.h declares fmt templates of the fmt version LAMMPS bundles; none
 * is used here (CMakeLists.txt: an empty fmt/format.h stands in) */
#define LMP_UTILS_H

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "fix.h"
#include "input.h"
#include "memory.h"
#include "force.h"
#include "modify.h"
#include "lammps.h"
#include "neighbor.h"
#include "output.h"
#include "timer.h"
#include "update.h"
#include "library.h"

#include <cstdio>
#include <cstring>

using namespace LAMMPS_NS;

extern "C" void cli_lmp_state_get(void *handle, cli_lmp_state *s,
                                  int groups_unread)
{
    LAMMPS *lmp = static_cast<LAMMPS *>(handle);
    *s = cli_lmp_state();
    Timer *t = lmp->timer;
    s->loop = t->get_wall(Timer::TOTAL);
    s->pair = t->get_wall(Timer::PAIR) + t->get_wall(Timer::BOND) +
              t->get_wall(Timer::KSPACE);
    s->neigh = t->get_wall(Timer::NEIGH);
    s->comm = t->get_wall(Timer::COMM);
    s->output = t->get_wall(Timer::OUTPUT);
    s->modify = t->get_wall(Timer::MODIFY);
    s->timer_normal = t->has_normal() ? 1 : 0;
    Neighbor *n = lmp->neighbor;
    s->ncalls = n->ncalls;
    s->ndanger = n->ndanger;
    s->skin = n->skin;
    s->style = n->style;
    s->every = n->every;
    s->delay = n->delay;
    s->check = n->dist_check;
    s->binsizeflag = n->binsizeflag;
    s->binsize = n->binsize_user;
    s->nlocal = lmp->atom->nlocal;
    s->nghost = lmp->atom->nghost;
    s->radius = lmp->atom->radius_flag;
    s->dimension = lmp->domain->dimension;
    s->thermo_every = lmp->output->thermo_every;
    s->thermo_variable = lmp->output->var_thermo != nullptr;
    s->comm_mode = lmp->comm->mode;
    Comm *c = lmp->comm;
    for (int a = 0; a < 3; a++)
        s->procgrid[a] = c->procgrid[a];
    s->comm_tiled = c->style != 0;
    s->cuts_moved = c->layout == Comm::LAYOUT_NONUNIFORM;
    s->newton_pair = lmp->force->newton_pair;
    s->cutneighmax = lmp->neighbor->cutneighmax;
    s->oneatom = lmp->neighbor->oneatom;
    s->pgsize = lmp->neighbor->pgsize;
    // what a full setup at this step would change (see run_lammps.h)
    bigint step = lmp->update->ntimestep;
    Modify *mod = lmp->modify;
    for (int i = 0; i < mod->nfix && !s->balance_fix[0]; i++)
        if (mod->fix[i]->style && !strcmp(mod->fix[i]->style, "balance"))
            snprintf(s->balance_fix, sizeof s->balance_fix, "%s",
                     mod->fix[i]->id);
    for (int i = 0; i < mod->nfix && !s->setup_unsafe; i++) {
        Fix *f = mod->fix[i];
        const char *style = f->style ? f->style : "";
        if (f->force_reneighbor && f->next_reneighbor != 0 &&
            f->next_reneighbor != step + 1) {
            s->inserting = 1;
        } else if (!strcmp(style, "GROUP") && !groups_unread) {
            snprintf(s->setup_why, sizeof s->setup_why,
                     "a setup would update the dynamic group of fix %s",
                     f->id);
            s->setup_unsafe = 1;
        } else if (!strcmp(style, "print")) {
            snprintf(s->setup_why, sizeof s->setup_why,
                     "fix %s (print) would print again at a setup", f->id);
            s->setup_unsafe = 1;
        }
    }
}

extern "C" void cli_lmp_flush(void *handle)
{
    LAMMPS *lmp = static_cast<LAMMPS *>(handle);
    if (lmp->logfile)
        fflush(lmp->logfile);
    if (lmp->screen)
        fflush(lmp->screen);
}

extern "C" int cli_lmp_schedule_get(void *handle, long long *steps, int cap)
{
    Modify *mod = static_cast<LAMMPS *>(handle)->modify;
    int n = mod->nfix < cap ? mod->nfix : cap;
    for (int i = 0; i < n; i++)
        steps[i] = (long long)mod->fix[i]->next_reneighbor;
    return n;
}

extern "C" int cli_lmp_schedule_set(void *handle, const long long *steps,
                                    int n)
{
    Modify *mod = static_cast<LAMMPS *>(handle)->modify;
    if (n != mod->nfix)
        return -1;
    for (int i = 0; i < n; i++)
        if (mod->fix[i]->force_reneighbor)
            mod->fix[i]->next_reneighbor = (bigint)steps[i];
    return 0;
}

extern "C" double cli_lmp_listed_pairs(void *handle)
{
    LAMMPS *lmp = static_cast<LAMMPS *>(handle);
    if (!lmp->force->pair || !lmp->force->pair_style)
        return -1.0;
    int idx = lammps_find_pair_neighlist(handle, lmp->force->pair_style, 1,
                                         0, 0);
    if (idx < 0)
        return -1.0;
    int n = lammps_neighlist_num_elements(handle, idx);
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        int iatom = 0, nn = 0;
        int *nb = nullptr;
        lammps_neighlist_element_neighbors(handle, idx, i, &iatom, &nn, &nb);
        sum += nn;
    }
    return sum;
}

extern "C" char *cli_lmp_expand(void *handle, const char *text)
{
    LAMMPS *lmp = static_cast<LAMMPS *>(handle);
    /* the command without its comment (a '#' outside quotes) */
    size_t n = strlen(text), k = 0;
    char quote = 0;
    for (; k < n; k++) {
        char c = text[k];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#') {
            break;
        }
    }
    int max = (int)k + 1, max2 = max;
    char *s = static_cast<char *>(lmp->memory->smalloc(max, "hg:expand"));
    char *w = static_cast<char *>(lmp->memory->smalloc(max2, "hg:expand"));
    char *out = nullptr;
    if (s && w) {
        memcpy(s, text, k);
        s[k] = '\0';
        try {
            lmp->input->substitute(s, w, max, max2, 0);
            out = strdup(s);
        } catch (...) {
            out = nullptr;
        }
    }
    lmp->memory->sfree(s);
    lmp->memory->sfree(w);
    return out;
}
