#!/usr/bin/env bash
# Renders HTML reports in headless Chromium at a phone's width (390 px) and a desktop's
# (1440 px): each screenshot must be a PNG of that width that is not blank, and no element
# may reach past the page's right edge (tables scroll inside their own box).
# Usage: .ci/render-report.sh REPORT.html…
set -euo pipefail
work="$(mktemp -d)"
for report in "$@"; do
    name="$(basename "$report" .html)"
    for width in 390 1440; do
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
        # The probe: the page pinned to the width, every element's right edge measured.
        probe="$work/probe.html"
        sed "s|</body>|<style>html{width:${width}px}</style><script>var W=$width,bad=0,worst='';document.querySelectorAll('body *').forEach(function(e){var r=e.getBoundingClientRect();if(r.right>W+1\&\&!e.closest('.table')){bad++;worst=e.tagName+'.'+e.className;}});document.title='overflow:'+bad+':'+worst;</script></body>|" \
            "$report" >"$probe"
        title="$(timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,1600" --dump-dom "file://$probe" 2>/dev/null | grep -o '<title>overflow:[^<]*' | head -1)"
        if [ "$title" != "<title>overflow:0:" ]; then
            echo "$report at $width px: elements past the right edge ($title)"
            exit 1
        fi
        echo "$report at $width px: no horizontal overflow"
    done
done
