#!/usr/bin/env bash
# LAMMPS export and the --engine lammps options without running lmp: the
# printed cutoffs cover the largest diameter of particle files with a
# non-round largest diameter, one level prints bin, bad options are
# rejected with one line naming the option and value.
. "$(dirname "$0")/cli_lib.sh"
export HGRIDOPT_LAMMPS_CALIBRATION=/nonexistent/hgridopt-lammps.json

LN="lognormal:median=0.5,sigma=0.4,rmin=0.2,rmax=1.5"
for seed in 1 2 3 4 5 6 7 8; do
    f="$TMP/ln$seed.data"
    "$HG" pack --psd "$LN" --dim 3 --nu 0.3 --n 3000 --seed "$seed" \
        --output "$f" 2> /dev/null || { bad "pack seed $seed"; continue; }
    dmax=$(awk '/^[0-9]+ 1 /{ if ($3 > m) m = $3 } END { printf "%.17g", m }' "$f")
    for model in lammps kol; do
        "$HG" recommend --packing "$f" --format lammps --model $model \
            --max-levels 6 > "$TMP/out" || { bad "recommend seed $seed"; continue; }
        line=$(grep "^neigh_modify collection/interval" "$TMP/out")
        if [ -z "$line" ]; then
            grep -q "^neighbor [0-9.e-]* bin$" "$TMP/out" && ok ||
                bad "seed $seed $model: neither multi nor bin"
            continue
        fi
        # strictly increasing, last >= the file's largest diameter
        if echo "$line" | awk -v d="$dmax" '{ n = $3; for (i = 5; i <= 3 + n; i++)
                if (!($i > $(i - 1))) exit 1; exit !($(3 + n) + 0 >= d + 0) }'; then
            ok
        else
            bad "seed $seed $model: '$line' vs largest diameter $dmax"
        fi
    done
done

# one size: bin (LAMMPS model and KOL export alike; the model may size
# its bins)
for model in lammps kol; do
    "$HG" recommend --psd mono:r=1 --dim 3 --nu 0.4 --format lammps --model $model | grep -v '^#' > "$TMP/out"
    if grep -q "^neighbor 0.2 bin$" "$TMP/out" && ! grep -q collection "$TMP/out"; then ok
    else bad "mono ($model): $(grep ^neigh "$TMP/out")"; fi
done
# the answer states its ratio to bin
"$HG" recommend --psd powerlaw:alpha=-3,omega=50 --dim 3 --nu 0.3 --format lammps > "$TMP/out"
grep -q "predicted Neigh time ratio to bin 0\.[0-9]" "$TMP/out" && ok ||
    bad "no ratio to bin: $(cat "$TMP/out")"
# evaluate exports given sizes
"$HG" evaluate --psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.3 --sizes 5,20 \
    --format lammps > "$TMP/out"
grep -q "^neigh_modify collection/interval 2 5 20$" "$TMP/out" && ok ||
    bad "evaluate --format lammps: $(cat "$TMP/out")"
"$HG" evaluate --psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.3 --sizes 5,20 \
    --format mercurydpm > "$TMP/out"
grep -q "setHGridMaxLevels(2)" "$TMP/out" && ok || bad "evaluate --format mercurydpm"

SYS="--psd powerlaw:alpha=-3,omega=10 --dim 3 --nu 0.3"
expect_fail 2 "--model: unknown value 'foo'" -- "$HG" recommend $SYS --format lammps --model foo
expect_fail 2 "--mpi" -- "$HG" recommend $SYS --format lammps --mpi 0
expect_fail 2 "--atoms" -- "$HG" recommend $SYS --format lammps --atoms x
expect_fail 2 "--mpi: 0 is outside" -- "$HG" validate --engine lammps $SYS --mpi 0
expect_fail 2 "--seconds: -1 must be > 0" -- "$HG" tune --engine lammps $SYS --seconds -1
expect_fail 2 "--skin" -- "$HG" tune --engine lammps $SYS --skin 0
# --engine: an unknown name is named with the list, on every command and
# whatever the position; an engine a command has no form for is refused
for cmd in tune validate calibrate recommend evaluate scan bench pack; do
    expect_fail 2 "^hgridopt: $cmd --engine: unknown engine 'lmp' \(one of: hgrid, lammps, mercurydpm, liggghts\)$" -- "$HG" $cmd --engine lmp
    expect_fail 2 "^hgridopt: $cmd --engine: unknown engine 'gromacs' \(one of: hgrid, lammps, mercurydpm, liggghts\)$" -- "$HG" $cmd $SYS --engine=gromacs
