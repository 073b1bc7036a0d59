# 导入：无。
"""练习 ch03-predict-shapes：预测结果的形状。题目 task.md，模板 template.py，参考答案 solution.py，提示 hint.md。"""
TITLE = "预测结果的形状"
CHECKER = "check_predict_shapes"
CHAPTER = "ch03_dim_keepdim"
IN_PAGE = True
