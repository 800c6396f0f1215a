/* bench_peer_cgal.cpp - (label bench) the bundled HGrid against two
 * general-purpose libraries that find the same contact pairs, one thread:
 *   CGAL's box_self_intersection_d (Zomorodian and Edelsbrunner 2002:
 *       streamed segment tree over the spheres' bounding boxes), each box
 *       pair then tested as the HGrid tests it;
 *   Boost.Geometry's R-tree (bulk-loaded, one intersection query per
 *       sphere), installed with CGAL.
 * Contact: centre distance < r_i + r_j + skin (hg_particles_touch), a box
 * is the sphere's grown by skin / 2 on every side, so that every contact
 * is a box pair. Open boxes (walls) only: neither peer knows periodic
 * images. The pair sets are compared (count and an order-free checksum);
 * any difference is an error (exit 1).
 * Timed (process CPU time, medians over rounds in which the methods
 * alternate; a ratio is the median of the rounds' ratios): HGrid = grid created, built and searched (pair list) with
 * the recommended sizes (shipped K); CGAL = boxes made from the particles and the
 * self-intersection; R-tree = bulk load and the queries. The sizes come
 * from hg_recommend for the packing's radii and packing fraction.
 *
 *   bench_peer_cgal                   the packing (3D, power law
 *                                     alpha -3, omega 20, nu 0.55, N 2e5,
 *                                     dense, walls, seed 1), skin 0.1, and
 *                                     the table for N 1e4 and 1e5
 *   bench_peer_cgal file SKIN REPEATS PACKING...   one row per file
 *   bench_peer_cgal table [MAX_N [REPEATS]]        3D, nu 0.55, dense,
 *       walls, seed 1, alpha -3, omega = r_max / r_min in 2, 10, 20, 50,
 *       100, N = 1e4 .. MAX_N (default 1e6) by factors of 10, skin 0.1.
 */
#include "hg_calib.h"
#include "hg_grid.h"
#include "hg_io.h"
#include "hg_opt.h"
#include "hg_pack.h"
#include "hg_pack_gen.h"
#include "hg_psd.h"

#include <CGAL/box_intersection_d.h>
#include <boost/iterator/function_output_iterator.hpp>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif

