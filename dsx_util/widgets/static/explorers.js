/* 《动手学 GPT 层归一化》交互探索器的页面内版本（HTML 书页里没有内核，全部在浏览器里计算）。
 * 由 dsx_util/widgets/base.py 内联进层归一化、dim/keepdim、激活值探索器的 text/html 输出（在 base.js 之后）；
 * 同一页可以有多个探索器，本文件只定义一次 window.DSXExplorers。规格（标签、范围、文字模板、输入向量）来自同一份 Python spec 的 JSON。
 * 不用 eval，不加载任何外部资源。 */
(function () {
  "use strict";
  if (window.DSXExplorers) { return; }

  // ---- 共用的小工具（base.js，与 spec.py 一致）----
  var base = window.DSXExplorerBase;
  var fill = base.fill, fmt = base.fmt, fmtEps = base.fmtEps, fmtShape = base.fmtShape, q = base.q;
  function readSpec(root) { return base.json(root, "spec"); }

  // ---- 柱状图：几何与 bars.py 的 bars_svg 相同（固定纵轴 [-R, R]），只更新 path 的 d 属性，H = 768 时也很快 ----
  var CW = 240, CH = 150, PL = 48, PR = 6, PT = 22, PB = 8;
  function chartPaths(values, j, span) {
    var n = values.length, i, count = 0;
    var pw = CW - PL - PR, ph = CH - PT - PB, bw = pw / n, gap = bw > 3 ? bw * 0.15 : 0, w = bw - 2 * gap;
    function y(v) { return PT + (span - v) / (2 * span) * ph; }
    var parts = [], over = [], sel = "";
    for (i = 0; i < n; i++) {
      var v = values[i], c = Math.min(Math.max(v, -span), span);
      var y1 = y(Math.max(c, 0)), h = Math.max(y(Math.min(c, 0)) - y1, 0.5), left = PL + i * bw + gap;
      var seg = "M" + left.toFixed(2) + " " + y1.toFixed(2) + "h" + w.toFixed(2) + "v" + h.toFixed(2) +
        "h" + (-w).toFixed(2) + "z";
      if (c !== v) {
        count++;
        var tip = v > 0 ? PT - 5 : CH - PB + 5, base = v > 0 ? PT : CH - PB;
        over.push("M" + left.toFixed(2) + " " + base.toFixed(2) + "L" + (left + w / 2).toFixed(2) + " " +
          tip.toFixed(2) + "L" + (left + w).toFixed(2) + " " + base.toFixed(2) + "z");
      }
      if (i === j) { sel = seg; } else { parts.push(seg); }
    }
    return { bars: parts.join(""), sel: sel, over: over.join(""), count: count };
  }
  function drawChart(svg, values, j, title, spec, span, spanLabel) {
    var p = chartPaths(values, j, span);
    svg.querySelector(".dsx-bars").setAttribute("d", p.bars);
    svg.querySelector(".dsx-sel").setAttribute("d", p.sel);
    svg.querySelector(".dsx-over").setAttribute("d", p.over);
    svg.querySelector(".dsx-over-note").textContent = p.count ? fill(spec.text.overflow, { count: p.count }) : "";
    var mn = Infinity, mx = -Infinity;
    for (var i = 0; i < values.length; i++) { mn = Math.min(mn, values[i]); mx = Math.max(mx, values[i]); }
    svg.setAttribute("aria-label", fill(spec.text.chart_aria,
      { title: title, h: values.length, min: fmt(mn), max: fmt(mx), range: spanLabel }));
  }

  function meanVar(a) {
    var n = a.length, s = 0, i;
    for (i = 0; i < n; i++) { s += a[i]; }
    var mu = s / n, v = 0;
    for (i = 0; i < n; i++) { var d = a[i] - mu; v += d * d; }
    return [mu, v / n];  // 有偏方差：除以 n
  }

  // ---- 层归一化探索器 ----
  function layerNorm(root) {
    var spec = readSpec(root), data = JSON.parse(q(root, "data").textContent);
    var x = data.x, n = x.length, c = spec.controls;
    var gamma = new Float64Array(n).fill(data.gamma), beta = new Float64Array(n).fill(data.beta);
    var xhat = new Float64Array(n), yv = new Float64Array(n);
    var gAll = data.gamma, bAll = data.beta;  // 全部特征滑块的精确值（滑块本身会把值对齐到步长）
    var el = {};
    ["gamma", "beta", "log_eps", "per_feature", "per-feature-controls", "feature", "gamma_j", "beta_j",
     "gamma-value", "beta-value", "eps-value", "gamma_j-value", "beta_j-value", "reset", "identity", "message",
     "charts", "in-mean", "in-var", "hat-mean", "hat-var", "out-mean", "out-var", "expected", "formula"
    ].forEach(function (r) { el[r] = q(root, r); });
    var svgs = { x: q(root, "chart-x"), xhat: q(root, "chart-xhat"), y: q(root, "chart-y") };

    var bad = -1, badCount = 0;
    for (var i = 0; i < n; i++) { if (!Number.isFinite(x[i])) { badCount++; if (bad < 0) { bad = i; } } }
    if (badCount > 0) {
      el.message.textContent = fill(spec.text.nonfinite, { count: badCount, index: bad, value: fmt(x[bad]) });
      el.message.hidden = false;
      el.charts.hidden = true;
      return;
    }
    var st = meanVar(x), mu = st[0], vx = st[1];

    function eps() { return Math.pow(10, parseFloat(el.log_eps.value)); }
    function j() { return parseInt(el.feature.value, 10) || 0; }
    function setRange(input, v) {  // 预设的值超出滑块范围时扩大范围，而不是被截断
      if (v > parseFloat(input.max)) { input.max = String(Math.ceil(v)); }
      if (v < parseFloat(input.min)) { input.min = String(Math.floor(v)); }
      input.value = String(v);
    }
    function uniform(a) { for (var k = 1; k < a.length; k++) { if (a[k] !== a[0]) { return false; } } return true; }

    function render() {
      var e = eps(), jj = j(), inv = 1 / Math.sqrt(vx + e), k;
      for (k = 0; k < n; k++) { xhat[k] = (x[k] - mu) * inv; yv[k] = gamma[k] * xhat[k] + beta[k]; }
      var sh = meanVar(xhat), so = meanVar(yv);
      el["gamma-value"].textContent = fmt(gAll);
      el["beta-value"].textContent = fmt(bAll);
      el["eps-value"].textContent = fmtEps(e);
      el["gamma_j-value"].textContent = fmt(gamma[jj]);
      el["beta_j-value"].textContent = fmt(beta[jj]);
      el["in-mean"].textContent = fmt(mu); el["in-var"].textContent = fmt(vx);
      el["hat-mean"].textContent = fmt(sh[0]); el["hat-var"].textContent = fmt(sh[1]);
      el["out-mean"].textContent = fmt(so[0]); el["out-var"].textContent = fmt(so[1]);
      el.expected.textContent = (uniform(gamma) && uniform(beta))
        ? fill(spec.text.expected, { beta: fmt(beta[0]), expected_var: fmt(gamma[0] * gamma[0] * vx / (vx + e)) })
        : spec.text.expected_per_feature;
      el.formula.textContent = fill(spec.text.formula, {
        j: jj, g: fmt(gamma[jj]), x: fmt(x[jj]), mu: fmt(mu), "var": fmt(vx), eps: fmtEps(e), b: fmt(beta[jj]), y: fmt(yv[jj])
      });
      var finite = Number.isFinite(so[0]) && Number.isFinite(so[1]);
      el.message.hidden = finite;
      el.message.textContent = finite ? "" : fill(spec.text.nonfinite, { count: n, index: 0, value: fmt(yv[0]) });
      var sel = el.per_feature.checked ? jj : -1, span = data.range, label = svgs.x.querySelector(".dsx-hi").textContent;
      drawChart(svgs.x, x, sel, spec.charts.x, spec, span, label);
      drawChart(svgs.xhat, xhat, sel, spec.charts.xhat, spec, span, label);
      drawChart(svgs.y, yv, sel, spec.charts.y, spec, span, label);
    }
    function syncFeatureSliders() {
      var jj = j();
      setRange(el.gamma_j, gamma[jj]);
      setRange(el.beta_j, beta[jj]);
    }

    el.gamma.addEventListener("input", function () { gAll = parseFloat(el.gamma.value); gamma.fill(gAll); syncFeatureSliders(); render(); });
    el.beta.addEventListener("input", function () { bAll = parseFloat(el.beta.value); beta.fill(bAll); syncFeatureSliders(); render(); });
    el.log_eps.addEventListener("input", render);
    el.per_feature.addEventListener("change", function () { el["per-feature-controls"].hidden = !el.per_feature.checked; render(); });
    el.feature.addEventListener("change", function () { syncFeatureSliders(); render(); });
    el.gamma_j.addEventListener("input", function () { gamma[j()] = parseFloat(el.gamma_j.value); render(); });
    el.beta_j.addEventListener("input", function () { beta[j()] = parseFloat(el.beta_j.value); render(); });
    el.reset.addEventListener("click", function () {
      gAll = c.gamma.value; bAll = c.beta.value; gamma.fill(gAll); beta.fill(bAll);
      setRange(el.gamma, c.gamma.value); setRange(el.beta, c.beta.value); syncFeatureSliders(); render();
    });
    el.identity.addEventListener("click", function () {
      var g = Math.sqrt(vx + eps());
      gAll = g; bAll = mu; gamma.fill(g); beta.fill(mu);
      setRange(el.gamma, g); setRange(el.beta, mu); syncFeatureSliders(); render();
    });
    el["per-feature-controls"].hidden = !el.per_feature.checked;
    syncFeatureSliders();
    render();
  }

  // ---- dim / keepdim 探索器：广播规则（与 broadcast.py 的 broadcast_rule 相同，测试拿 torch 核对） ----
  function broadcastRule(shape, dim, keepdim) {
    var n = shape.length, d = dim < 0 ? dim + n : dim, m = [], i;
    for (i = 0; i < n; i++) { if (i !== d) { m.push(shape[i]); } else if (keepdim) { m.push(1); } }
    var res = { result: m, status: "ok", out: shape.slice() };
    if (keepdim) { return res; }
    var off = n - m.length, out = shape.slice();
    for (i = n - 1; i >= off; i--) {
      var a = shape[i], b = m[i - off];
      if (a !== b && a !== 1 && b !== 1) { res.status = "error"; res.axis = i; res.a = a; res.b = b; return res; }
      out[i] = Math.max(a, b);
    }
    res.out = out;
    for (i = 0; i < n; i++) { if (out[i] !== shape[i]) { res.status = "silent_shape"; return res; } }
    for (i = n - 1; i >= off; i--) {  // m 的第 i-off 维原本是 x 的第 o 维，右对齐后落在 x 的第 i 维
      var o = (i - off) < d ? (i - off) : (i - off + 1);
      if (o !== i && shape[o] > 1) { res.status = "silent"; res.from = o; res.to = i; return res; }
    }
    return res;
  }

  function dimKeepdim(root) {
    var spec = readSpec(root), data = JSON.parse(q(root, "data").textContent), t = spec.text;
    var shapes = data.shapes;
    var el = {};
    ["shape", "dim", "keepdim", "code", "x-shape", "result-shape", "aligned", "broadcast-status"].forEach(function (r) {
      el[r] = q(root, r);
    });
    function dimOptions(entry, keep) {
      var n = entry.shape.length, opts = [], k;
      for (k = -1; k >= -n; k--) { opts.push(k); }
      for (k = 0; k < n; k++) { opts.push(k); }
      el.dim.textContent = "";
      opts.forEach(function (k) {
        var o = document.createElement("option");
        o.value = String(k);
        o.textContent = fill(t.dim_option, { dim: k, name: entry.names[k < 0 ? k + n : k] });
        el.dim.appendChild(o);
      });
      el.dim.value = String(opts.indexOf(keep) >= 0 ? keep : -1);
    }
    function axisChips(shape, names, hi, keepdim) {
      var frag = document.createDocumentFragment();
      shape.forEach(function (s, k) {
        var span = document.createElement("span");
        span.className = "dsx-chip" + (k === hi ? " dsx-chip-reduced" : "");
        span.textContent = names[k] + " " + s;
        frag.appendChild(span);
      });
      return frag;
    }
    function render() {
      var entry = shapes[parseInt(el.shape.value, 10)], shape = entry.shape, names = entry.names, n = shape.length;
      var dim = parseInt(el.dim.value, 10), keep = el.keepdim.checked, d = dim < 0 ? dim + n : dim;
      var r = broadcastRule(shape, dim, keep);
      el.code.textContent = fill(t.code, { dim: dim, keepdim: keep ? "True" : "False" });
      el["x-shape"].textContent = "";
      el["x-shape"].appendChild(axisChips(shape, names, d, keep));
      el["result-shape"].textContent = fmtShape(r.result);
      // 右对齐示意：两行，m 的形状左侧空出
      var rows = [shape.map(String), []], off = n - r.result.length, k;
      for (k = 0; k < n; k++) { rows[1].push(k < off ? "" : String(r.result[k - off])); }
      el.aligned.textContent = "";
      var head = document.createElement("tr");
      head.appendChild(document.createElement("th"));
      for (k = 0; k < n; k++) {
        var col = document.createElement("th");
        col.scope = "col"; col.textContent = "dim=" + k; head.appendChild(col);
      }
      el.aligned.appendChild(head);
      [["x", rows[0]], ["m", rows[1]]].forEach(function (row) {
        var tr = document.createElement("tr"), th = document.createElement("th");
        th.scope = "row"; th.textContent = row[0]; tr.appendChild(th);
        row[1].forEach(function (cell, k2) {
          var td = document.createElement("td");
          td.textContent = cell;
          if (r.status === "error" && k2 === r.axis) { td.className = "dsx-bad"; }
          if (r.status === "silent" && k2 === r.to) { td.className = "dsx-bad"; }
          tr.appendChild(td);
        });
        el.aligned.appendChild(tr);
      });
      var msg;
      if (r.status === "ok") { msg = fill(keep ? t.ok_keepdim : t.ok, { name: names[d] }); }
      else if (r.status === "error") { msg = fill(t.error, { axis: r.axis, name: names[r.axis], a: r.a, b: r.b }); }
      else if (r.status === "silent") { msg = fill(t.silent, { wrong_from: names[r.from], wrong_to: names[r.to] }); }
      else { msg = fill(t.silent_shape, { out_shape: fmtShape(r.out), x_shape: fmtShape(shape) }); }
      var status = r.status === "silent_shape" ? "silent" : r.status;
      el["broadcast-status"].setAttribute("data-status", status);
      el["broadcast-status"].textContent = msg;
    }
    el.shape.addEventListener("change", function () {
      dimOptions(shapes[parseInt(el.shape.value, 10)], parseInt(el.dim.value, 10));
      render();
    });
    el.dim.addEventListener("change", render);
    el.keepdim.addEventListener("change", render);
    dimOptions(shapes[parseInt(el.shape.value, 10)], data.dim);
    render();
  }

  // ---- 真实激活值探索器：数据解码、逐词元统计、散点图（与 activation_explorer.py 的同名函数逐位相同） ----
  function unpack(p) {  // 16 位有符号整数（小端）的 base64 × 比例
    var bin = atob(p.q), n = bin.length / 2, out = new Float64Array(n), i, v;
    for (i = 0; i < n; i++) {
      v = bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8);
      out[i] = (v >= 32768 ? v - 65536 : v) * p.s;
    }
    return out;
  }
  function tokenStats(x, T, h, eps) {  // 每个词元的 [μ, σ², √(σ² + ε)]，逐个相加
    var out = [], t, j, s, q, mu, v;
    for (t = 0; t < T; t++) {
      s = 0;
      for (j = 0; j < h; j++) { s += x[t * h + j]; }
      mu = s / h; q = 0;
      for (j = 0; j < h; j++) { v = x[t * h + j] - mu; q += v * v; }
      out.push([mu, q / h, Math.sqrt(q / h + eps)]);
    }
    return out;
  }
  function median(values) {
    var v = values.slice().sort(function (a, b) { return a - b; }), n = v.length;
    return n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
  function half(v) { return Math.floor(v * 2 + 0.5); }
  function scatterXY(g, x, xh, rx, rh) {
    var pw = g.width - g.left - g.right, ph = g.height - g.top - g.bottom;
    return [g.left + (x + rx) / (2 * rx) * pw, g.top + (rh - xh) / (2 * rh) * ph];
  }
  function scatterPath(g, xs, hats, rx, rh) {  // 每点一段零长度的线；对齐到 0.5 后重复的点只画一次
    var seen = {}, parts = [], i, p, kx, ky, key;
    for (i = 0; i < xs.length; i++) {
      p = scatterXY(g, xs[i], hats[i], rx, rh);
      kx = half(p[0]); ky = half(p[1]); key = kx + "," + ky;
      if (!Object.prototype.hasOwnProperty.call(seen, key)) {
        seen[key] = 1;
        parts.push("M" + String(kx / 2) + " " + String(ky / 2) + "h0");
      }
    }
    return parts.join("");
  }
  function tokenLine(g, mu, sigma, rx, rh) {
    var lo = Math.max(-rx, mu - rh * sigma), hi = Math.min(rx, mu + rh * sigma);
    if (!(lo < hi)) { return ""; }
    var a = scatterXY(g, lo, (lo - mu) / sigma, rx, rh), b = scatterXY(g, hi, (hi - mu) / sigma, rx, rh);
    return "M" + a[0].toFixed(2) + " " + a[1].toFixed(2) + "L" + b[0].toFixed(2) + " " + b[1].toFixed(2);
  }
  function tokenLabel(ch) {
    var map = { " ": "␣", "\n": "⏎", "\t": "⇥", "": "∅" };
    return Object.prototype.hasOwnProperty.call(map, ch) ? map[ch] : ch;
  }

  function activations(root) {
    var spec = readSpec(root), data = JSON.parse(q(root, "data").textContent), t = spec.text, g = spec.scatter;
    var h = data.h, T = data.tokens.length;
    var layers = data.layers.map(function (L) {
      var x = unpack(L.x);
      return { L: L, x: x, g: unpack(L.gamma), b: unpack(L.beta), st: tokenStats(x, T, h, L.eps), all: null };
    });
    var selL = q(root, "layer"), selT = q(root, "token"), last = -1;
    var svgs = { x: q(root, "chart-x"), xhat: q(root, "chart-xhat"), y: q(root, "chart-y") }, sc = q(root, "chart-scatter");
    function set(role, text) { q(root, role).textContent = text; }
    function hats(A, from, to) {
      var out = [], k, j, s;
      for (k = from; k < to; k++) { s = A.st[k]; for (j = 0; j < h; j++) { out.push((A.x[k * h + j] - s[0]) / s[2]); } }
      return out;
    }
    function bars(svg, values, j, title, span, label, lo) {
      drawChart(svg, values, j, title, spec, span, label);
      svg.querySelector(".dsx-hi").textContent = label;
      svg.querySelector(".dsx-lo").textContent = lo;
    }
    function render() {
      var li = parseInt(selL.value, 10), tok = parseInt(selT.value, 10), A = layers[li], L = A.L, s = A.st[tok];
      var x = Array.prototype.slice.call(A.x, tok * h, (tok + 1) * h), xh = [], y = [], j = 0, k;
      for (k = 0; k < h; k++) {
        xh.push((x[k] - s[0]) / s[2]); y.push(A.g[k] * xh[k] + A.b[k]);
        if (Math.abs(x[k]) > Math.abs(x[j])) { j = k; }
      }
      var sig = A.st.map(function (e) { return e[2]; }), med = median(sig), ym = meanVar(y);
      set("act-h", String(h)); set("act-mu", fmt(s[0])); set("act-var", fmt(s[1])); set("act-sigma", fmt(s[2]));
      set("act-n", String(T)); set("act-lo", fmt(Math.min.apply(null, sig))); set("act-hi", fmt(Math.max.apply(null, sig)));
      set("act-med", fmt(med)); set("act-ratio", fmt(s[2] / med));
      set("act-j", String(j)); set("act-xj", fmt(x[j])); set("act-hj", fmt(xh[j])); set("act-gj", fmt(A.g[j]));
      set("act-bj", fmt(A.b[j])); set("act-yj", fmt(y[j])); set("act-y-mean", fmt(ym[0])); set("act-y-var", fmt(ym[1]));
      set("act-n2", String(T)); set("act-h2", String(h)); set("act-slope", fmt(1 / s[2]));
      var spans = q(root, "sentence").querySelectorAll(".dsx-tok");
      for (k = 0; k < spans.length; k++) { spans[k].classList.toggle("dsx-tok-sel", k === tok); }
      bars(svgs.x, x, j, spec.charts.x, L.rx, L.labels.rx, L.labels.rx_lo);
      bars(svgs.xhat, xh, j, spec.charts.xhat, L.ry, L.labels.ry, L.labels.ry_lo);
      bars(svgs.y, y, j, spec.charts.y, L.ry, L.labels.ry, L.labels.ry_lo);
      if (li !== last) {  // 全部点只在换层时重画
        if (A.all === null) { A.all = scatterPath(g, A.x, hats(A, 0, T), L.rx, L.rh); }
        q(root, "scatter-all").setAttribute("d", A.all);
        set("tick-h-hi", L.labels.rh); set("tick-h-lo", L.labels.rh_lo);
        set("tick-x-hi", L.labels.rx); set("tick-x-lo", L.labels.rx_lo);
        last = li;
      }
      q(root, "scatter-sel").setAttribute("d", scatterPath(g, x, xh, L.rx, L.rh));
      q(root, "scatter-line").setAttribute("d", tokenLine(g, s[0], s[2], L.rx, L.rh));
      sc.setAttribute("aria-label", fill(t.scatter_aria, { layer: L.label, token: tokenLabel(data.tokens[tok]), slope: fmt(1 / s[2]) }));
    }
    function step(d) { selT.value = String((parseInt(selT.value, 10) + d + T) % T); render(); }
    selL.addEventListener("change", render);
    selT.addEventListener("change", render);
    q(root, "prev").addEventListener("click", function () { step(-1); });
    q(root, "next").addEventListener("click", function () { step(1); });
    q(root, "sentence").addEventListener("click", function (ev) {
      var k = ev.target.getAttribute && ev.target.getAttribute("data-t");
      if (k !== null && k !== undefined) { selT.value = k; render(); }
    });
    render();
  }

  window.DSXExplorers = { layer_norm: layerNorm, dim_keepdim: dimKeepdim, activations: activations,
    broadcastRule: broadcastRule, fmt: fmt, unpack: unpack };
})();
