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
# changed: that is what the summary is for); 1 a check or a test failed; 3 some change was
# reached by no scenario (add a scenario that reaches it, or take the boundary days'
# word for it and merge anyway).
set -uo pipefail
rules="$1" base="$2" head="$3" summary="$4" format="${5:-github}"

cd "$head" || exit 2
"$rules" check . --format "$format" || exit 1
"$rules" test scenarios/ || exit 1
"$rules" diff "$base" . --format markdown --out "$summary"
case $? in
    0) echo "rules diff: no behaviour changed, every change reached" ;;
    1) echo "rules diff: behaviour changed; the summary says how" ;;
    3) echo "rules diff: a change no scenario reached; the summary names it and its boundary days"; exit 3 ;;
    *) echo "rules diff could not run"; exit 2 ;;
esac
