#!/usr/bin/env bash
# How well the offline reviewer's grades of written answers agree with human graders' (docs/benchmarks.md, "Grading
# written answers"): bench/grading-agreement/GradingAgreement.java, run in one JVM on the service's own classes (no
# service, no database). The data sets are not in this repository (nor in the jar, nor on the tests' class path):
#
#   bench/grading-agreement/run.sh mohler DIR   DIR = ShortAnswerGrading_v2.0/data of Mohler, Bunescu and Mihalcea
#       (2011, University of North Texas): 2,273+ answers to 80+ questions of an introductory computer-science course,
#       each scored 0-5 by two graders. Published by the authors for research (web.eecs.umich.edu/~mihalcea/
#       downloads.html; also in the GitHub repository dbbrandt/short_answer_granding_capstone_project under
#       data/source_data/); it states no licence, so it is used where it lies and not copied here.
#   bench/grading-agreement/run.sh page         what the model costs a review of a 500-word page (no data needed)
#   bench/grading-agreement/run.sh saf DIR      DIR = SAF2_0 (or any directory of its English XML files) of SAF, Short
#       Answer Feedback (Filighera et al., 2022; GitHub SebOchs/SAF, file SAF2_0.zip; MIT licence in that repository,
#       CC BY 4.0 on the authors' Hugging Face page): 2,981 answers to 31 questions on communication networks, one
#       grader's score each.
#
# Prints the figures of docs/benchmarks.md; EXPLORE=1 adds the measures that were compared to choose the closeness.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
. bin/find-java
./mvnw -B -q -o compile -Dspotless.check.skip=true 2>/dev/null || ./mvnw -B -q compile -Dspotless.check.skip=true
./mvnw -B -q -o dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime >/dev/null
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "target/classes:$(cat target/classpath.txt)" \
  bench/grading-agreement/GradingAgreement.java "$@"
