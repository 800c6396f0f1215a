# bench_hgrid_systems.sh - the systems of the bundled HGrid's benchmarks
# (bench_hgrid_tune.sh, bench_tables.sh), sourced: name|`hgridopt pack`
# options. 2D and 3D; the recommendations of the first six are top-down,
# of the last two (uniform radii) bottom-up or one level.
# name|pack options
systems=(
    "3D power law a-2.5 w40 nu0.5|--psd powerlaw:alpha=-2.5,omega=40 --dim 3 --nu 0.5 --generator rsa"
    "3D power law a-3 w100 nu0.3|--psd powerlaw:alpha=-3,omega=100 --dim 3 --nu 0.3 --generator poisson"
    "3D bidisperse 1:5 nu0.4|--psd discrete:r=1;5,frac=0.5;0.5,basis=volume --dim 3 --nu 0.4 --generator rsa"
    "3D uniform-volume 1-10 nu0.4|--psd uniform-volume:rmin=1,rmax=10 --dim 3 --nu 0.4 --generator rsa"
    "2D log-normal s0.6 nu0.5|--psd lognormal:median=1,sigma=0.6,qmin=0.001,qmax=0.999 --dim 2 --nu 0.5 --generator rsa"
    "2D power law a-3 w50 nu0.4|--psd powerlaw:alpha=-3,omega=50 --dim 2 --nu 0.4 --generator rsa"
    "3D uniform radii 1-10 nu0.5|--psd powerlaw:alpha=0,omega=10 --dim 3 --nu 0.5 --generator rsa"
    "2D uniform radii 1-10 nu0.5|--psd powerlaw:alpha=0,omega=10 --dim 2 --nu 0.5 --generator rsa"
)
