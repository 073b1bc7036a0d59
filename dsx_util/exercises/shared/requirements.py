# 导入：无。
"""几道练习共用的题目要求：练习文件夹的 __init__.py 从这里取 FORBIDDEN（名字 -> 题目里的要求）。"""

# 第 10 章手推反向传播的三道练习：不许用 autograd
NO_AUTOGRAD = {name: "不用 autograd，手算梯度"
               for name in ("backward", "autograd", "grad", "requires_grad_", "vjp", "jacobian")}