done
# tune of the bundled HGrid runs in this process: the code's default (one
# level), the model's optimum and the fastest found, each measured; the
# tuned one is the fastest of the final side-by-side run, which takes 3
# times the search's repeats (9 here), with the quartiles of recommended /
# tuned over them. The timed tune runs here take one thread: with two
# OpenMP threads and another test on the other CPU, a parallel region
# waits out a time slice (a 0.3 ms grid read 8 ms in every repeat of one
# CI run).
t=$(OMP_NUM_THREADS=1 "$HG" tune --engine hgrid $SYS --n 3000 --steps 1 --repeats 3 --seconds 3 --format json)
echo "$t" | jq -e '.engine == "hgrid" and ([.points[].role] == ["default", "recommended", "tuned"]) and (.points[2].measured_ms <= ([.points[].measured_ms] | min)) and (.points[0].levels == 1) and (.settings_measured >= 9) and .repeats == 9 and (.recommended_over_fastest_quartiles | length == 2 and .[0] <= .[1] and .[0] > 0)' > /dev/null && ok || bad "tune --engine hgrid: $t"
# a poured bed with a free surface beside periodic axes ("p p f"): the open
# axis is padded to a periodic box, as validate does, and the report says so
t=$(OMP_NUM_THREADS=1 "$HG" tune --packing "$SRC/tests/data/snapshots/bed3d_d1-8.data" --boundary "p p f" --steps 1 --repeats 3 --seconds 2 --format json)
echo "$t" | jq -e '([.points[].role] == ["default", "recommended", "tuned"]) and (.program | test("open axes padded")) and (.points[1].levels > 1)' > /dev/null && ok || bad "tune on a p p f snapshot: $t"
# grids that give every particle the same cell are one setting, timed once:
# on diameters 2 and 10 the 3-level optimum has an empty middle level
# (2, 9.99.., 10), which is the 2-level grid (2, 10); with one round (a
# budget that ends after it) the first round times the 2-level grid under
# both algorithms (2 x 3 repeats) and one level fewer, the one-level
# default, once (the model puts it 26x over the recommendation: so however
# loaded the machine and its first repeat); the final run (3 x 3 repeats)
# at most three settings, the default among them once: at most
# 7 + 2 x 9 + 1 timings; and no point has an empty level
"$HG" pack --psd "discrete:r=1;5,frac=0.5;0.5,basis=volume" --dim 3 --nu 0.4 \
    --generator rsa --n 3000 --output "$TMP/bi.csv" 2> /dev/null || bad "pack bidisperse"
t=$(OMP_NUM_THREADS=1 "$HG" tune --packing "$TMP/bi.csv" --steps 1 --repeats 3 --seconds 0.001 --format json)
echo "$t" | jq -e 'def occupied: . as $s | [range(0; $s | length) as $h
        | [2, 10] | map(select(. <= $s[$h] and ($h == 0 or . > $s[$h - 1])))
        | length > 0] | all;
    .rounds == 1 and .settings_measured <= 26 and ([.points[].sizes | occupied] | all) and
    (.points[0].setting | test("timed once: the model puts it over 8x the recommendation")) and
    .points[0].measured_min_ms == .points[0].measured_max_ms and
    .points[1].measured_min_ms <= .points[1].measured_max_ms' > /dev/null &&
    ok || bad "tune: grids with an empty level timed apart: $t"
