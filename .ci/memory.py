#!/usr/bin/env python3
"""Memory ceiling: every command at the input limits stays under 512 MiB peak RSS, and a
scenario's days do not make memory grow (1,000 → 10,000 days within 2x, under 200 MB).

Generates inputs at the limits (a 4 MiB scenario day of app opens, a 4 MiB rule file, a
population at its bounds), runs each command as its own process and reads that process's
peak resident set size from wait4(). Usage: .ci/memory.py RULES_BINARY
"""
import os
import shutil
import subprocess
import sys
import tempfile

CEILING_KB = 512 * 1024
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generate(work):
    """Writes the inputs at the limits into `work` (run in a child process: see below)."""
    for folder in ("routines", "rules", "templates", "populations"):
        shutil.copytree(os.path.join(root, folder), os.path.join(work, folder))
    os.makedirs(os.path.join(work, "scenarios"))

    # A 4 MiB day of app opens (the scenario file limit).
    lines = ["name: opens", "date: 2026-07-06", "timezone: Asia/Seoul", "events:"]
    count = 135_000
    for index in range(count):
        seconds = 8 * 3600 + index * 14 * 3600 // count
        lines.append('  - { at: "%02d:%02d", app: open }' % (seconds // 3600, seconds % 3600 // 60))
    lines.append("expect: [{ day: failed }]")
    day = os.path.join(work, "scenarios", "opens.yaml")
    with open(day, "w") as out:
        out.write("\n".join(lines) + "\n")
    assert os.path.getsize(day) <= 4 * 1024 * 1024

    # A 4 MiB rule file: forbidden phrases.
    phrases = []
    size = 0
    index = 0
    while size < 4 * 1024 * 1024 - 100_000:
        phrase = "금지어%06d" % index
        phrases.append(phrase)
        size += len(phrase.encode()) + 2
        index += 1
    with open(os.path.join(work, "templates", "zz_phrases.yaml"), "w") as out:
        out.write("forbidden_phrases: [" + ", ".join(phrases) + "]\n")


def peak(arguments):
    """Runs `rules ARGUMENTS` in the work directory; returns (exit status, peak RSS in KB)."""
    with open(os.devnull, "w") as sink:
        process = subprocess.Popen([rules] + arguments, cwd=work, stdout=sink, stderr=sink)
        _, status, usage = os.wait4(process.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss


# Scenarios of 1,000 and 10,000 days, an app open and an expectation each: memory must not
# grow with the days (within 2x, and under 200 MB at 10,000).
def long_scenario(work, days):
    import datetime
    first = datetime.date(2026, 1, 1)
    out = ["name: long", "timezone: Asia/Seoul", "routines: [water]", "days:"]
    for index in range(days):
        out.append("  - date: %s" % (first + datetime.timedelta(days=index)))
        out.append('    events: [{ at: "09:00", app: open }]')
        out.append('    expect: [{ at: "09:00", route: regular }]')
    path = os.path.join(work, "scenarios", "long%d.yaml" % days)
    with open(path, "w") as handle:
        handle.write("\n".join(out) + "\n")
    return "scenarios/long%d.yaml" % days


if len(sys.argv) == 3 and sys.argv[1] == "--generate":
    generate(sys.argv[2])
    for days in (1000, 10000):
        long_scenario(sys.argv[2], days)
    sys.exit(0)

rules = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp()
subprocess.run([sys.executable, os.path.abspath(__file__), "--generate", work], check=True)
long_runs = []
for days in (1000, 10000):
    name = "scenarios/long%d.yaml" % days
    long_runs += [["test", name], ["simulate", name, "--format", "json"], ["simulate", name, "--format", "html"]]

runs = [
    ["check", "."],
    ["test", "scenarios/opens.yaml"],
    ["simulate", "scenarios/opens.yaml", "--format", "json", "--out", "opens.json"],
    ["population", "populations/office_workers.yaml", "--users", "2000", "--days", "30", "--jobs", "2"],
]
failed = False
for arguments in runs:
    code, kilobytes = peak(arguments)
    verdict = "ok" if kilobytes < CEILING_KB and code in (0, 1) else "OVER" if kilobytes >= CEILING_KB else "FAILED"
    print("%-5s %6d MB  exit %d  rules %s" % (verdict, kilobytes // 1024, code, " ".join(arguments)))
    failed = failed or verdict != "ok"
# The long scenarios run on the shipped rule files alone (the 4 MiB phrase file would weigh
# more than any day).
os.remove(os.path.join(work, "templates", "zz_phrases.yaml"))
peaks = {}
for arguments in long_runs:
    code, kilobytes = peak(arguments)
    peaks[tuple(arguments)] = kilobytes
    print("      %6d MB  exit %d  rules %s" % (kilobytes // 1024, code, " ".join(arguments)))
    failed = failed or code not in (0, 1)
for small, large in zip(long_runs[:3], long_runs[3:]):
    grows = peaks[tuple(large)] / max(peaks[tuple(small)], 1)
    flat = grows <= 2 and peaks[tuple(large)] < 200 * 1024
    print("%-5s 1,000 → 10,000 days: %.1fx  rules %s" % ("ok" if flat else "GROWS", grows, " ".join(large[:1] + large[2:])))
    failed = failed or not flat
shutil.rmtree(work)
sys.exit(1 if failed else 0)
