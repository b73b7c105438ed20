# The twenty-second session's device screens (docs/strength-log.md). Two scripts, run from a folder
# holding the knob build as ./knob (search-knobs-twentysecond.patch, cargo build --release);
# the device tool ran each as 'bash .dev/run.sh' with .dev carried, $OUT its output folder.
#
# ---- run.sh (470 s) ----
#!/bin/bash
# Device screen: five search knobs against the same build, 400 games of shogi self-play each at 1+0.02.
cd "$(dirname "$0")"; D=$(pwd); T=/tmp/res; mkdir -p $T
nproc; uname -a
for k in K2=8 K3=1 K4=4 K6=250 K8=1; do
  n=${k/=/-}
  printf '#!/bin/sh\nexport SH_%s\nexec %s/knob "$@"\n' "$k" "$D" > w-$n; chmod +x w-$n
done
./knob bench 2>&1 | grep -i nodes
seed=2201
for n in K2-8 K3-1 K4-4 K6-250 K8-1; do
  timeout ${LIM:-470} ./knob match --variant shogi --engine $n=usi:$D/w-$n --engine base=usi:$D/knob --games 400 --tc 1+0.02 --random-plies 4 --seed $seed --concurrency 3 --max-plies 300 --pgn $T/$n-seed$seed.pgn > $T/$n-seed$seed.log 2>&1 &
  seed=$((seed+1))
done
wait
for f in $T/*.log; do echo "== $f"; grep "^Score of" $f | tail -1; grep -c -i "time\|illegal" $f; tail -n 2 $f; done
tar czf $OUT/res.tgz -C $T .

# ---- run2.sh (LIM=200) ----
#!/bin/bash
cd "$(dirname "$0")"; D=$(pwd); T=/tmp/res2; mkdir -p $T
mk() { n=$1; shift; { echo '#!/bin/sh'; for e in "$@"; do echo "export SH_$e"; done; echo "exec $D/knob \"\$@\""; } > w-$n; chmod +x w-$n; }
mk K3-1 K3=1; mk K8-1 K8=1; mk K3K8 K3=1 K8=1
run() { timeout ${LIM:-200} ./knob match --variant shogi --engine $1=usi:$D/w-$1 --engine base=usi:$D/knob --games 400 --tc 1+0.02 --random-plies 4 --seed $2 --concurrency 3 --max-plies 300 --pgn $T/$1-seed$2.pgn > $T/$1-seed$2.log 2>&1 & }
run K3-1 2206; run K8-1 2207; run K3K8 2208; run K3-1 2209; run K3K8 2210
wait
for f in $T/*.log; do echo "== $f"; grep "^Score of" $f | tail -1; grep -c -i "loses on time\|illegal" $f; done
tar czf $OUT/res2.tgz -C $T .
