// 在 Web Worker 里运行学习者的代码：页面不会被死循环卡住（超时由页面结束这个 Worker）。
// Pyodide 与检查器 pure_checks.py 都从本站加载（构建时复制到 _static/），不访问外部网络。
importScripts("../pyodide/pyodide.js");

const started = (async () => {
  const py = await loadPyodide({ indexURL: new URL("../pyodide/", self.location.href).href });
  const source = await (await fetch("pure_checks.py")).text();
  py.FS.writeFile("/home/pyodide/pure_checks.py", source);
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide'); import json, pure_checks");
  return py;
})();
started.then(() => postMessage({ type: "ready" }),
             (err) => postMessage({ type: "error", message: String(err) }));

onmessage = async (event) => {
  const py = await started;
  const { code, checker, entry } = event.data;
  const printed = [];
  py.setStdout({ batched: (s) => printed.push(s) });
  py.setStderr({ batched: (s) => printed.push(s) });
  py.globals.set("learner_code", code);
  py.globals.set("checker_name", checker);
  py.globals.set("entry_name", entry);
  const json = py.runPython("json.dumps(pure_checks.run_source(learner_code, checker_name, entry_name))");
  postMessage({ type: "result", result: JSON.parse(json), printed: printed.join("\n").slice(0, 2000) });
};
