#!/bin/bash
# Thirty-sixth session: shogi datagen on the device machine's 16 cores (an H200 machine; the
# GPU unused). The binary is 7fabade's release build (the third shogi network built in),
# carried in .dev/dg (ignored); docs/ was moved aside for the call to keep the working tree
# under the tool's 64 MiB. Run as `DGT=500 bash run.sh` (seed 6), then with the seed 7 and a
# 265 s limit. The run is killed at its limit; its last line, perhaps cut short, is dropped.
# Seed 6: 3,720 games, 228,773 positions in 500 s; seed 7: 2,120 games, 130,010 in 265 s.
B=.dev/dg/shishi
nproc; free -g | head -2; uname -a
$B --version 2>&1 | head -2
T=$(nproc)
timeout -s KILL ${DGT:-500} $B datagen --variant shogi --games 1000000 --nodes 5000 --threads $T --seed 6 --out /tmp/s6.txt 2>/tmp/dg.log
tail -3 /tmp/dg.log
wc -l /tmp/s6.txt
head -n -1 /tmp/s6.txt > /tmp/s6c.txt
wc -l /tmp/s6c.txt
gzip -1 -c /tmp/s6c.txt | split -b 15M -d - $OUT/s6.gz.part
cp /tmp/dg.log $OUT/dg.log 2>/dev/null
ls -la $OUT
