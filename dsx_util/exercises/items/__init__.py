# 导入：无。
"""全书的练习，一道一个文件夹（文件夹名是练习 id 把 "-" 换成 "_"）。

每个文件夹里：__init__.py（标题 TITLE、检查函数名 CHECKER）、task.md（题目）、template.py（学习者改写的模板）、
solution.py（参考答案，可以导入、可以测试）、hint.md（提示）。ORDER 决定每章练习的顺序和编号。
"""
ORDER = [
    "ch00-seeded-noise",
    "ch00-table-rows",
    "ch01-count-norms",
    "ch01-pre-ln-block",
    "ch02-relu",
    "ch02-standardize-rows",
    "ch03-predict-shapes",
    "ch03-mean-var",
    "ch04-normalize-eps",
    "ch04-identity-params",
    "ch04-layer-norm-rows",
    "ch05-copy-weights",
    "ch05-layer-norm",
    "ch06-to-biased",
    "ch06-std-ratio",
    "ch06-mean-var-list",
    "ch07-batchnorm-axis",
    "ch07-batch-norm",
    "ch07-batch-norm-lists",
    "ch08-rms",
    "ch08-rms-norm",
    "ch08-rms-norm-list",
    "ch09-post-ln-block",
    "ch09-gpt-trunk",
    "ch10-centering-backward",
    "ch10-layer-norm-backward",
    "ch10-rms-norm-backward",
    "ch11-var-from-sums",
    "ch11-stable-layer-norm",
    "ch11-stable-var-list",
    "ch12-dyt-list",
    "ch12-zero-centered-rms-norm",
    "ch12-qk-norm-scores",
    "ch13-collect-sigma",
    "ch13-frozen-sigma-norm",
]
