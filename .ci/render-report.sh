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
        # And every text's rendered size: its font size, times its SVG's scale (an SVG shrunk
        # to the width shrinks its labels); under 10 px fails.
        sed "s|</body>|<style>html{width:${width}px}</style><script>var W=$width,bad=0,worst='',small=0,tiny='';document.querySelectorAll('body *').forEach(function(e){var r=e.getBoundingClientRect();if(r.right>W+1\&\&!e.closest('.table')){bad++;worst=e.tagName+'.'+e.className;}var t=Array.prototype.some.call(e.childNodes,function(n){return n.nodeType==3\&\&n.textContent.trim()!='';});if(t\&\&r.width>0){var f=parseFloat(getComputedStyle(e).fontSize),s=e.ownerSVGElement,k=1;if(s\&\&s.viewBox\&\&s.viewBox.baseVal\&\&s.viewBox.baseVal.width){k=s.getBoundingClientRect().width/s.viewBox.baseVal.width;}if(f*k<10){small++;tiny=e.tagName+'.'+(e.getAttribute('class')\|\|'')+'='+(f*k).toFixed(1);}}});document.title='overflow:'+bad+':'+worst+'\|small:'+small+':'+tiny;</script></body>|" \
            "$report" >"$probe"
        title="$(timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,1600" --dump-dom "file://$probe" 2>/dev/null | grep -o '<title>overflow:[^<]*' | head -1)"
        if [ "$title" != "<title>overflow:0:|small:0:" ]; then
            echo "$report at $width px: elements past the right edge, or text under 10 px ($title)"
            exit 1
        fi
        echo "$report at $width px: no horizontal overflow"
    done
done
