/* 几何探索器（H = 3）与轴探索器（[B, T, H]）的页面内版本：HTML 书页里没有内核，全部在浏览器里计算。
 * 由 dsx_util/widgets/base.py 内联进几何与轴探索器（geometry.py、axes.py）的 text/html 输出（在 base.js 之后）；本文件只定义一次 window.DSXNormExplorers。
 * 规格（标签、范围、文字模板、视角、张量）来自同一份 Python spec 的 JSON；几何与 geometry.py 的 view_basis/project 相同。
 * 不用 eval，不加载任何外部资源。 */
(function () {
  "use strict";
  if (window.DSXNormExplorers) { return; }

  // ---- 共用的小工具（base.js）与这里才用的几个（与 spec.py 的 fmt_vec / fmt3 一致）----
  var base = window.DSXExplorerBase;
  var fill = base.fill, fmt = base.fmt, fmtEps = base.fmtEps, fmtShape = base.fmtShape, q = base.q, qa = base.qa, json = base.json;
  function fmt3(v) { var s = v.toFixed(3); return s === "-0.000" ? "0.000" : s; }
  function fmtVec(a) { return "(" + a.map(fmt).join(", ") + ")"; }
  function f2(v) { return v.toFixed(2); }

  // ---- 几何：正交投影 ----
  function basis(view) {
    var r3 = Math.sqrt(3), r2 = Math.sqrt(2), r6 = Math.sqrt(6);
    var u = [1 / r3, 1 / r3, 1 / r3], ea = [1 / r2, -1 / r2, 0], eb = [1 / r6, 1 / r6, -2 / r6];
    var phi = view.azimuth * Math.PI / 180, th = view.elevation * Math.PI / 180, ex = [], eb2 = [], ey = [], k;
    for (k = 0; k < 3; k++) {
      ex.push(Math.cos(phi) * ea[k] + Math.sin(phi) * eb[k]);
      eb2.push(-Math.sin(phi) * ea[k] + Math.cos(phi) * eb[k]);
    }
    for (k = 0; k < 3; k++) { ey.push(Math.cos(th) * u[k] + Math.sin(th) * eb2[k]); }
    return [ex, ey];
  }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function norm(a) { return Math.sqrt(dot(a, a)); }
  function project(p, view, B) { return [view.cx + view.scale * dot(p, B[0]), view.cy - view.scale * dot(p, B[1])]; }
  function mean3(a) { return (a[0] + a[1] + a[2]) / 3; }
  function layerNorm3(a, eps) {
    var mu = mean3(a), v = a.map(function (x) { return x - mu; }), s2 = dot(v, v) / 3, inv = 1 / Math.sqrt(s2 + eps);
    return { mu: mu, v: v, var: s2, y: v.map(function (x) { return x * inv; }) };
  }
  function rmsNorm3(a, eps) {
    var r = Math.sqrt(dot(a, a) / 3 + eps);
    return { rms: r, y: a.map(function (x) { return x / r; }) };
  }
  // ---- 标签的位置：与 geometry.py 的 label_width / label_box / place_labels 相同 ----
  function labelWidth(text, size) {
    var w = 0;
    for (var i = 0; i < text.length; i++) { w += text.charCodeAt(i) >= 0x2E80 ? size : 0.64 * size; }
    return w;
  }
  function labelBox(x, y, text, size, anchor) {
    var w = labelWidth(text, size), left = anchor === "end" ? x - w : anchor === "middle" ? x - w / 2 : x;
    return [left, y - 0.9 * size, left + w, y + 0.3 * size];
  }
  function overlap(a, b) {
    return Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  }
  function placeLabels(items, obstacles, width, height) {
    var placed = obstacles.slice(), out = [], size = 11;
    items.forEach(function (item) {
      var px = item[0][0], py = item[0][1], text = item[1], w = labelWidth(text, size), best = null;
      if (!(px >= 0 && px <= width && py >= 0 && py <= height)) { out.push(null); return; }  // 点在画面外：不画标签
      var cands = [[7, -6], [7, 14], [-7 - w, -6], [-7 - w, 14], [7, -20], [-7 - w, -20], [7, 28], [-7 - w, 28],
        [-w / 2, -14], [-w / 2, 26], [7, 42], [-7 - w, 42], [7, -34], [-7 - w, -34],
        [21, 28], [21, -20], [-21 - w, 28], [-21 - w, -20], [-w / 2, 40], [-w / 2, -28]];
      for (var k = 0; k < cands.length; k++) {
        var x = px + cands[k][0], y = py + cands[k][1], box = labelBox(x, y, text, size, "start"), cost = 0;
        placed.forEach(function (b) { cost += overlap(box, b); });
        cost += (box[2] - box[0]) * (box[3] - box[1]) - overlap(box, [0, 0, width, height]);
        if (best === null || cost < best[0] - 1e-9) { best = [cost, x, y, box]; }
        if (cost <= 1e-9) { break; }
      }
      placed.push(best[3]);
      out.push([best[1], best[2]]);
    });
    return out;
  }
  function staticBoxes(svg) {  // 不动的文字（坐标轴、1 方向、平面或球、标题）的外框，与 Python 端记下的相同
    return Array.prototype.map.call(svg.querySelectorAll("text.dsx-lab-muted, text.dsx-chart-title"), function (n) {
      return labelBox(parseFloat(n.getAttribute("x")), parseFloat(n.getAttribute("y")), n.textContent,
        parseFloat(n.getAttribute("font-size")), n.getAttribute("text-anchor") || "start");
    });
  }
  function maxDiff(a, b) { return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2])); }

  function geometry(root) {
    var spec = json(root, "spec"), data = json(root, "data"), view = spec.view, B = basis(view), t = spec.text;
    var names = ["x1", "x2", "x3", "alpha", "shift", "log_eps"], el = {};
    names.forEach(function (n) { el[n] = q(root, n); el[n + "-value"] = q(root, n + "-value"); });
    function setAttrs(role, attrs) {
      var node = q(root, role);
      Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    }
    function setSpan(key, text) {
      var nodes = qa(root, "geo-" + key.replace(/_/g, "-"));
      for (var i = 0; i < nodes.length; i++) { nodes[i].textContent = text; }
    }
    // 精确值：初始值来自数据（滑块会把值对齐到步长），拖动滑块时换成滑块的值，在图里拖动时不对齐
    var state = {};
    names.forEach(function (n) { state[n] = data.values[n]; });
    function val(n) { return state[n]; }
    function point(role, p) { setAttrs(role, { cx: f2(p[0]), cy: f2(p[1]) }); }
    function label(role, p) {  // p 为 null：点在画面外，藏起标签（与 Python 的 _at 相同）
      setAttrs(role, p ? { x: f2(p[0]), y: f2(p[1]), visibility: "visible" } : { x: "0.00", y: "0.00", visibility: "hidden" });
    }

    function render() {
      var x = [val("x1"), val("x2"), val("x3")], a = val("alpha"), c = val("shift"), eps = Math.pow(10, val("log_eps"));
      var xp = x.map(function (v) { return a * v + c; });
      var ln = layerNorm3(xp, eps), rm = rmsNorm3(xp, eps), ln0 = layerNorm3(x, eps).y, rm0 = rmsNorm3(x, eps).y;
      names.forEach(function (n) {
        el[n + "-value"].textContent = n === "log_eps" ? fmtEps(eps) : fmt(val(n));
      });
      var vals = {
        xp: fmtVec(xp), mu: fmt(ln.mu), v: fmtVec(ln.v), vsum: fmt(ln.v[0] + ln.v[1] + ln.v[2]), "var": fmt(ln.var),
        ln: fmtVec(ln.y), ln_len: fmt(norm(ln.y)), sqrt3: fmt(Math.sqrt(3)), rms: fmt(rm.rms), rms_out: fmtVec(rm.y),
        rms_len: fmt(norm(rm.y)), ln_diff: fmt(maxDiff(ln.y, ln0)), rms_diff: fmt(maxDiff(rm.y, rm0)), eps: fmtEps(eps),
        vlen: fmt(norm(ln.v)), eps_len: fmt(Math.sqrt(3 * eps))
      };
      Object.keys(vals).forEach(function (k) { setSpan(k, vals[k]); });
      var o = [view.cx, view.cy], P = function (p) { return project(p, view, B); };
      var px = P(xp), pm = P([ln.mu, ln.mu, ln.mu]), pv = P(ln.v), pl = P(ln.y), pl0 = P(ln0), pr = P(rm.y), pr0 = P(rm0);
      var inside = px[0] >= 0 && px[0] <= view.width && px[1] >= 0 && px[1] <= view.height;
      var farLn = norm(ln.y) >= norm(ln.v) ? pl : pv, farRms = norm(rm.y) >= norm(xp) ? pr : px;
      // 层归一化图
      setAttrs("ln-mu-line", { d: "M" + o[0] + " " + o[1] + "L" + f2(pm[0]) + " " + f2(pm[1]) });
      setAttrs("ln-proj", { d: "M" + f2(pm[0]) + " " + f2(pm[1]) + "L" + f2(px[0]) + " " + f2(px[1]) +
        "L" + f2(pv[0]) + " " + f2(pv[1]) });
      setAttrs("ln-ray", { d: "M" + o[0] + " " + o[1] + "L" + f2(farLn[0]) + " " + f2(farLn[1]) });
      point("ln-ghost", pl0); point("ln-mu", pm); point("ln-v", pv); point("ln-out", pl); point("ln-x", px);
      point("ln-handle", px);
      var r2 = function (p) { return [parseFloat(f2(p[0])), parseFloat(f2(p[1]))]; };
      var note = inside ? [] : [labelBox(6, 30, spec.labels.out, 11, "start")];
      var lnAt = placeLabels([[r2(px), spec.labels.x], [r2(pm), spec.labels.mu], [r2(pl), spec.labels.ln]],
        staticBoxes(q(root, "chart-ln")).concat(note), view.width, view.height);
      label("ln-x-label", lnAt[0]); label("ln-mu-label", lnAt[1]); label("ln-out-label", lnAt[2]);
      // RMSNorm 图
      setAttrs("rms-ray", { d: "M" + o[0] + " " + o[1] + "L" + f2(farRms[0]) + " " + f2(farRms[1]) });
      point("rms-ghost", pr0); point("rms-out", pr); point("rms-x", px); point("rms-handle", px);
      var rmsAt = placeLabels([[r2(px), spec.labels.x], [r2(pr), spec.labels.rms]],
        staticBoxes(q(root, "chart-rms")).concat(note), view.width, view.height);
      label("rms-x-label", rmsAt[0]); label("rms-out-label", rmsAt[1]);
      q(root, "ln-outside").textContent = inside ? "" : spec.labels.out;
      q(root, "rms-outside").textContent = inside ? "" : spec.labels.out;
      q(root, "chart-ln").setAttribute("aria-label", fill(t.aria_ln, { xp: vals.xp, ln: vals.ln }));
      q(root, "chart-rms").setAttribute("aria-label", fill(t.aria_rms, { xp: vals.xp, rms_out: vals.rms_out }));
    }
    function setValue(n, v) {  // 超出滑块范围时扩大范围，而不是被截断
      var input = el[n];
      if (v > parseFloat(input.max)) { input.max = String(Math.ceil(v)); }
      if (v < parseFloat(input.min)) { input.min = String(Math.floor(v)); }
      input.value = String(v);
      state[n] = v;
    }
    function preset(name) {
      var p = spec.presets[name];
      if (p.offset) {  // near：x = 偏差，x′ = αx + c·1 = c·1 + α·偏差；α 不变，c 只在画面外时移进来（与 Python 的 preset 相同）
        var c = Math.max(-p.max_shift, Math.min(p.max_shift, val("shift")));
        setValue("shift", c);
        setValue("x1", p.offset[0]); setValue("x2", p.offset[1]); setValue("x3", p.offset[2]);
      } else {
        setValue("x1", p.x[0]); setValue("x2", p.x[1]); setValue("x3", p.x[2]);
        setValue("alpha", p.alpha); setValue("shift", p.shift);
      }
      setValue("log_eps", p.log_eps);
      render();
    }
    names.forEach(function (n) {
      el[n].addEventListener("input", function () { state[n] = parseFloat(el[n].value); render(); });
    });
    q(root, "reset").addEventListener("click", function () { preset("reset"); });
    q(root, "near").addEventListener("click", function () { preset("near"); });

    // 在图里拖动 x′：屏幕上的位移换算成三维里沿屏幕横轴、竖轴的位移（正交投影，深度方向不变），再除以 α 得到 x 的变化。
    // 从按下时的位置算总位移，再对齐到滑块的步长：显示的数字就是滑块上的值，慢慢拖也不会丢掉小于一个步长的移动
    ["ln-handle", "rms-handle"].forEach(function (role) {
      var handle = q(root, role), svg = handle.ownerSVGElement, start = null;
      handle.addEventListener("pointerdown", function (ev) {
        start = { px: ev.clientX, py: ev.clientY, x: [val("x1"), val("x2"), val("x3")] };
        handle.setPointerCapture(ev.pointerId);
        ev.preventDefault();
      });
      handle.addEventListener("pointermove", function (ev) {
        if (!start) { return; }
        var rect = svg.getBoundingClientRect(), k = view.width / rect.width, a = val("alpha");
        var dx = (ev.clientX - start.px) * k / view.scale, dy = -(ev.clientY - start.py) * k / view.scale;
        ["x1", "x2", "x3"].forEach(function (n, i) {
          var input = el[n], v = start.x[i] + (dx * B[0][i] + dy * B[1][i]) / a;
          input.value = String(Math.min(parseFloat(input.max), Math.max(parseFloat(input.min), v)));
          state[n] = parseFloat(input.value);   // 浏览器已把值对齐到步长
        });
        render();
      });
      function stop() { start = null; }
      handle.addEventListener("pointerup", stop);
      handle.addEventListener("pointercancel", stop);
    });
    render();
  }

  // ---- 轴探索器 ----
  function groupIds(shape, mode) {  // 与 axes.py 的 group_ids 相同
    var size = mode.group || shape[2], seen = {}, count = 0, ids = [], b, t, h;
    for (b = 0; b < shape[0]; b++) {
      for (t = 0; t < shape[1]; t++) {
        for (h = 0; h < shape[2]; h++) {
          var idx = [b, t, h], key = [];
          for (var ax = 0; ax < 3; ax++) { if (mode.reduce.indexOf(ax) < 0) { key.push(idx[ax]); } }
          if (mode.reduce.indexOf(2) >= 0 && size < shape[2]) { key.push(Math.floor(h / size)); }
          var k = key.join(",");
          if (!Object.prototype.hasOwnProperty.call(seen, k)) { seen[k] = count++; }
          ids.push(seen[k]);
        }
      }
    }
    return ids;
  }
  function statShape(shape, mode) {
    if (mode.group && mode.group < shape[2]) {
      return [shape[0], mode.reduce.indexOf(1) >= 0 ? 1 : shape[1], shape[2] / mode.group, 1];
    }
    return shape.map(function (s, ax) { return mode.reduce.indexOf(ax) >= 0 ? 1 : s; });
  }

  function axes(root) {
    var spec = json(root, "spec"), data = json(root, "data"), t = spec.text, eps = spec.eps;
    var x = [], shape = [data.x.length, data.x[0].length, data.x[0][0].length];
    data.x.forEach(function (s) { s.forEach(function (r) { r.forEach(function (v) { x.push(v); }); }); });
    var modes = {};
    spec.modes.forEach(function (m) { modes[m.key] = m; });
    var select = q(root, "mode"), inCells = qa(root, "in-cell"), outCells = qa(root, "out-cell");

    function render() {
      var m = modes[select.value], ids = groupIds(shape, m), n = x.length, count = 0, i, g;
      for (i = 0; i < n; i++) { count = Math.max(count, ids[i] + 1); }
      var sum = new Float64Array(count), sq = new Float64Array(count), size = new Float64Array(count);
      for (i = 0; i < n; i++) { sum[ids[i]] += x[i]; sq[ids[i]] += x[i] * x[i]; size[ids[i]] += 1; }
      var mu = [], vr = [], ms = [];
      for (g = 0; g < count; g++) { mu.push(sum[g] / size[g]); ms.push(sq[g] / size[g]); vr.push(0); }
      for (i = 0; i < n; i++) { var d = x[i] - mu[ids[i]]; vr[ids[i]] += d * d; }
      for (g = 0; g < count; g++) { vr[g] /= size[g]; }
      var y = [];
      for (i = 0; i < n; i++) {
        g = ids[i];
        y.push(m.center ? (x[i] - mu[g]) / Math.sqrt(vr[g] + eps) : x[i] / Math.sqrt(ms[g] + eps));
      }
      var ym = new Float64Array(count), yv = new Float64Array(count), yq = new Float64Array(count);
      for (i = 0; i < n; i++) { ym[ids[i]] += y[i] / size[ids[i]]; yq[ids[i]] += y[i] * y[i] / size[ids[i]]; }
      for (i = 0; i < n; i++) { var e = y[i] - ym[ids[i]]; yv[ids[i]] += e * e / size[ids[i]]; }
      for (i = 0; i < n; i++) {
        [inCells[i], outCells[i]].forEach(function (cell) {
          cell.className = "dsx-g" + (ids[i] % 12);
          cell.setAttribute("data-g", String(ids[i]));
        });
        outCells[i].textContent = fmt3(y[i]);
      }
      var stats, check, arr = function (a) { return Array.prototype.slice.call(a); };
      // 两端写出来相同时说「都是 x」，否则说「在 a 到 b 之间」（与 Python 的 _span 相同）
      var span = function (v) {
        var a = fmt(Math.min.apply(null, v)), b = fmt(Math.max.apply(null, v));
        return a === b ? fill(t.span_same, { a: a }) : fill(t.span_range, { a: a, b: b });
      };
      if (m.center) {
        stats = fill(t.stats_center, { mu: fmt(mu[0]), "var": fmt(vr[0]) });
        check = fill(t.check_center, {
          mean_abs: fmt(Math.max.apply(null, arr(ym).map(Math.abs))),
          var_span: span(arr(yv))
        });
      } else {
        stats = fill(t.stats_rms, { ms: fmt(ms[0]), rms: fmt(Math.sqrt(ms[0])) });
        var rr = arr(yq).map(Math.sqrt);
        check = fill(t.check_rms, { rms_span: span(rr) });
      }
      q(root, "code").textContent = m.code.join("\n");
      q(root, "groups").textContent = fill(t.groups, {
        count: count, size: size[0], stat: m.center ? "mean" : "ms", stat_shape: fmtShape(statShape(shape, m))
      });
      q(root, "first").textContent = fill(t.first, { size: size[0], stats: stats });
      q(root, "check").textContent = check;
    }
    select.addEventListener("change", render);
    render();
  }

  window.DSXNormExplorers = { norm_geometry: geometry, norm_axes: axes, groupIds: groupIds, fmt: fmt };
})();
