// 在 Web Worker 里运行学习者的代码：页面不会被死循环卡住（超时由页面结束这个 Worker）。
// Pyodide 与检查器（core.py、pure_checks.py，和 Jupyter 里用的是同一份）都从本站加载（构建时复制到 _static/），
// 在 Pyodide 里作为包 dsx_page 载入；不访问外部网络。
importScripts("../pyodide/pyodide.js");

const FILES = ["core.py", "pure_checks.py"];
const started = (async () => {
  const py = await loadPyodide({ indexURL: new URL("../pyodide/", self.location.href).href });
  py.FS.mkdirTree("/home/pyodide/dsx_page");
  py.FS.writeFile("/home/pyodide/dsx_page/__init__.py", "");
  for (const name of FILES) {
    const source = await (await fetch(name)).text();
    py.FS.writeFile("/home/pyodide/dsx_page/" + name, source);
  }
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide'); import json; from dsx_page import pure_checks");
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
    "json.dumps(pure_checks.run_source(learner_code, checker_name, entry_name, json.loads(spec_json)))");
  postMessage({ type: "result", result: JSON.parse(json), printed: printed.join("\n").slice(0, 2000) });
};
