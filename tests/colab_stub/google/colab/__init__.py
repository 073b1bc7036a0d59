"""仿 Colab 测试用的替身模块：让章节的设置单元格以为自己运行在 Google Colab 里。"""