expect_fail 2 "^hgridopt: tune --format: 'lammps' is not a format of tune --engine hgrid \(one of: table, json\)$" -- "$HG" tune $SYS --format lammps
expect_fail 2 "^hgridopt: calibrate --file: 'x.json' is where --save stores the constants; give --save too$" -- "$HG" calibrate --engine lammps --file x.json
expect_fail 2 "scan --engine: 'lammps' is not available for scan \(it runs: hgrid\)" -- "$HG" scan --engine lammps $SYS
expect_ok "^recommended: " -- "$HG" recommend --engine hgrid $SYS
# an option given twice is refused, not silently replaced
expect_fail 2 "^hgridopt: calibrate: option '--packing' given twice \(give it once; several files: --packing a.data,b.data\)$" -- "$HG" calibrate --engine lammps --packing a.data --packing b.data
expect_fail 2 "^hgridopt: recommend: option '--K' given twice \(give it once\)$" -- "$HG" recommend $SYS --K 1 --K 2
expect_fail 2 "^hgridopt: validate: option '--steps' given twice" -- "$HG" validate --engine lammps $SYS --steps 2 --steps=3
# help texts print no printf escapes
for h in "tune --help" "validate --engine lammps --help" "calibrate --engine lammps --help" "recommend --help" "help models" "help psd" "--help"; do
    "$HG" $h | grep -q '%%' && bad "$h prints '%%'" || ok
