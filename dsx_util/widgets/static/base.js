/* 《动手学 GPT 层归一化》各个探索器的页面内版本共用的小工具：window.DSXExplorerBase（只定义一次）。
 * 由 dsx_util/widgets/base.py 内联在每个探索器自己的脚本前面；与 spec.py 的 fill / fmt / fmt_eps / fmt_shape 一致。
 * 不用 eval，不加载任何外部资源。 */
(function () {
  "use strict";
  if (window.DSXExplorerBase) { return; }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : m;
    });
  }
  function padExp(s) { return s.replace(/e([+-])(\d)$/, "e$10$2"); }
  function fmt(v) {
    if (Number.isNaN(v)) { return "NaN"; }
    if (!Number.isFinite(v)) { return v > 0 ? "inf" : "-inf"; }
    if (Math.abs(v) >= 1e5) { return padExp(v.toExponential(3)); }
    var s = v.toFixed(4);
    return s === "-0.0000" ? "0.0000" : s;
  }
  function fmtEps(v) { return padExp(v.toExponential(1)); }
  function fmtShape(shape) { return "[" + shape.join(", ") + "]"; }
  // 探索器里的元素用 data-role 找；规格与数据是 <script type="application/json" data-role="…">
  function q(root, role) { return root.querySelector('[data-role="' + role + '"]'); }
  function qa(root, role) { return root.querySelectorAll('[data-role="' + role + '"]'); }
  function json(root, role) { return JSON.parse(q(root, role).textContent); }

  window.DSXExplorerBase = { fill: fill, fmt: fmt, fmtEps: fmtEps, fmtShape: fmtShape, q: q, qa: qa, json: json };
})();
