// 构建时排版公式：由 dsx_book/formulas.py 调用，整本书只启动一次。
// 标准输入：{"fontURL": "...", "formulas": [{"tex": "...", "display": true}, ...]}
// 标准输出：{"html": [每个公式的 <mjx-container>，或 null], "errors": [错误信息或 null], "css": "全书公式共用的样式"}
// 用的是 npm 包 mathjax-full（MathJax 3，与浏览器里原来的排版引擎相同），输出 CommonHTML。
const {mathjax} = require('mathjax-full/js/mathjax.js');
const {TeX} = require('mathjax-full/js/input/tex.js');
const {CHTML} = require('mathjax-full/js/output/chtml.js');
const {liteAdaptor} = require('mathjax-full/js/adaptors/liteAdaptor.js');
const {RegisterHTMLHandler} = require('mathjax-full/js/handlers/html.js');
const {AssistiveMmlHandler} = require('mathjax-full/js/a11y/assistive-mml.js');
const {AllPackages} = require('mathjax-full/js/input/tex/AllPackages.js');

const request = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const adaptor = liteAdaptor();
// 附带隐藏的 MathML，读屏软件读的是它
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));

const tex = new TeX({
  packages: AllPackages.filter(name => name !== 'bussproofs'),
  formatError: (jax, err) => { throw err; },   // 写错的公式要让构建失败，而不是在网页上显示红字
});
const chtml = new CHTML({fontURL: request.fontURL, adaptiveCSS: true});
const doc = mathjax.document('', {InputJax: tex, OutputJax: chtml});

// 浏览器里的 MathJax 会量出正文字体的 x 高度，把公式放大到与正文等高（本书正文字体下为 127.3%）；
// 这里没有浏览器可量，直接用同样的比例，排版结果与原来一致。
const SCALE = 1.273;

// 每个公式都一样的属性不写进每个公式（代数多的章节每页省 10 KB 以上）：
// 放大比例写进共用样式；HTML 里的 <math> 本就属于 MathML 命名空间，不需要 xmlns；unselectable 只有旧版 IE 认。
const CONTAINER_STYLE = ` style="font-size: ${(SCALE * 100).toFixed(1)}%; position: relative;"`;
const SAME_FOR_ALL = [CONTAINER_STYLE, ' xmlns="http://www.w3.org/1998/Math/MathML"', ' unselectable="on"', / data-mjx-texclass="[A-Z]+"/g];
const SHARED_CSS = `
mjx-container.MathJax[jax="CHTML"] {
  font-size: ${(SCALE * 100).toFixed(1)}%;
  position: relative;
}
`;

const html = [];
const errors = [];
for (const {tex: source, display} of request.formulas) {
  try {
    const node = doc.convert(source, {display, em: 16, ex: 8, containerWidth: 80 * 16, scale: SCALE});
    html.push(SAME_FOR_ALL.reduce((out, text) => out.split(text).join(''), adaptor.outerHTML(node)));
    errors.push(null);
  } catch (err) {
    html.push(null);
    errors.push(String(err.message || err));
  }
}
const css = adaptor.textContent(chtml.styleSheet(doc)) + SHARED_CSS;
process.stdout.write(JSON.stringify({html, errors, css}));