done
expect_fail 2 "unknown option '--seconds'" -- "$HG" validate --engine lammps $SYS --seconds 3
expect_fail 1 "not an executable.*apt-get install lammps" -- "$HG" tune --engine lammps $SYS --lmp /nonexistent/lmp
expect_fail 1 "not an executable.*apt-get install lammps" -- "$HG" calibrate --engine lammps --lmp /nonexistent/lmp
mkdir -p "$TMP/bin"
for t in cat wc grep; do ln -s "$(command -v $t)" "$TMP/bin/$t"; done
PATH="$TMP/bin" expect_fail 1 "not found on PATH.*apt-get install lammps" -- "$HG" validate --engine lammps $SYS
# ---- recommend --engine lammps: one answer in table, json and lammps ----
E="--psd powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4"
lines=$("$HG" recommend $E --format lammps | grep -v '^#')   # implies lammps
[ -n "$lines" ] && ok || bad "recommend --format lammps printed no settings"
[ "$("$HG" recommend --engine lammps $E --format lammps | grep -v '^#')" = "$lines" ] && ok || bad "--engine lammps --format lammps differs from --format lammps"
json=$("$HG" recommend --engine lammps $E --format json)
[ "$(jq -r '.settings[]' <<<"$json")" = "$lines" ] && ok || bad "json settings '$(jq -c .settings <<<"$json")' are not the lammps lines '$lines'"
jq -e '.engine == "lammps" and .schema == "hgridopt.lammps-recommendation/1" and (.version | length > 0) and .predicted_neigh_ms <= .bin_neigh_ms and .ratio_to_bin <= 1' <<<"$json" >/dev/null && ok || bad "lammps json: $json"
table=$("$HG" recommend --engine lammps $E)
[ "$(sed -n '/^settings (the lines of --format lammps):$/,$p' <<<"$table" | tail -n +2)" = "$lines" ] && ok || bad "table settings differ from the lammps lines: $table"
grep -q "^engine: *lammps" <<<"$table" && ok || bad "table: no engine line"
# the table's decision is the JSON's answer
ncoll=$(jq '.answer.collections' <<<"$json")
if [ "$ncoll" = 0 ]; then grep -q "^decision: *use bin:" <<<"$table"; else grep -q "^decision: *use multi with $ncoll collection" <<<"$table"; fi && ok || bad "table decision is not $ncoll collections"
# a LAMMPS model named by --model is the lammps engine: the same answer
[ "$("$HG" recommend --model lammps-multi $E --format json | jq -r '.settings[]')" = "$lines" ] && ok || bad "--model lammps-multi is not the lammps engine's answer"
[ "$("$HG" recommend --model lammps $E | sed -n '/^settings/,$p' | tail -n +2)" = "$lines" ] && ok || bad "--model lammps table is not the lammps engine's answer"
# --atoms reaches the model in every format (was ignored outside --format lammps)
a=$("$HG" recommend --engine lammps $E --format json --atoms 1000 | jq '.predicted_neigh_ms')
b=$("$HG" recommend --engine lammps $E --format json --atoms 1000000 | jq '.predicted_neigh_ms')
[ "$a" != "$b" ] && ok || bad "--atoms 1e3 and 1e6 give the same prediction ($a)"
# the hgrid engine says so; its LAMMPS export is the KOL levels
"$HG" recommend $E --format json | jq -e '.engine == "hgrid"' >/dev/null && ok || bad "hgrid json: no engine"
expect_ok "^# dim 3, nu 0.4, K [0-9.]+; HGrid top-down" -- "$HG" recommend --engine hgrid $E --format lammps
# contradictions are refused
expect_fail 2 "recommend --engine lammps: --model hgrid-top-down is not a model of the lammps engine" -- "$HG" recommend --engine lammps $E --model hgrid-top-down
expect_fail 2 "recommend --engine lammps: --model kol is not a model of the lammps engine" -- "$HG" recommend --engine lammps $E --model kol
expect_fail 2 "recommend --engine hgrid: --model lammps-multi is not a model of the hgrid engine" -- "$HG" recommend --engine hgrid $E --model lammps-multi
expect_fail 2 "recommend --engine lammps: --format mercurydpm" -- "$HG" recommend --engine lammps $E --format mercurydpm
# ---- an engine whose setting is its model's parameter (liggghts: the bin
# size): one answer in table, JSON and its format; --format implies it ----
export HGRIDOPT_LIGGGHTS_CALIBRATION="$TMP/no-liggghts.json"
lines=$("$HG" recommend --engine liggghts $E --format liggghts | grep -v '^#')
[ "$(printf '%s\n' "$lines" | head -1)" = "neighbor 0.2 bin" ] && printf '%s\n' "$lines" | grep -Eq '^neigh_modify binsize [0-9.]+$' && ok || bad "recommend --engine liggghts --format liggghts: $lines"
[ "$("$HG" recommend $E --format liggghts | grep -v '^#')" = "$lines" ] && ok || bad "--format liggghts does not imply the liggghts engine"
"$HG" recommend --engine liggghts $E --format liggghts | grep -q "^# not 'neighbor multi': in LIGGGHTS 3.8 it is a silent stub" && ok || bad "liggghts settings: no multi note"
lj=$("$HG" recommend --engine liggghts $E --format json)
echo "$lj" | jq -e --arg l "$lines" '.engine == "liggghts" and .model == "liggghts-bin" and .levels == 1 and (.settings | join("\n")) == $l and .predicted_ms > 0' > /dev/null && ok || bad "recommend --engine liggghts json: $lj"
lt=$("$HG" recommend --engine liggghts $E | sed -n '/^settings (the lines of --format liggghts):$/,$p' | tail -n +2)
[ "$lt" = "$lines" ] && ok || bad "recommend --engine liggghts table settings: $lt"
"$HG" recommend --engine liggghts $E | grep -q "^constants: *shipped defaults" && ok || bad "recommend --engine liggghts: no constants line"
expect_fail 2 "recommend --engine liggghts: --model lammps-multi is not a model of the liggghts engine" -- "$HG" recommend --engine liggghts $E --model lammps-multi
# ---- evaluate --engine lammps: the model for given cutoffs ----
cuts=$(jq -r '.answer.cutoffs | map(tostring) | join(",")' <<<"$json")
ev=$("$HG" evaluate --engine lammps $E --sizes "$cuts" --format json)
# the same prediction as recommend's for its own answer
jq -e -n --argjson r "$json" --argjson v "$ev" '(($r.predicted_neigh_ms - $v.predicted_neigh_ms) | fabs) <= 1e-9 * $r.predicted_neigh_ms and $r.bin_neigh_ms == $v.bin_neigh_ms and $v.setting.collections == $r.answer.collections' >/dev/null && ok || bad "evaluate --engine lammps --sizes $cuts does not predict recommend's time: $ev"
evl=$("$HG" evaluate --engine lammps $E --sizes "$cuts" --format lammps | grep -v '^#')
[ "$(jq -r '.settings[]' <<<"$ev")" = "$evl" ] && ok || bad "evaluate lammps: json settings differ from the lines"
[ "$("$HG" evaluate --engine lammps $E --sizes "$cuts" | sed -n '/^settings (the lines of --format lammps):$/,$p' | tail -n +2)" = "$evl" ] && ok || bad "evaluate lammps: table settings differ from the lines"
expect_ok "^neighbor 0\.2 bin$" -- "$HG" evaluate --engine lammps $E --format lammps
expect_ok "^setting: +multi with 1 collection \(cutoffs 40\)$" -- "$HG" evaluate --engine lammps $E --sizes 40
expect_fail 2 "evaluate --engine lammps: --model is for the hgrid engine" -- "$HG" evaluate --engine lammps $E --sizes 40 --model hgrid-top-down
expect_fail 2 "evaluate --engine lammps: --format mercurydpm" -- "$HG" evaluate --engine lammps $E --sizes 40 --format mercurydpm
expect_fail 2 "--sizes: .*below the largest|--sizes" -- "$HG" evaluate --engine lammps $E --sizes 10

