import torch
import torch.nn as nn


class MyBatchNorm1d(nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        raise NotImplementedError("请在这里写你的代码")

    def forward(self, x):
        raise NotImplementedError("请在这里写你的代码")
