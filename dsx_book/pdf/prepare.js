// 把单页 HTML 改造成 PDF 版的版面（dsx_book/build_pdf.py 在浏览器里运行它，网页版不用）：
// 目录、每章一页起、章节标题升一级（PDF 书签按章、节分层）、提示展开、参考答案移到书末附录。
// 返回探索器列表，供 Python 截图换成静态图。
(opts) => {
  const article = document.querySelector("article.bd-article") || document.body;
  const root = article.querySelector("section");
  const main = document.createElement("main");
  main.className = "dsx-print bd-article";
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  // 标题的纯文字（书签与目录用）：公式取其 MathML 的文字（MathJax、KaTeX 排出的公式都带一份 <math>）
  const headingText = (h) => {
    const copy = h.cloneNode(true);
    copy.querySelectorAll("a.headerlink, annotation").forEach((a) => a.remove());
    copy.querySelectorAll("mjx-container, .katex").forEach((m) => {
      const mml = m.querySelector("math");
      m.replaceWith(mml ? mml.textContent : m.textContent);
    });
    return copy.textContent.replace(/\s+/g, " ").trim();
  };
  const retag = (node, tag) => {
    const fresh = document.createElement(tag);
    for (const attr of node.attributes) fresh.setAttribute(attr.name, attr.value);
    while (node.firstChild) fresh.appendChild(node.firstChild);
    node.replaceWith(fresh);
    return fresh;
  };
  const shiftHeadings = (scope, by) => {
    if (!by) return;
    for (const h of [...scope.querySelectorAll("h1, h2, h3, h4, h5, h6")]) {
      const level = Math.min(6, Math.max(1, Number(h.tagName[1]) - by));
      retag(h, "h" + level);
    }
  };

  // 目录（页码由第二遍打印填入）
  const toc = el("nav", "dsx-toc");
  toc.append(el("h1", "", opts.tocTitle));
  const tocList = el("ol");
  toc.append(tocList);
  main.append(toc);

  // 各章：从目录树里取出，按阅读顺序排列
  const chapters = [];
  for (const anchor of [...article.querySelectorAll('span[id^="document-"]')]) {
    const sec = anchor.nextElementSibling;
    if (!sec || sec.tagName !== "SECTION") continue;
    chapters.push({ doc: anchor.id.slice("document-".length), anchor, sec });
  }
  const boxes = chapters.map((ch) => {
    const box = el("div", "dsx-chapter");
    box.dataset.doc = ch.doc;
    box.append(ch.anchor, ch.sec);
    shiftHeadings(ch.sec, Number(ch.sec.querySelector("h1, h2, h3").tagName[1]) - 1);
    return box;
  });
  root.querySelectorAll(".toctree-wrapper").forEach((w) => w.remove());
  const preface = el("div", "dsx-chapter");
  const rootTitle = root.querySelector("h1");
  if (rootTitle) rootTitle.textContent = opts.prefaceTitle;
  preface.append(root);
  main.append(preface, ...boxes);

  // 网页版首页的「下载 PDF」「下载网页版」两段（相对链接）在 PDF 里没有意义
  main.querySelectorAll(".dsx-pdf-link, .dsx-web-archive-link").forEach((e) => e.remove());

  // 提示展开；其余折叠内容（隐藏的输出）也全部展开
  main.querySelectorAll("details").forEach((d) => { d.open = true; });

  // 参考答案：移到书末附录，原处留一行链接
  const appendix = el("div", "dsx-chapter");
  const appSection = el("section");
  appSection.id = "dsx-solutions";
  appSection.append(el("h1", "", opts.solutionsTitle));
  appSection.append(el("p", "", opts.solutionsIntro));
  appendix.append(appSection);
  let n = 0;
  for (const cell of [...main.querySelectorAll(".cell.tag_exercise-solution")]) {
    const output = cell.querySelector(".cell_output");
    const exercise = cell.closest("section");
    const h = exercise && exercise.querySelector("h1, h2, h3, h4");
    const title = h ? headingText(h) : opts.solutionsTitle;
    n += 1;
    const sec = el("section");
    sec.id = `dsx-solution-${n}`;
    sec.append(el("h2", "", title));
    if (output) sec.append(...output.childNodes);
    appSection.append(sec);
    const ref = el("p", "dsx-solution-ref", opts.solutionRef + " ");
    const link = el("a", "", title);
    link.href = "#" + sec.id;
    ref.append(link);
    cell.replaceWith(ref);
  }
  if (n) main.append(appendix);

  // 目录条目：每章（h1）和每节（h2），附录只列标题
  const tocLinks = [];
  for (const h of main.querySelectorAll(".dsx-chapter h1, .dsx-chapter h2")) {
    const sec = h.closest("section");
    if (!sec || !sec.id || (h.tagName === "H2" && sec.closest("#dsx-solutions"))) continue;
    const li = el("li", h.tagName === "H1" ? "dsx-toc-1" : "dsx-toc-2");
    const a = el("a");
    a.href = "#" + sec.id;
    a.append(el("span", "dsx-toc-title", headingText(h)), el("span", "dsx-toc-dots"), el("span", "dsx-toc-page", ""));
    li.append(a);
    tocList.append(li);
    tocLinks.push([a, h]);
  }

  // 换掉网页的外框（导航栏、侧栏、页脚），只留正文
  document.body.replaceChildren(main);
  document.body.removeAttribute("class");
  document.documentElement.setAttribute("lang", "zh-CN");
  document.documentElement.dataset.theme = "light";
  document.documentElement.dataset.mode = "light";
  document.title = opts.title;

  // 全部标题按文档顺序编号：Python 用它们重建 PDF 书签，并把页码填回目录
  const headings = [...main.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h, i) => {
    h.dataset.pdfHeading = String(i);
    return { level: Number(h.tagName[1]), title: headingText(h) };
  });
  for (const [a, h] of tocLinks) a.dataset.heading = h.dataset.pdfHeading;

  // 探索器：交给 Python 截图
  const explorers = [...main.querySelectorAll(".dsx-explorer")].map((x, i) => {
    x.dataset.pdfIndex = String(i);
    const box = x.closest(".dsx-chapter");
    return { index: i, doc: box && box.dataset.doc ? box.dataset.doc : "" };
  });
  return { explorers, headings };
}
