// 在 Web Worker 里运行学习者的代码：页面不会被死循环卡住（超时由页面结束这个 Worker）。
// Pyodide 与检查器（feedback.py、list_checks.py 和各网页练习的 items/<练习>/check.py，和 Jupyter 里用的是同一份）
// 都从本站加载（构建时复制到 _static/，清单是 page_files.json），在 Pyodide 里作为包 dsx_page 载入；不访问外部网络。
importScripts("../pyodide/pyodide.js");

const started = (async () => {
  const py = await loadPyodide({ indexURL: new URL("../pyodide/", self.location.href).href });
  const files = await (await fetch("page_files.json")).json();
  for (const name of files) {
    const parts = ("dsx_page/" + name).split("/");
    for (let i = 1; i < parts.length; i++) {   // 每一层文件夹都是包：建目录、放一个空的 __init__.py
      const dir = "/home/pyodide/" + parts.slice(0, i).join("/");
      py.FS.mkdirTree(dir);
      if (!py.FS.analyzePath(dir + "/__init__.py").exists) py.FS.writeFile(dir + "/__init__.py", "");
    }
    const source = await (await fetch(name)).text();
    py.FS.writeFile("/home/pyodide/dsx_page/" + name, source);
  }
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide'); import json; from dsx_page import list_checks");
  return py;
})();
started.then(() => postMessage({ type: "ready" }),
             (err) => postMessage({ type: "error", message: String(err) }));

onmessage = async (event) => {
  const py = await started;
  const { code, checker, entry, spec } = event.data;
  const printed = [];
  py.setStdout({ batched: (s) => printed.push(s) });
  py.setStderr({ batched: (s) => printed.push(s) });
  py.globals.set("learner_code", code);
  py.globals.set("checker_name", checker);
  py.globals.set("entry_name", entry);
  py.globals.set("spec_json", spec);
  const json = py.runPython(
    "json.dumps(list_checks.run_source(learner_code, checker_name, entry_name, json.loads(spec_json)))");
  postMessage({ type: "result", result: JSON.parse(json), printed: printed.join("\n").slice(0, 2000) });
};
