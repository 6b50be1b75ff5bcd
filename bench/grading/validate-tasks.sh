#!/usr/bin/env bash
# Validates the grading tasks in bench/grading/tasks/.
#
# For every task directory it checks the file layout, then runs the task's
# test_solution.py (with /usr/bin/python3 -I -m pytest) against reference.py
# and each submission, each copied alone as solution.py into a fresh temp dir.
# Required outcomes:
#   reference, correct, otherwise : every test passes
#   wrong                         : imports fine, at least one test fails
#   empty                         : at least one test fails
#   broken                        : collection fails with a SyntaxError
# Prints one line per task and exits non-zero if any requirement fails.
#
# Usage: bench/grading/validate-tasks.sh [task-name ...]

set -u

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TASKS_DIR="$HERE/tasks"
PY=/usr/bin/python3
EXPECTED_FILES="reference.py
submissions/broken.py
submissions/correct.py
submissions/empty.py
submissions/otherwise.py
submissions/wrong.py
task.md
test_solution.py"

WORK="$(mktemp -d -t validate-tasks.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# run_one TASK_DIR FILE -> sets RC, PASSED, FAILED, ERRORS, OUT
run_one() {
    local task_dir=$1 file=$2 dir
    dir="$(mktemp -d "$WORK/run.XXXXXX")"
    cp "$task_dir/test_solution.py" "$dir/test_solution.py"
    cp "$file" "$dir/solution.py"
    OUT="$(cd "$dir" && env -u PYTEST_ADDOPTS -u PYTEST_PLUGINS \
        timeout 60 "$PY" -I -m pytest -q -p no:cacheprovider test_solution.py 2>&1)"
    RC=$?
    local summary
    summary="$(printf '%s\n' "$OUT" | tail -n 1)"
    PASSED="$(printf '%s' "$summary" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || true)"
    FAILED="$(printf '%s' "$summary" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' || true)"
    ERRORS="$(printf '%s' "$summary" | grep -oE '[0-9]+ errors?' | grep -oE '[0-9]+' || true)"
    PASSED=${PASSED:-0}; FAILED=${FAILED:-0}; ERRORS=${ERRORS:-0}
    rm -rf "$dir"
}

status=0
count=0
if [ $# -gt 0 ]; then
    names=("$@")
else
    names=()
    for d in "$TASKS_DIR"/*/; do names+=("$(basename "$d")"); done
fi

for name in "${names[@]}"; do
    task_dir="$TASKS_DIR/$name"
    count=$((count + 1))
    problems=()
    if [ ! -d "$task_dir" ]; then
        echo "$name: FAIL (no such task directory)"
        status=1
        continue
    fi

    files="$(cd "$task_dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)"
    if [ "$files" != "$EXPECTED_FILES" ]; then
        problems+=("unexpected file layout")
    fi
    if [ ! -f "$task_dir/test_solution.py" ]; then
        echo "$name: FAIL (no test_solution.py)"
        status=1
        continue
    fi
    total="$(grep -cE '^def test_[A-Za-z0-9_]*\(\):' "$task_dir/test_solution.py")"
    if [ "$total" -lt 4 ] || [ "$total" -gt 8 ]; then
        problems+=("has $total tests, expected 4-8")
    fi
    md_lines="$(grep -c '' "$task_dir/task.md" 2>/dev/null || echo 0)"
    if [ "$md_lines" -lt 2 ] || [ "$md_lines" -gt 5 ] \
        || ! grep -qF 'Submit it in a file named solution.py.' "$task_dir/task.md" 2>/dev/null; then
        problems+=("task.md malformed")
    fi

    line="$name:"
    for who in reference correct otherwise wrong empty broken; do
        if [ "$who" = reference ]; then file="$task_dir/reference.py"; else file="$task_dir/submissions/$who.py"; fi
        if [ ! -f "$file" ]; then
            line+=" $who=missing"
            problems+=("$who missing")
            continue
        fi
        run_one "$task_dir" "$file"
        case $who in
            reference|correct|otherwise)
                line+=" $who=$PASSED/$total"
                if [ "$RC" -ne 0 ] || [ "$PASSED" -ne "$total" ] || [ "$FAILED" -ne 0 ]; then
                    problems+=("$who does not pass all tests (rc=$RC)")
                fi
                ;;
            wrong|empty)
                line+=" $who=$PASSED/$total"
                if [ "$RC" -ne 1 ] || [ "$FAILED" -lt 1 ] || [ "$ERRORS" -ne 0 ] \
                    || [ $((PASSED + FAILED)) -ne "$total" ]; then
                    problems+=("$who should import and fail at least one test (rc=$RC)")
                fi
                ;;
            broken)
                if [ "$RC" -eq 2 ] && printf '%s' "$OUT" | grep -q 'SyntaxError'; then
                    line+=" broken=SyntaxError"
                else
                    line+=" broken=rc$RC"
                    problems+=("broken should fail collection with a SyntaxError (rc=$RC)")
                fi
                ;;
        esac
    done

    # wrong.py must differ from reference.py in exactly one line
    changed="$(diff "$task_dir/reference.py" "$task_dir/submissions/wrong.py" 2>/dev/null | grep -c '^[<>]')"
    if [ "$changed" -ne 2 ]; then
        problems+=("wrong.py is not a one-line change of reference.py")
    fi

    if [ ${#problems[@]} -eq 0 ]; then
        echo "$line OK"
    else
        status=1
        msg="$(printf '%s; ' "${problems[@]}")"
        echo "$line FAIL (${msg%; })"
    fi
done

if [ "$count" -eq 0 ]; then
    echo "no tasks found in $TASKS_DIR"
    status=1
fi
exit $status
