#!/usr/bin/env bash
# Renders HTML reports in headless Chromium at a phone's width (390 px), a laptop's (1200 px)
# and a desktop's (1440 px): each screenshot must be a PNG of that width that is not blank,
# and .ci/render-probe.js must find nothing wrong inside the page's boxes (no chart wider than
# its card, no label overlapping another or leaving its chart, no text under 10 px, no number
# or Korean word broken across lines, no box that scrolls sideways, tables included, and no
# cell that cuts its text).
# Usage: .ci/render-report.sh REPORT.html…   (PROBE_ONLY=1: the probe alone, no screenshot checks;
# .ci/run uses it to show that the probe fails on each page of .ci/probe-cases/)
set -euo pipefail
work="$(mktemp -d)"
for report in "$@"; do
    name="$(basename "$report" .html)"
    for width in 390 1200 1440; do
        if [ -z "${PROBE_ONLY:-}" ]; then
        timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,1600" \
            --screenshot="$work/$name-$width.png" "file://$(realpath "$report")" >/dev/null 2>&1 || true
        python3 - "$work/$name-$width.png" "$width" <<'PY'
import struct, sys, zlib
path, width = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert w == width, f"{path}: {w} px wide, expected {width}"
# A blank page compresses to almost nothing: demand real content.
assert len(data) > 40_000, f"{path}: suspiciously small PNG ({len(data)} bytes): blank?"
print(f"{path}: {w}x{h}, {len(data)} bytes")
PY
        fi
        # The probe (.ci/render-probe.js): the page pinned to the width, then every element
        # measured inside its boxes, every chart label, text size and number.
        probe="$work/probe.html"
        { printf '<script>var W=%s;</script><style>html{width:%spx}</style><script>window.addEventListener("load",function(){' "$width" "$width"
          cat "$(dirname "$0")/render-probe.js"
          printf '});</script>'; } >"$work/probe-tail.html"
        python3 - "$report" "$work/probe-tail.html" "$probe" <<'PY'
import sys
page, tail, out = sys.argv[1:4]
text = open(page, encoding="utf-8").read()
inject = open(tail, encoding="utf-8").read()
at = text.rfind("</body>")
open(out, "w", encoding="utf-8").write(text[:at] + inject + text[at:] if at >= 0 else text + inject)
PY
        title="$(timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,1600" --virtual-time-budget=5000 --dump-dom "file://$probe" 2>/dev/null | grep -o '<title>probe:[^<]*' | head -1)"
        if [ "$title" != "<title>probe:0:" ]; then
            echo "$report at $width px: ${title#<title>probe:}"
            exit 1
        fi
        echo "$report at $width px: nothing cut, overflowing, overlapping, too small or broken"
    done
done
