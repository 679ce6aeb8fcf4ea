// Injected into a copy of a report by render-report.sh, with W (the window's width) set.
// Measures what a reader sees, inside boxes and not only at the page's edge, and writes the
// verdict into document.title as "probe:N:first problems" (N = 0 when all is well):
// - no element reaches past the page's right edge;
// - no element is cut by a box that clips or scrolls it (a chart wider than its card, a
//   table cell's text cut by the cell: "5시간 3");
// - no box scrolls sideways, a table's included: a sideways scroll hides columns with no cue;
// - an SVG chart's labels stay inside the chart and never overlap one another;
// - no text renders under 10 px (font size times the SVG's scale);
// - no number breaks across lines (1,000 or 20:30 wraps whole or not at all), and no Korean
//   word breaks inside itself (직장/인).
(function () {
  var problems = [];
  function name(e) {
    var c = e.getAttribute && e.getAttribute('class');
    return e.tagName.toLowerCase() + (c ? '.' + c.split(' ')[0] : '');
  }
  function clips(e) {
    var s = getComputedStyle(e);
    return s.overflowX !== 'visible' || s.overflow === 'hidden';
  }
  var all = document.querySelectorAll('body *');
  all.forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    if (r.right > W + 1) problems.push('past the page: ' + name(e));
    // Cut by a clipping ancestor.
    for (var a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (!clips(a)) continue;
      var b = a.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1) problems.push('cut by ' + name(a) + ': ' + name(e));
      break;
    }
    // A chart is never wider than the box that holds it, not even a table's scrolling box.
    if (e.tagName.toLowerCase() === 'svg') {
      for (var c = e.parentElement; c && c !== document.body; c = c.parentElement) {
        if (!clips(c)) continue;
        var cb = c.getBoundingClientRect();
        if (r.width > cb.width + 1) problems.push('chart wider than its box: ' + name(c) + ' holds ' + name(e));
        break;
      }
    }
    // A box that scrolls sideways holds something wider than itself; a box that clips its
    // own text (a cell with overflow hidden or an ellipsis) cuts it.
    if (e.scrollWidth > e.clientWidth + 1 && clips(e) && e.tagName !== 'svg')
      problems.push((getComputedStyle(e).overflowX === 'hidden' || getComputedStyle(e).overflowX === 'clip' ? 'text cut in ' : 'scrolls sideways: ') + name(e));
    // Text size, scaled by its SVG.
    var hasText = Array.prototype.some.call(e.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim() !== ''; });
    if (hasText && r.width > 0) {
      var f = parseFloat(getComputedStyle(e).fontSize), s = e.ownerSVGElement, k = 1;
      if (s && s.viewBox && s.viewBox.baseVal && s.viewBox.baseVal.width) k = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
      if (f * k < 10) problems.push('text under 10 px: ' + name(e) + '=' + (f * k).toFixed(1));
    }
  });
  // Chart labels: inside the chart, never on top of each other.
  document.querySelectorAll('svg').forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    var labels = Array.prototype.map.call(svg.querySelectorAll('text'), function (t) { return { t: t, r: t.getBoundingClientRect() }; })
      .filter(function (l) { return l.r.width > 0 && l.t.textContent.trim() !== ''; });
    labels.forEach(function (l) {
      if (l.r.left < box.left - 1 || l.r.right > box.right + 1 || l.r.top < box.top - 1 || l.r.bottom > box.bottom + 1)
        problems.push('label leaves its chart: "' + l.t.textContent.trim() + '"');
    });
    for (var i = 0; i < labels.length; i++) {
      for (var j = i + 1; j < labels.length; j++) {
        var a = labels[i].r, b = labels[j].r;
        var x = Math.min(a.right, b.right) - Math.max(a.left, b.left), y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) problems.push('labels overlap: "' + labels[i].t.textContent.trim() + '" and "' + labels[j].t.textContent.trim() + '"');
      }
    }
  });
  // Numbers and Korean words whole on one line.
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  var node;
  while ((node = walker.nextNode())) {
    if (node.parentElement && node.parentElement.closest('svg, script, style')) continue;
    var re = /\d[\d,.:]*\d|[\uAC00-\uD7A3]{2,}/g, m;
    while ((m = re.exec(node.textContent))) {
      var range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      var rects = Array.prototype.filter.call(range.getClientRects(), function (q) { return q.width > 0; });
      var lines = {};
      rects.forEach(function (q) { lines[Math.round(q.top)] = true; });
      if (Object.keys(lines).length > 1) problems.push((/\d/.test(m[0][0]) ? 'number' : 'word') + ' broken across lines: ' + m[0]);
    }
  }
  var distinct = problems.filter(function (p, i) { return problems.indexOf(p) === i; });
  document.title = 'probe:' + problems.length + ':' + distinct.slice(0, 12).join(' | ');
})();
