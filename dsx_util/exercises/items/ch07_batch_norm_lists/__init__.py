"""练习 ch07-batch-norm-lists：用嵌套列表比较两种归一化的轴。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "用嵌套列表比较两种归一化的轴"
CHECKER = "check_batch_norm_lists"
CHAPTER = "ch07_layernorm_vs_batchnorm"
IN_PAGE = True
