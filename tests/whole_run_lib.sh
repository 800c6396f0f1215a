# whole_run_lib.sh - what the whole-run benchmark and the schedule test
# share (sourced).

# with_schedule INPUT JSON: the input with the schedule's phases of the
# advice (recommend --format json): the first phase's lines in place of
# the neighbor line, each later phase's lines before the run that starts
# at its first step (a run that holds it is split there)
with_schedule() {
    python3 - "$1" "$2" << 'PY'
import json, sys
base = open(sys.argv[1]).read().split('\n')
adv = json.load(open(sys.argv[2]))
ph = adv["schedule"]
out, step, done, k = [], 0, False, 1
for line in base:
    w = line.split()
    if w[:1] == ["neighbor"] and not done:
        out += ph[0]["lines"].rstrip("\n").split("\n")
        done = True
        continue
    if w[:1] == ["run"]:
        n = int(w[1])
        while k < len(ph) and step <= ph[k]["from_step"] < step + n:
            cut = ph[k]["from_step"] - step
            if cut > 0:
                out.append("run %d" % cut)
            out += ph[k]["lines"].rstrip("\n").split("\n")
            step, n, k = step + cut, n - cut, k + 1
        if n > 0:
            out.append("run %d" % n)
        step += n
        continue
    out.append(line)
print("\n".join(out))
PY
}
