// 行间公式比正文栏宽时（多见于手机屏幕），按比例缩小到正好放得下，整条公式始终可见。
// 适用于浏览器里排版的 MathJax，也适用于构建时排好的公式（mjx-container / .katex-display）。
(function () {
  "use strict";
  const RENDERED = "mjx-container, .katex-display, svg";

  function fit() {
    document.querySelectorAll("div.math").forEach((box) => {
      const formula = box.querySelector(RENDERED);
      if (!formula) return;
      // MathJax 自己会在公式上写一个字号（如 119.5%），缩放以它为基准
      if (formula.dataset.dsxSize === undefined) formula.dataset.dsxSize = formula.style.fontSize || "100%";
      const base = parseFloat(formula.dataset.dsxSize);
      formula.style.fontSize = base + "%";
      const inner = formula.firstElementChild || formula;
      const natural = Math.max(inner.scrollWidth, inner.getBoundingClientRect().width);
      const room = box.clientWidth - 2;
      if (natural > room && room > 0) {
        formula.style.fontSize = base * Math.max(0.5, room / natural) + "%";
      }
    });
  }

  let pending = null;
  function later() {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(fit);
  }

  window.addEventListener("resize", later);
  window.addEventListener("load", () => {
    fit();
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(fit);
    }
  });
  document.addEventListener("DOMContentLoaded", fit);
})();
