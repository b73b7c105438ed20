#!/bin/bash
# Thirty-sixth session: shogi datagen on the device machine's 16 cores (an H200 machine; the
# GPU unused). The binary is 7fabade's release build (the third shogi network built in),
# carried in .dev/dg (ignored); docs/ was moved aside for the call to keep the working tree
# under the tool's 64 MiB. Run as `DGT=500 bash run.sh` (seed 6), then as `SEED=7 DGT=265
# bash run.sh` (that run was this script with its 6s edited to 7s by sed, the same commands).
# The run is killed at its limit; its last line, perhaps cut short, is dropped.
# Seed 6: 3,720 games, 228,773 positions in 500 s; seed 7: 2,120 games, 130,010 in 265 s.
B=.dev/dg/shishi
nproc; free -g | head -2; uname -a
$B --version 2>&1 | head -2
T=$(nproc)
S=${SEED:-6}
timeout -s KILL ${DGT:-500} $B datagen --variant shogi --games 1000000 --nodes 5000 --threads $T --seed $S --out /tmp/s$S.txt 2>/tmp/dg.log
tail -3 /tmp/dg.log
wc -l /tmp/s$S.txt
head -n -1 /tmp/s$S.txt > /tmp/s${S}c.txt
wc -l /tmp/s${S}c.txt
gzip -1 -c /tmp/s${S}c.txt | split -b 15M -d - $OUT/s$S.gz.part
cp /tmp/dg.log $OUT/dg.log 2>/dev/null
ls -la $OUT
