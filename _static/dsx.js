// 1. 行间公式比正文栏宽时（多见于手机屏幕），按比例缩小到正好放得下，整条公式始终可见。
//    适用于浏览器里排版的 MathJax，也适用于构建时排好的公式（mjx-container / .katex-display）。
// 2. 主题的 Colab 按钮图片的替代文字是英文，换成中文。
// 3. 表格：数、元组所在的格子不折行（输出里带负号或指数的数也不在「-」处折行）；每张表格套一个能横向滚动的框，放不下时框上方显示一行提示。
//    代码块比自己的框宽时（手机上多见，滚动条常常看不见）同样在代码上方显示一行提示。
// 4. 插图延迟加载（dsx_book/trim.py）；读者在浏览器里打印本页时，把还没下载的图改为立即下载
//    （浏览器打印时一般也会自己加载，这里再保一次）。
(function () {
  "use strict";
  const ALT = {"logo_colab.png": "Colab 图标"};

  function chineseAlt() {
    document.querySelectorAll("img").forEach((img) => {
      const name = (img.getAttribute("src") || "").split("/").pop();
      if (ALT[name]) img.alt = ALT[name];
    });
  }
  const RENDERED = "mjx-container, .katex-display, svg";

  function fit() {
    document.querySelectorAll("div.math").forEach((box) => {
      const formula = box.querySelector(RENDERED);
      if (!formula) return;
      // 公式自己的字号（MathJax 写在公式上，或构建时排版的公式写在共用样式里，如 127.3%），缩放以它为基准
      if (formula.dataset.dsxSize === undefined) {
        const own = parseFloat(getComputedStyle(formula).fontSize);
        const parent = parseFloat(getComputedStyle(formula.parentElement).fontSize);
        formula.dataset.dsxSize = formula.style.fontSize || (own && parent ? (100 * own / parent) + "%" : "100%");
      }
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

  const NUMERIC = /^[-+−]?[\d(（][\d\s.,()+\-−e×%]*$/;
  const HINT = "表格较宽：向右滑动（滚动）查看其余的列 →";
  const CODE_HINT = "代码较宽：向右滑动（滚动）查看整行 →";
  // 能横向滚动的框（box）上方那一行提示：内容（content）比框宽时显示，放得下时藏起来
  function scrollHint(text) {
    const hint = document.createElement("p");
    hint.className = "dsx-scroll-hint";
    hint.textContent = text;
    return hint;
  }
  function wider(content, box) {
    return Math.max(content.scrollWidth, content.getBoundingClientRect().width) > box.clientWidth + 1;
  }
  function tables() {
    document.querySelectorAll("article.bd-article table").forEach((table) => {
      let box = table.parentElement;
      if (!box.classList.contains("dsx-table-scroll")) {
        table.querySelectorAll("td").forEach((td) => {
          if (NUMERIC.test(td.textContent.trim())) td.classList.add("dsx-nowrap");
        });
        box = document.createElement("div");
        box.className = "dsx-table-scroll";
        const hint = scrollHint(HINT);
        table.replaceWith(hint);
        hint.after(box);
        box.appendChild(table);
      }
      box.previousElementSibling.hidden = !wider(table, box);
    });
  }
  // 代码块：<pre> 自己就是滚动的框，提示放在它前面（同在 div.highlight 里：网页练习的编辑器换掉 div.highlight 时提示一起去掉）
  function codeBlocks() {
    document.querySelectorAll("article.bd-article div.highlight > pre").forEach((pre) => {
      const wide = pre.scrollWidth > pre.clientWidth + 1;
      let hint = pre.previousElementSibling;
      if (!hint || !hint.classList.contains("dsx-scroll-hint")) {
        if (!wide) return;
        hint = scrollHint(CODE_HINT);
        pre.before(hint);
      }
      hint.hidden = !wide;
    });
  }

  // 输出里带负号或指数的数（-0.0399、1.19e-07）：浏览器会在「-」处折行，把它们包进不折行的 <span>
  const SIGNED = /-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/g;
  function outputNumbers() {
    document.querySelectorAll("article div.cell_output pre").forEach((pre) => {
      if (pre.dataset.dsxNumbers) return;
      pre.dataset.dsxNumbers = "1";
      const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT), nodes = [];
      for (let t = walker.nextNode(); t; t = walker.nextNode()) nodes.push(t);
      nodes.forEach((node) => {
        const text = node.textContent, parts = [];
        let last = 0;
        for (const m of text.matchAll(SIGNED)) {
          if (!m[0].includes("-")) continue;
          parts.push(document.createTextNode(text.slice(last, m.index)));
          const span = document.createElement("span");
          span.className = "dsx-nobr";
          span.textContent = m[0];
          parts.push(span);
          last = m.index + m[0].length;
        }
        if (!parts.length) return;
        parts.push(document.createTextNode(text.slice(last)));
        node.replaceWith(...parts);
      });
    });
  }

  let pending = null;
  function later() {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => { fit(); tables(); codeBlocks(); });
  }

  window.addEventListener("resize", later);
  window.addEventListener("load", () => {
    tables();
    codeBlocks();
    fit();
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(fit);
    }
  });
  document.addEventListener("DOMContentLoaded", () => {
    chineseAlt();
    outputNumbers();
    tables();
    codeBlocks();
    fit();
  });
  window.addEventListener("beforeprint", () => {
    document.querySelectorAll('img[loading="lazy"]').forEach((img) => { img.loading = "eager"; });
  });
})();
