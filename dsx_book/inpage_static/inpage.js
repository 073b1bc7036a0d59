// 网页练习：读者第一次点「运行并检查」「重置」或代码时才由页面里的小加载器载入。
// 编辑器是 CodeMirror 5，代码存进 localStorage（每道练习一份），检查在 Web Worker 里的 Pyodide 中运行。
(function () {
  "use strict";
  const LIMIT_MS = 5000;
  const boxes = Array.from(document.querySelectorAll(".dsx-inpage"));
  const base = boxes[0].dataset.static;
  const state = new Map();
  let worker = null;
  let ready = null;
  let editorReady = null;

  function load(tag, attrs) {
    return new Promise((resolve, reject) => {
      const el = Object.assign(document.createElement(tag), attrs);
      el.onload = resolve;
      el.onerror = () => reject(new Error("加载失败：" + (attrs.src || attrs.href)));
      document.head.appendChild(el);
    });
  }

  function loadEditor() {
    if (!editorReady) {
      editorReady = Promise.all([
        load("link", { rel: "stylesheet", href: base + "../codemirror/lib/codemirror.css" }),
        load("link", { rel: "stylesheet", href: base + "inpage.css" }),
        load("script", { src: base + "../codemirror/lib/codemirror.js" }),
      ]).then(() => load("script", { src: base + "../codemirror/mode/python/python.js" }));
    }
    return editorReady;
  }

  function info(box) {
    if (!state.has(box)) {
      const cell = box.previousElementSibling;
      const pre = cell.querySelector("pre");
      state.set(box, { cell, pre, template: pre.textContent.replace(/\n+$/, "") + "\n", cm: null,
                       key: "dsx-inpage:" + box.dataset.exercise });
    }
    return state.get(box);
  }

  function say(box, kind, html) {
    const fb = box.querySelector(".dsx-inpage-feedback");
    fb.className = "dsx-inpage-feedback" + (kind ? " dsx-inpage-" + kind : "");
    fb.innerHTML = html;
  }

  function esc(text) {
    const d = document.createElement("div");
    d.textContent = text;
    return d.innerHTML;
  }

  // Esc 之后的 Tab / Shift+Tab：把焦点交给编辑器之后 / 之前的那个可聚焦元素（页面的正常 Tab 顺序）
  function leave(cm, dir) {
    const all = Array.from(document.querySelectorAll(
      "a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])"))
      .filter((el) => !el.disabled && el.offsetParent !== null);
    const input = cm.getInputField();
    const wrapper = cm.getWrapperElement();
    const inside = (el) => wrapper.contains(el);
    const i = all.indexOf(input);
    let j = i + dir;
    while (j >= 0 && j < all.length && inside(all[j])) j += dir;
    input.blur();
    if (j >= 0 && j < all.length) all[j].focus();
  }

  async function edit(box) {
    const st = info(box);
    if (st.cm) return st;
    await loadEditor();
    if (st.cm) return st;
    const saved = localStorage.getItem(st.key);
    const holder = st.pre.closest(".highlight") || st.pre;
    st.cm = CodeMirror((el) => holder.replaceWith(el), {
      value: saved !== null ? saved : st.template,
      mode: "python", indentUnit: 4, tabSize: 4, lineNumbers: true, viewportMargin: Infinity,
      lineWrapping: true,   // 长的行折行显示（手机上不用横向滚动，也不会看不到行尾）
      extraKeys: {
        // Tab 缩进；先按 Esc 再按 Tab（或 Shift+Tab）就把 Tab 交还浏览器，焦点移出编辑器（WCAG 2.1.2：不困住键盘）
        Tab: (cm) => (st.escaped ? leave(cm, 1)
          : cm.somethingSelected() ? cm.indentSelection("add") : cm.replaceSelection("    ", "end")),
        "Shift-Tab": (cm) => (st.escaped ? leave(cm, -1) : cm.indentSelection("subtract")),
        Esc: () => { st.escaped = true; },
        "Ctrl-Enter": () => run(box),
        "Cmd-Enter": () => run(box),
      },
    });
    st.cm.getWrapperElement().setAttribute("aria-label",
      "练习代码编辑器：Tab 缩进；先按 Esc 再按 Tab 离开编辑器；Ctrl+Enter 运行并检查");
    st.cm.getInputField().setAttribute("aria-label",
      "练习代码编辑器：Tab 缩进；先按 Esc 再按 Tab 离开编辑器；Ctrl+Enter 运行并检查");
    // 编辑器里的按键只给编辑器：Sphinx 的快捷键（/ 打开搜索）只放过 input、textarea，手机上 CodeMirror 用
    // contenteditable 输入，/ 会被它吞掉
    st.cm.getWrapperElement().addEventListener("keydown", (e) => e.stopPropagation());
    st.cm.on("keydown", (cm, e) => { if (!["Escape", "Tab", "Shift"].includes(e.key)) st.escaped = false; });
    st.cm.on("blur", () => { st.escaped = false; });
    st.cm.on("change", (cm) => localStorage.setItem(st.key, cm.getValue()));
    // 行首的空格里按退格：一次退回一层（到上一个 4 的倍数），不是一个空格（手机上退出一层循环要按 4 下，评审 r46）。
    // 实体键盘的退格是 "+delete"，手机的 contenteditable 输入由 DOM 的差别得出，是 "+input"：两种都只删了光标前的一个空格
    st.cm.on("beforeChange", (cm, ch) => {
      if (!["+delete", "+input"].includes(ch.origin) || ch.text.join("") !== "" || cm.somethingSelected()
          || ch.from.line !== ch.to.line || ch.to.ch - ch.from.ch !== 1) return;
      const cur = cm.getCursor();
      const head = cm.getLine(ch.to.line).slice(0, ch.to.ch);
      if (cur.line !== ch.to.line || cur.ch !== ch.to.ch || !/^ +$/.test(head)) return;
      ch.update({ line: ch.from.line, ch: Math.floor((ch.to.ch - 1) / 4) * 4 }, ch.to, [""]);
    });
    // 折行显示的续行比这一行的代码再多缩进 4 格：续行不会被看成一个没有缩进的新行（评审 r46）
    st.cm.on("renderLine", (cm, line, elt) => {
      const lead = CodeMirror.countColumn(/^\s*/.exec(line.text)[0], null, cm.getOption("tabSize"));
      const hang = (lead + 4) * cm.defaultCharWidth();
      elt.style.textIndent = `-${hang}px`;
      elt.style.paddingLeft = `${4 + hang}px`;   // 4：CodeMirror 给每行的左边距
    });
    st.cm.refresh();
    return st;
  }

  function startWorker(box) {
    if (!worker) {
      say(box, "busy", `正在加载浏览器里的 Python 运行环境（只在第一次运行时下载，约 ${box.dataset.runtimeMb} MB）…`);
      worker = new Worker(base + "worker.js");
      ready = new Promise((resolve, reject) => {
        worker.onmessage = (e) => (e.data.type === "ready" ? resolve() : reject(new Error(e.data.message)));
        worker.onerror = (e) => reject(new Error(e.message));
      });
    }
    return ready;
  }

  function check(code, box) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        worker.terminate();          // 死循环：结束这个 Worker，下次运行换一个新的
        worker = null;
        resolve({ timeout: true });
      }, LIMIT_MS);
      worker.onmessage = (e) => {
        if (e.data.type === "result") {
          clearTimeout(timer);
          resolve(e.data);
        }
      };
      worker.postMessage({ code, checker: box.dataset.checker, entry: box.dataset.entry, spec: box.dataset.spec });
    });
  }

  async function run(box) {
    if (location.protocol === "file:") {   // 浏览器不允许从本地文件打开的页面启动 Web Worker
      say(box, "", "从本地文件打开的网页不能在这里运行练习（浏览器不允许）。请在网页版文件夹里运行 " +
          "<code>python -m http.server</code>，再打开 http://localhost:8000/；或在 Jupyter、Colab 里做这道练习。" +
          "手机上没法运行这条命令：请在电脑上做练习，或打开在线的网页版。");
      return;
    }
    const starting = startWorker(box).then(() => null, (err) => err);   // 与编辑器同时加载
    const st = await edit(box);
    await judge(box, st.cm.getValue(), starting);
  }

  // 检查一段代码并把结论显示在 box 的反馈区：等 Worker 启动完（starting），交给 check，按结论显示。
  // 「运行并检查」（run）与下面的 checkAll 都只经过这里，所以两者的 Worker、检查器和显示是同一份。
  async function judge(box, code, starting) {
    const failed = await starting;
    if (failed) {
      worker = null;
      say(box, "fail", "浏览器里的 Python 加载失败：" + esc(String(failed.message || failed)) + "。请刷新页面后再试。");
      return null;
    }
    say(box, "busy", "正在运行并检查…");
    delete box.querySelector(".dsx-inpage-feedback").dataset.codes;   // 没有结论时不留上一次的代码
    const out = await check(code, box);
    if (out.timeout) {
      say(box, "fail", `✗ 运行超过 ${LIMIT_MS / 1000} 秒，已停止（可能有死循环）。页面没有受影响，改好代码后可以再次运行。`);
      return out;
    }
    // 与 Jupyter 里 CheckResult 的显示相同：✓ 通过；○ 尚未作答（中性的灰色）；✗ 发现 n 个问题 + 每条中文说明。
    // 错误代码只在 data-codes 里（给测试和程序看），不显示给读者。
    const r = out.result;
    let html = esc(r.head);
    if (r.state === "failed") html += r.messages.map((m) => `<div>${esc(m)}</div>`).join("");
    // 学习者代码里的 print：先说明这是什么（评审 r47：没有说明时，打印的几行像是检查结果的一部分）
    if (out.printed) {
      html += `<div class="dsx-inpage-printed-label">检查时你的代码打印了：</div>`
        + `<pre class="dsx-inpage-printed">${esc(out.printed)}</pre>`;
    }
    say(box, { passed: "pass", not_done: "todo", failed: "fail" }[r.state], html);
    box.querySelector(".dsx-inpage-feedback").dataset.codes = r.codes.join(" ");
    return out;
  }

  // 给测试用：把几段代码依次当作 box 编辑器里的代码检查，不经过编辑器（每段都走 judge，与按钮相同），
  // 一次返回每段的结论 {state, head, messages, codes} 与反馈区显示的样子 {shown, html, className, dataCodes}。
  // 同一页面的 Worker（Pyodide）只启动一次，测试不必为每个错误写法输入代码、点按钮、等反馈。
  async function checkAll(box, sources) {
    const fb = box.querySelector(".dsx-inpage-feedback");
    const verdicts = [];
    for (const code of sources) {
      const out = await judge(box, code, startWorker(box).then(() => null, (err) => err));
      verdicts.push(Object.assign({ timeout: !!(out && out.timeout) }, out && out.result,
        { shown: fb.innerText, html: fb.innerHTML, className: fb.className, dataCodes: fb.dataset.codes }));
    }
    return verdicts;
  }

  async function reset(box) {
    const st = await edit(box);
    if (st.cm.getValue() !== st.template && !confirm("放弃你在这里写的代码，恢复成原来的模板？")) return;
    st.cm.setValue(st.template);
    localStorage.removeItem(st.key);   // setValue 触发的保存也清掉：回到“没有改过”
    say(box, "", "已恢复成模板。");
  }

  function handle(target) {
    const box = target.closest(".dsx-inpage") ||
      (target.closest(".dsx-inpage-code") && target.closest(".dsx-inpage-code").nextElementSibling);
    if (!box || !box.classList.contains("dsx-inpage")) return;
    const action = target.closest("button") && target.closest("button").dataset.action;
    if (action === "run") run(box);
    else if (action === "reset") reset(box);
    else edit(box).then((st) => st.cm.focus());
  }

  document.addEventListener("click", (e) => {
    if (e.target.closest(".dsx-inpage button, .dsx-inpage-code")) handle(e.target);
  });
  if (window.dsxInpageFirst) handle(window.dsxInpageFirst);
  for (const box of boxes) if (localStorage.getItem("dsx-inpage:" + box.dataset.exercise) !== null) edit(box);
  window.dsxInpage = { run, edit, reset, checkAll };
})();