namespace {

/* Order-free fingerprint of a pair set. */
struct PairSum {
    size_t n = 0;
    uint64_t sum = 0;
    void add(uint32_t i, uint32_t j)
    {
        if (i > j)
            std::swap(i, j);
        uint64_t z = ((uint64_t)i << 32 | j) + 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        sum += z ^ (z >> 31);
        n++;
    }
    bool operator==(const PairSum &o) const
    {
        return n == o.n && sum == o.sum;
    }
};

/* The pair test of the HGrid (hg_particles_touch, open box). */
inline bool touch(const hg_particles *p, uint32_t i, uint32_t j, double skin)
{
    const int D = p->dim;
    const double *a = p->x + (size_t)i * D, *b = p->x + (size_t)j * D;
    double d2 = 0.0;
    for (int c = 0; c < D; c++) {
        double d = a[c] - b[c];
        d2 += d * d;
    }
    double cut = p->r[i] + p->r[j] + skin;
    return d2 < cut * cut;
}

struct Sizes {
    hg_algorithm alg = HG_TOP_DOWN;
    std::vector<double> s;
};

/* Recommended sizes for the packing's radii and packing fraction with the
 * shipped K of the dimension (as `hgridopt bench` without a calibration
 * file); the top size at least the largest diameter. */
int recommend_sizes(const hg_particles *p, Sizes *out, hg_err *e)
{
    hg_psd *sample = nullptr;
    hg_system sys = {};
    int st = hg_io_system_from_particles(p, &sample, &sys, e);
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    hg_recommendation rec;
    std::memset(&rec, 0, sizeof rec);
    hg_model_values kv = {};
    if (!st)
        st = hg_model_values_set(&kv, "K", hg_K_shipped(p->dim, nullptr), e);
    if (!st)
        st = hg_recommend(sample, &sys, &kv, &ro, &rec, e);
    if (!st) {
        out->alg = rec.model->grid_algorithm == HG_BOTTOM_UP ? HG_BOTTOM_UP
                                                             : HG_TOP_DOWN;
        out->s.assign(rec.cell_sizes, rec.cell_sizes + rec.levels);
        double dmax = 2.0 * hg_particles_rmax(p);
        if (out->s.back() < dmax)
            out->s.back() = dmax;
    }
    hg_recommendation_clear(&rec);
    hg_psd_free(sample);
    return st;
}

/* HGrid: create, build, search (the pairs into *pairs). */
int run_hgrid(const hg_particles *p, const Sizes &sz, double skin,
              hg_pairs *pairs, hg_err *e)
{
    hg_grid *g = nullptr;
    int st = hg_grid_create(p->dim, (int)sz.s.size(), sz.s.data(), sz.alg,
                            &g, e);
    if (!st)
        st = hg_grid_set_skin(g, skin, e);
    if (!st)
        st = hg_grid_build(g, p, e);
    if (!st)
        st = hg_grid_find_contacts(g, pairs, nullptr, e);
    hg_grid_free(g);
    return st;
}

template <int D> PairSum run_cgal(const hg_particles *p, double skin)
{
    typedef CGAL::Box_intersection_d::Box_with_info_d<
        double, D, uint32_t, CGAL::Box_intersection_d::ID_EXPLICIT>
        Box;
    std::vector<Box> boxes;
    boxes.reserve(p->n);
    for (size_t i = 0; i < p->n; i++) {
        double lo[D], hi[D], h = p->r[i] + 0.5 * skin;
        for (int c = 0; c < D; c++) {
            lo[c] = p->x[i * D + c] - h;
            hi[c] = p->x[i * D + c] + h;
        }
        boxes.emplace_back(lo, hi, (uint32_t)i);
    }
    PairSum ps;
    CGAL::box_self_intersection_d(
        boxes.begin(), boxes.end(), [&](const Box &a, const Box &b) {
            if (touch(p, a.info(), b.info(), skin))
                ps.add(a.info(), b.info());
        });
    return ps;
}

template <int D> PairSum run_rtree(const hg_particles *p, double skin)
{
    namespace bg = boost::geometry;
    namespace bgi = boost::geometry::index;
    typedef bg::model::point<double, D, bg::cs::cartesian> Point;
    typedef bg::model::box<Point> BBox;
    typedef std::pair<BBox, uint32_t> Value;
    std::vector<Value> v;
    v.reserve(p->n);
    for (size_t i = 0; i < p->n; i++) {
        Point lo, hi;
        double h = p->r[i] + 0.5 * skin;
        bg::set<0>(lo, p->x[i * D] - h);
        bg::set<0>(hi, p->x[i * D] + h);
        bg::set<1>(lo, p->x[i * D + 1] - h);
        bg::set<1>(hi, p->x[i * D + 1] + h);
        if (D == 3) {
            bg::set<D - 1>(lo, p->x[i * D + D - 1] - h);
            bg::set<D - 1>(hi, p->x[i * D + D - 1] + h);
        }
        v.emplace_back(BBox(lo, hi), (uint32_t)i);
    }
    bgi::rtree<Value, bgi::rstar<16>> tree(v.begin(), v.end()); /* packed */
    PairSum ps;
    for (size_t i = 0; i < p->n; i++) {
        const uint32_t a = (uint32_t)i;
        tree.query(bgi::intersects(v[i].first),
                   boost::make_function_output_iterator([&](const Value &w) {
                       if (w.second > a && touch(p, a, w.second, skin))
                           ps.add(a, w.second);
                   }));
    }
    return ps;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Every method `repeats` times, alternating; one printed row. */
int compare(const char *name, const hg_particles *p, double skin,
            int repeats)
{
    hg_err e = {};
    if (p->periodic) {
        std::fprintf(stderr, "bench_peer_cgal: %s: periodic box (the peers "
                             "take open boxes only)\n", name);
        return 1;
    }
    Sizes sz;
    if (recommend_sizes(p, &sz, &e)) {
        std::fprintf(stderr, "bench_peer_cgal: %s: %s\n", name, e.msg);
        return 1;
    }
    hg_pairs pairs = {};
    std::vector<double> th, tc, tr;
    PairSum ph, pc, pr;
    for (int k = 0; k < repeats; k++) {
        double t0 = hg_cpu_seconds();
        if (run_hgrid(p, sz, skin, &pairs, &e)) {
            std::fprintf(stderr, "bench_peer_cgal: %s: %s\n", name, e.msg);
            hg_pairs_clear(&pairs);
            return 1;
        }
        th.push_back(hg_cpu_seconds() - t0);
        t0 = hg_cpu_seconds();
        pc = p->dim == 3 ? run_cgal<3>(p, skin) : run_cgal<2>(p, skin);
        tc.push_back(hg_cpu_seconds() - t0);
        t0 = hg_cpu_seconds();
        pr = p->dim == 3 ? run_rtree<3>(p, skin) : run_rtree<2>(p, skin);
        tr.push_back(hg_cpu_seconds() - t0);
    }
    for (size_t k = 0; k < pairs.n; k++)
        ph.add(pairs.v[k].i, pairs.v[k].j);
    hg_pairs_clear(&pairs);
    if (!(ph == pc) || !(ph == pr)) {
        std::fprintf(stderr,
                     "bench_peer_cgal: %s: pair sets differ: HGrid %zu "
                     "(checksum %016llx), CGAL %zu (%016llx), R-tree %zu "
                     "(%016llx)\n",
                     name, ph.n, (unsigned long long)ph.sum, pc.n,
                     (unsigned long long)pc.sum, pr.n,
                     (unsigned long long)pr.sum);
        return 1;
    }
    std::vector<double> qc, qr; /* ratios within a round: robust to a
                                   machine whose speed drifts */
    for (int k = 0; k < repeats; k++) {
        qc.push_back(tc[k] / th[k]);
        qr.push_back(tr[k] / th[k]);
    }
    double h = median(th), c = median(tc), r = median(tr);
    double omega = hg_particles_rmax(p) / hg_particles_rmin(p);
    std::printf("%-28s %2dD %8zu %9.1f %2zu %9zu %016llx %9.2f %9.2f "
                "%9.2f %7.1f %7.1f\n",
                name, p->dim, p->n, omega, sz.s.size(), ph.n,
                (unsigned long long)ph.sum, 1e3 * h, 1e3 * c, 1e3 * r,
                median(qc), median(qr));
    std::fflush(stdout);
    return 0;
}

void header(double skin, int repeats)
{
    std::printf("# one thread; CPU ms, medians of %d alternating rounds; "
                "skin %g; HGrid = create + build + search; ratios: "
                "median of the rounds' ratios\n",
                repeats, skin);
    std::printf("%-28s %3s %8s %9s %2s %9s %16s %9s %9s %9s %7s %7s\n",
                "packing", "dim", "N", "rmax/rmin", "L", "pairs", "checksum",
                "HGrid", "CGAL", "R-tree", "CGAL/H", "Rtree/H");
}

int generate(int dim, size_t n, double omega, double nu, hg_particles *p)
{
    hg_err e = {};
    char spec[96];
    std::snprintf(spec, sizeof spec, "powerlaw:alpha=-3,omega=%g", omega);
    hg_psd_ctx ctx = {dim, nullptr};
    hg_psd *psd = nullptr;
    hg_pack_params prm = {dim, n, nu, 1, 0};
    int st = hg_psd_parse(spec, &ctx, &psd, &e);
    if (!st)
        st = hg_pack_dense(psd, &prm, p, &e);
    hg_psd_free(psd);
    if (st)
        std::fprintf(stderr, "bench_peer_cgal: pack %s: %s\n", spec, e.msg);
    return st;
}

int table(size_t max_n, int repeats)
{
    static const double omegas[] = {2, 10, 20, 50, 100};
    header(0.1, repeats);
    for (size_t n = 10000; n <= max_n; n *= 10)
        for (double om : omegas) {
            hg_particles p = {};
            char name[64];
            std::snprintf(name, sizeof name, "dense omega %g N %zu", om, n);
            int st = generate(3, n, om, 0.55, &p) ||
                     compare(name, &p, 0.1, repeats);
            hg_particles_clear(&p);
            if (st)
                return 1;
        }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
#ifdef HG_HAVE_OPENMP
    omp_set_num_threads(1);
#endif
    if (argc >= 5 && !std::strcmp(argv[1], "file")) {
        char *end;
        double skin = std::strtod(argv[2], &end);
        if (end == argv[2] || *end || !(skin >= 0.0)) {
            std::fprintf(stderr, "bench_peer_cgal: skin '%s' is not a "
                                 "number >= 0\n", argv[2]);
            return 2;
        }
        int rep = std::atoi(argv[3]);
        if (rep < 1) {
            std::fprintf(stderr, "bench_peer_cgal: repeats '%s' is not an "
                                 "integer >= 1\n", argv[3]);
            return 2;
        }
        header(skin, rep);
        for (int a = 4; a < argc; a++) {
            hg_err e = {};
            hg_particles p = {};
            hg_io_format fmt;
            int st = hg_io_format_from_path(argv[a], &fmt, &e);
            if (!st)
                st = hg_io_read(argv[a], fmt, &p, &e);
            if (st)
                std::fprintf(stderr, "bench_peer_cgal: %s\n", e.msg);
            else
                st = compare(argv[a], &p, skin, rep);
            hg_particles_clear(&p);
            if (st)
                return 1;
        }
        return 0;
    }
    if (argc >= 2 && !std::strcmp(argv[1], "table")) {
        size_t max_n = argc > 2 ? (size_t)std::strtod(argv[2], nullptr)
                                : 1000000;
        int rep = argc > 3 ? std::atoi(argv[3]) : 3;
        return table(max_n, rep < 1 ? 1 : rep);
    }
    if (argc > 1) {
        std::fprintf(stderr,
                     "usage: bench_peer_cgal [file SKIN REPEATS PACKING... | "
                     "table [MAX_N [REPEATS]]]\n");
        return 2;
    }
    /* the packing, then the small table */
    hg_particles p = {};
    int st = generate(3, 200000, 20, 0.55, &p);
    if (!st) {
        header(0.1, 5);
        st = compare("issue: omega 20 N 2e5", &p, 0.1, 5);
    }
    hg_particles_clear(&p);
    return st || table(100000, 3) ? 1 : 0;
}