# The LAMMPS model's constants are resolved once by the engine (the stored
# calibration, else the shipped ones) and passed to the model: evaluate
# --model lammps-multi follows the stored file; no cost model reads a file
# or includes anything of src/engines/ or src/cli/ (issue 25).
cal() { # cal FILE BINS: constants 1 ns per unit, BINS ns per bin
    printf '{"schema": "hgridopt.lammps-calibration/1", "unit": "seconds per unit of each count", "constants": {"checks": 1e-9, "visits": 1e-9, "bins": %s, "binned": 1e-9, "coll_loops": 1e-9, "neighbours": 1e-9}, "standard_errors": {"checks": 0, "visits": 0, "bins": 0, "binned": 0, "coll_loops": 0, "neighbours": 0}, "r2": 1, "points": 10, "machine": "test", "lammps": "test", "created": "2026-01-01T00:00:00Z"}\n' "$2" >"$1"
}
cal "$TMP/cheap.json" 1e-9
cal "$TMP/dear.json" 1e-7
LE="evaluate --model lammps-multi --psd powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4 --sizes 4,12,40 --format json"
t_cheap=$(HGRIDOPT_LAMMPS_CALIBRATION="$TMP/cheap.json" "$HG" $LE | jq .work_per_particle)
t_dear=$(HGRIDOPT_LAMMPS_CALIBRATION="$TMP/dear.json" "$HG" $LE | jq .work_per_particle)
t_none=$("$HG" $LE | jq .work_per_particle)
python3 -c "import sys; c, d, n = map(float, sys.argv[1:]); assert 0 < c < d and n not in (c, d)" "$t_cheap" "$t_dear" "$t_none" &&
    ok || bad "evaluate --model lammps-multi: T $t_cheap (cheap bins), $t_dear (dear bins), $t_none (shipped): the stored constants are not used"
