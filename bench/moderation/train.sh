#!/usr/bin/env bash
# Trains the learned half of the offline screener and writes it where the service reads it,
# src/main/resources/moderation/model.bin (bench/moderation/TrainScreener.java; docs/safety.md, How it screens).
# It learns from every labelled set of this directory but the held-out ones (held-out.tsv, held-out-2.tsv,
# plain-held-out.tsv), which measure it (bench/moderation/run.sh). The same files give the same model, byte for byte.
#   bench/moderation/train.sh [-Dbits=18 -Depochs=30 -Dpositive=1 -Dl2=1e-3 -Dthreshold=0.8 -Dseeds=5] [OUT]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
. bin/find-java
./mvnw -B -q -o compile -Dspotless.check.skip=true 2>/dev/null || ./mvnw -B -q compile -Dspotless.check.skip=true
options=()
while [ $# -gt 0 ] && [[ "$1" == -D* ]]; do options+=("$1"); shift; done
out="${1:-src/main/resources/moderation/model.bin}"
d=bench/moderation
exec "$JAVA_HOME/bin/java" "${options[@]}" -cp target/classes $d/TrainScreener.java "$out" \
    $d/corpus.tsv $d/corpus-2.tsv $d/train-en-de.tsv $d/train-fr-es.tsv \
    $d/train-2-en.tsv $d/train-2-de.tsv $d/train-2-fr.tsv $d/train-2-es.tsv \
    $d/plain-en.tsv $d/plain-de.tsv $d/plain-fr.tsv $d/plain-es.tsv
