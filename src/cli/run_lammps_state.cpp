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
#include "force.h"
#include "modify.h"
#include "lammps.h"
#include "neighbor.h"
#include "output.h"
#include "pair.h"
#include "timer.h"
#include "update.h"
#include "library.h"

#include <cstdio>
#include <cstdlib>
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

extern "C" char *cli_lmp_last_command(void *handle, const char *word)
{
    Input *in = static_cast<LAMMPS *>(handle)->input;
    size_t n = strlen(word) + 1;
    for (int i = 0; i < in->narg; i++) {
        if (strchr(in->arg[i], ' ') && strchr(in->arg[i], '"'))
            return nullptr;
        n += strlen(in->arg[i]) + 3;
    }
    char *out = static_cast<char *>(malloc(n));
    if (!out)
        return nullptr;
    char *w = out + sprintf(out, "%s", word);
    for (int i = 0; i < in->narg; i++)
        w += sprintf(w, strchr(in->arg[i], ' ') ? " \"%s\"" : " %s",
                     in->arg[i]);
    return out;
}

extern "C" const char *cli_lmp_pair_style(void *handle)
{
    Force *f = static_cast<LAMMPS *>(handle)->force;
    return f->pair && f->pair_style ? f->pair_style : "";
}

extern "C" int cli_lmp_pair_complete(void *handle)
{
    LAMMPS *lmp = static_cast<LAMMPS *>(handle);
    Pair *p = lmp->force->pair;
    if (!p || !p->allocated || !p->setflag)
        return 0;
    for (int i = 1; i <= lmp->atom->ntypes; i++)
        if (!p->setflag[i][i])
            return 0;
    return 1;
}
