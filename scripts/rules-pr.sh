#!/usr/bin/env bash
# What a pull request's CI job runs on a ruleset (docs/CI.md shows it in GitHub Actions and
# GitLab CI; the repository's own CI runs it on a copy with a change, so the document stays true).
#
#   scripts/rules-pr.sh RULES BASE_DIR HEAD_DIR SUMMARY.md [FORMAT]
#
# RULES: the built `rules` binary. BASE_DIR: a checkout of the pull request's base; HEAD_DIR:
# of its head. SUMMARY.md: where the Markdown diff goes (a job summary or a comment). FORMAT:
# the format of `rules check`'s findings (github: annotations on the changed lines; text).
# Exit status: 0 the checks and tests pass and every change was reached (behaviour may have
# changed: that is what the summary is for); 1 a check or a test failed (after a failed test the
# summary is still written: the failing expectations at its top, then the diff); 3 some change
# was reached by no scenario (add a scenario that reaches it, or take the boundary days' word
# for it and merge anyway).
set -uo pipefail
rules="$1" base="$2" head="$3" summary="$4" format="${5:-github}"

cd "$head" || exit 2
if ! "$rules" check . --format "$format"; then
    printf '### rules check failed\n\nThe ruleset has errors (the job log and the annotations name them): no behavioural diff was made.\n' > "$summary"
    exit 1
fi
# The tests' verdict is kept for the end: the diff is written either way, since a pull request
# that moves a notice fails the scenarios' expectations and is exactly the one whose reviewers
# need to see what moved.
tests="$("$rules" test scenarios/ 2>&1)"; tested=$?
printf '%s\n' "$tests"
"$rules" diff "$base" . --format markdown --out "$summary.diff"
diffed=$?
{
    if [ "$tested" -ne 0 ]; then
        printf '### rules test: scenario expectations failed\n\n'
        printf 'What the scenarios expect no longer happens (the diff below says what moved). If the new behaviour is intended, run `rules test scenarios/ --update` and commit the updated expectations; if not, the change is the bug.\n\n'
        printf '```\n'
        # Each failing expectation with what it expected and what happened, at most 20.
        printf '%s\n' "$tests" | awk '/^FAIL [^ ]+:[0-9]+/ { n++; keep = n <= 20 } /^FAIL [^ ]+ — / { keep = 0 }
            keep && (/^FAIL / || /^  expected:/ || /^  actual:/) { print }'
        printf '```\n\n'
    fi
    [ -f "$summary.diff" ] && cat "$summary.diff"
} > "$summary"
rm -f "$summary.diff"
case $diffed in
    0) echo "rules diff: no behaviour changed, every change reached" ;;
    1) echo "rules diff: behaviour changed; the summary says how" ;;
    3) echo "rules diff: a change no scenario reached; the summary names it and its boundary days" ;;
    *) echo "rules diff could not run"; exit 2 ;;
esac
[ "$tested" -eq 0 ] || { echo "rules test: scenario expectations failed (summarised at the top of $summary)"; exit 1; }
[ "$diffed" -eq 3 ] && exit 3
exit 0