expect_fail 1 "README.md: not valid JSON" -- env HGRIDOPT_LAMMPS_CALIBRATION="$SRC/README.md" "$HG" $LE
inc=$(grep -HnE '#include *"(cli|render_code|cmd_[a-z]*)\.h"|#include *"[^"]*(src/)?(engines|cli)/' "$SRC"/models/*.[ch] || true)
[ -z "$inc" ] && ok || bad "a cost model includes from src/engines/ or src/cli/: $inc"
for h in "$SRC"/src/engines/*/*.h "$SRC"/src/cli/*.h; do
    if grep -qE "#include *[\"<]([^\">]*/)?$(basename "$h")[\">]" "$SRC"/models/*.[ch]; then
        bad "a cost model includes $(basename "$h")"
    else ok; fi
done
# nor calls what reads a file (the stored constants are the engine's job)
calls=$(grep -HnE '\b(fopen|hg_consts_(auto|load|save)|hg_config_path|hg_calib[a-z_]*load|getenv)\b' "$SRC"/models/*.c || true)
[ -z "$calls" ] && ok || bad "a cost model reads files: $calls"

# evaluate never calls a ratio of LAMMPS' Neigh time (distance checks) to
# KOL pair checks a speed-up: a LAMMPS model gets no linked cell or bin
# speed-up, only its own engine's one-level model in the same units
# (issue 25)
LM="evaluate --psd powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4"
out=$("$HG" $LM --model lammps-multi --sizes 4,12,40)
grep -q '^no speed-up over the linked cell or bin: lammps-multi counts in other units' <<<"$out" &&
    ! grep -qE '^(linked cell|bin) .*speed-up|best single-level' <<<"$out" && ok ||
    bad "evaluate --model lammps-multi compares with KOL baselines: $out"
j=$("$HG" $LM --model lammps-multi --sizes 4,12,40 --format json)
tb=$("$HG" $LM --model lammps-bin --format json | jq .work_per_particle)
jq -e --argjson tb "$tb" 'has("speedup_vs_bin") == false and has("speedup_vs_linked_cell") == false and has("linked_cell_work_per_particle") == false
    and (.single_level_baselines | length) == 1 and .single_level_baselines[0].model == "lammps-bin"
    and .single_level_baselines[0].work_per_particle == $tb
    and ((.single_level_baselines[0].speedup - $tb / .work_per_particle) | fabs) < 1e-9 * .single_level_baselines[0].speedup' <<<"$j" >/dev/null &&
    ok || bad "evaluate --model lammps-multi json: $(jq -c 'del(.per_level, .K_choice)' <<<"$j")"
line=$(grep '^lammps-bin (one level, same units): T = ' <<<"$out")
[ -n "$line" ] && ok || bad "evaluate --model lammps-multi: no lammps-bin line: $out"
out=$("$HG" $LM --model lammps-bin)
grep -q '^no speed-up over the linked cell or bin: lammps-bin' <<<"$out" && ! grep -q 'same units' <<<"$out" && ok ||
    bad "evaluate --model lammps-bin: $out"
# the MercuryDPM export of a LAMMPS model has no linked-cell speed-up line
"$HG" $LM --model lammps-multi --sizes 4,12,40 --format mercurydpm | grep -q 'linked cell' &&
    bad "evaluate --model lammps-multi --format mercurydpm: a linked-cell speed-up" || ok
# the KOL models keep their baselines
"$HG" $LM --sizes 4,12,40 --format json | jq -e '.speedup_vs_bin > 0 and .speedup_vs_linked_cell > 0 and has("single_level_baselines") == false' >/dev/null &&
    ok || bad "evaluate (hgrid): baselines missing"

# --param NAME=VALUE,...: parameters the evaluated models declare (issue 25:
# recommend --model lammps-multi --format json was the same for 1e3 and
# 1e6 atoms); --atoms is --param atoms=N
PE="--psd powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4"
w3=$("$HG" evaluate $PE --model lammps-multi --sizes 4,12,40 --param atoms=1e3 --format json | jq .work_per_particle)
w6=$("$HG" evaluate $PE --model lammps-multi --sizes 4,12,40 --param atoms=1e6,ranks=4 --format json | jq .work_per_particle)
[ -n "$w3" ] && [ -n "$w6" ] && [ "$w3" != "$w6" ] && ok || bad "evaluate --param atoms: T $w3 (1e3) vs $w6 (1e6, 4 ranks)"
a3=$("$HG" recommend $PE --engine lammps --param atoms=1000 --format json | jq -c '[.atoms_per_rank, .settings]')
a6=$("$HG" recommend $PE --engine lammps --param atoms=1e6 --format json | jq -c '[.atoms_per_rank, .settings]')
al=$("$HG" recommend $PE --engine lammps --atoms 1000000 --format json | jq -c '[.atoms_per_rank, .settings]')
[[ $a3 == '[1000,'* ]] && [[ $a6 == '[1000000,'* ]] && [ "$a6" = "$al" ] && ok ||
    bad "recommend --engine lammps --param atoms: $a3 / $a6 / --atoms: $al"
r1=$("$HG" recommend $PE --model lammps-multi --param atoms=1e6 --format json | jq -c '[.ranks, .bin_neigh_ms]')
r4=$("$HG" recommend $PE --model lammps-multi --param atoms=1e6,ranks=4 --format json | jq -c '[.ranks, .bin_neigh_ms]')
[[ $r1 == '[1,'* ]] && [[ $r4 == '[4,'* ]] && [ "${r1#*,}" != "${r4#*,}" ] && ok || bad "recommend --param ranks=4: $r4 (1 rank: $r1)"
# --param skin is in units of the smallest diameter (2 here): 0.2 -> 0.4
expect_ok "^skin: +0.4, given \(--param skin=0.2: 0.2 x the smallest diameter\)$" -- "$HG" evaluate --engine lammps $PE --sizes 40 --param atoms=2e5,skin=0.2
# the atoms and one rank's share of them, in words and JSON
expect_ok "^dim 3, nu = 0.4, 1e\+06 atoms \(250000 per rank\), 4 ranks$" -- "$HG" recommend --engine lammps $PE --param atoms=1e6,ranks=4
expect_ok "neighbor build for 250000 atoms per rank" -- "$HG" evaluate --engine lammps $PE --sizes 40 --param atoms=1e6,ranks=4 --format lammps
r=$("$HG" recommend --engine lammps $PE --param atoms=1e6,ranks=4 --format json | jq -c '[.atoms, .atoms_per_rank, .ranks]')
[ "$r" = "[1000000,250000,4]" ] && ok || bad "recommend --engine lammps atoms=1e6 ranks=4: [atoms, atoms_per_rank, ranks] = $r"
# errors name the parameter and list the declared ones
expect_fail 2 "^hgridopt: --param foo: not a parameter of lammps-multi \(declared: atoms, skin, ranks\)$" -- "$HG" evaluate $PE --model lammps-multi --sizes 4,12,40 --param foo=1
expect_fail 2 "^hgridopt: --param atoms: not a parameter of hgrid-top-down \(declared: K, C, whole\)$" -- "$HG" evaluate $PE --sizes 4,12,40 --param atoms=1e6
expect_fail 2 "^hgridopt: --param atoms: not a parameter of the models evaluated \(declared: K, C, whole\)$" -- "$HG" recommend $PE --param atoms=1e6
expect_fail 2 "^hgridopt: --param K: give K with --K" -- "$HG" evaluate $PE --sizes 4,12,40 --param K=0.3
expect_fail 2 "^hgridopt: --param atoms: 'many' is not a number$" -- "$HG" recommend $PE --engine lammps --param atoms=many
expect_fail 2 "^hgridopt: --param atoms: 0 must be >= 1 \(atoms in the simulation\)$" -- "$HG" recommend $PE --engine lammps --param atoms=0
expect_fail 2 "^hgridopt: --param ranks: 5000 must be <= 4096 \(MPI ranks\)$" -- "$HG" recommend $PE --engine lammps --param ranks=5000
expect_fail 2 "^hgridopt: --param: 'atoms' is not NAME=VALUE" -- "$HG" recommend $PE --engine lammps --param atoms
expect_fail 2 "^hgridopt: --param atoms: given twice$" -- "$HG" recommend $PE --engine lammps --param atoms=1,atoms=2
expect_fail 2 "^hgridopt: --atoms: the same as --param atoms=N; give one$" -- "$HG" recommend $PE --engine lammps --param atoms=1e6 --atoms 5
b1=$("$HG" evaluate $PE --model bin --format json | jq .work_per_particle)
b5=$("$HG" evaluate $PE --model bin --param bin=0.5 --format json | jq .work_per_particle)
[ -n "$b5" ] && [ "$b1" != "$b5" ] && ok || bad "evaluate --model bin --param bin=0.5: T $b5 (default $b1)"
expect_fail 2 "^hgridopt: --param skin: --skin gives the skin too" -- "$HG" recommend $PE --engine lammps --param skin=0.2 --skin 0.3
finish
