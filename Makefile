# 两个命令：make book（准备环境并构建 HTML）与 make test（准备环境并运行全部测试）。
# 第一次运行会创建 .venv（构建与测试）和 .venv-colab（仿 Colab 环境），之后只在依赖文件变化时重装。
PYTHON ?= python3
VENV   := .venv
COLAB  := .venv-colab
BIN    := $(VENV)/bin
NODE   := node_modules
# 只有 CPU 的机器上可设 TORCH_INDEX=https://download.pytorch.org/whl/cpu，避免下载 CUDA 版 torch
TORCH_INDEX ?=
PIP_TORCH := $(if $(TORCH_INDEX),--extra-index-url $(TORCH_INDEX),)
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PYTHONDONTWRITEBYTECODE := 1
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
# $(call timed,阶段名,命令)：运行命令，再打印这一阶段用了多少秒
timed = t=$$(date +%s); $(2); echo "== $(1)：$$(( $$(date +%s) - t )) 秒"
DIST_STAMP := _build/dist/.built

.PHONY: book test test-fast bench system prerequisites sync lock clean pdf model

# 网页版的输入：章节、样式、构建包、dsx_util（各章导入它）和配置；都没有比上次构建新时，make 直接跳过构建。
# 构建失败（-W：有警告也算）时不写 $(HTML_STAMP)，下次照样重建。
# 缓存里没有的章节在 Sphinx 读入之前两章同时执行（dsx_book/parallel.py）；DSX_JOBS=1 时由 myst-nb 逐章执行。
HTML_STAMP := _build/.html-built
$(if $(wildcard _build/html/index.html),,$(shell rm -f $(HTML_STAMP)))   # 网页被删了就重建
# 文件夹本身也算（删掉一个文件时文件夹的修改时间会变）
BOOK_INPUTS := _config.yml _toc.yml book/. _static/. _extra/. dsx_book/. dsx_util/. $(shell find book _static _extra dsx_book dsx_util -mindepth 1 -not -path '*__pycache__*' -not -path '*.ipynb_checkpoints*' -not -path '*.egg-info*')

# 先 make dist：网页版（dist/）和笔记本压缩包提供 dsx_util 的 wheel，读者不靠 PyPI 和 GitHub 也能安装
book: prerequisites $(HTML_STAMP)
	@echo "HTML 已生成：_build/html/index.html"

$(HTML_STAMP): $(VENV)/.installed $(NODE)/.installed _build/.nbsync-ok $(DIST_STAMP) $(BOOK_INPUTS)
	mkdir -p _build && $(BIN)/jupyter-book build . -W -n --keep-going 2>&1 | tee _build/build.log
	$(BIN)/python -m dsx_book.web_archive
	touch $@

# 单元层：不构建、不开浏览器（dsx_util、检查器、转换器、扩展的纯函数），外加 ruff；改了代码先跑它。
# 单元层的测试互不依赖，在两个进程里并行（pytest-xdist）；JOBS=1 时在一个进程里顺序运行
JOBS ?= 2
UNIT := $(BIN)/pytest -q -m unit $(if $(filter 1,$(JOBS)),,-n $(JOBS))
# 慢层也在两个进程里并行，按文件分配（同一文件的测试与模块级夹具留在同一进程）：2026-12-01 量到 684 s → 315 s。
# 浏览器层不并行：chromium 本身已占满两核，两个进程只从 665 s 到 608 s
SLOW := $(BIN)/pytest -q -m slow --durations=10 $(if $(filter 1,$(JOBS)),,-n $(JOBS) --dist loadfile)
test-fast: $(VENV)/.installed
	@$(call timed,ruff,$(BIN)/ruff check .)
	@$(call timed,单元层,$(UNIT))

# 全部测试，分层运行并打印每层用时（书层、浏览器层、慢层还列出最慢的几个测试）：构建 → 单元层 → 读构建结果的书层 → 浏览器层 → 慢层（仿 Colab、PDF、全新环境、JupyterLab）
# 准备环境：两个 venv 与 npm 包互不依赖，同时安装（make -j3）；都已是最新时这一步不到 1 秒
test: system
	@$(call timed,准备环境,$(MAKE) --no-print-directory -j3 --output-sync=target $(VENV)/.installed $(COLAB)/.installed $(NODE)/.installed)
	@$(call timed,构建,$(MAKE) --no-print-directory book)
	@$(call timed,ruff,$(BIN)/ruff check .)
	@$(call timed,单元层,$(UNIT))
	@$(call timed,书层,$(BIN)/pytest -q -m book --durations=5)
	@$(call timed,浏览器层,$(BIN)/pytest -q -m browser --durations=10)
	@$(call timed,慢层（ipywidgets 7.7.1）,$(COLAB)/bin/python -m pytest -p no:cacheprovider -q -W ignore::DeprecationWarning tests/test_widgets.py)
	@$(call timed,慢层,$(SLOW))

# 章节的设置单元格、练习单元格是标准内容且不带输出（python -m dsx_book.nbsync --check）；只在它读的文件变了以后才再查
_build/.nbsync-ok: $(VENV)/.installed book/*.ipynb _config.yml _toc.yml dsx_book/nbsync.py dsx_book/common.py dsx_util/__init__.py $(shell find dsx_util/exercises -type f -not -path '*__pycache__*')
	$(BIN)/python -m dsx_book.nbsync --check
	mkdir -p _build && touch $@

# 系统前提：python3 的 venv 模块、node 20 以上与 npm（缺了就安装或说明，见 tools/prerequisites.sh）
prerequisites:
	@PYTHON=$(PYTHON) sh tools/prerequisites.sh book

bench: $(VENV)/.installed system book
	$(BIN)/python bench/bench_book.py
	$(BIN)/python bench/bench_import.py
	$(BIN)/python bench/bench_layernorm_speed.py
	$(BIN)/python bench/bench_widgets.py
	$(BIN)/python bench/bench_inpage.py
	$(BIN)/python bench/bench_pdf.py
	$(BIN)/python bench/bench_pages.py

# PDF 版：单页 HTML + chromium 打印，结果在 _build/pdf/，并复制到 _build/html/（首页有链接）。
# 与网页版共用执行缓存：网页版是最新的时候不会再执行任何一章。
pdf: $(VENV)/.installed system
	$(BIN)/python -m dsx_book.build_pdf

# requirements-dev.txt 的最后一行以可编辑方式安装本书的构建包 dsx_book（dsx_book/pyproject.toml），不改 sys.path
$(VENV)/.installed: requirements.txt requirements-dev.txt constraints.txt pyproject.toml dsx_book/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/pip install -q $(PIP_TORCH) -c constraints.txt -r requirements.txt -r requirements-dev.txt
	touch $@

$(COLAB)/.installed: requirements-colab.txt constraints-colab.txt
	test -x $(COLAB)/bin/python || $(PYTHON) -m venv $(COLAB)
	$(COLAB)/bin/python -m pip install -q --upgrade pip
	$(COLAB)/bin/pip install -q $(PIP_TORCH) -c constraints-colab.txt -r requirements-colab.txt
	touch $@

# 构建时用到的前端包（package.json 里写精确版本），从 npm 安装，不提交
$(NODE)/.installed: package.json
	npm install --no-audit --no-fund --no-package-lock --loglevel=error
	mkdir -p $(NODE)
	touch $@

# 浏览器测试与 PDF 版需要 Debian 的 chromium、中文字体、彩色 emoji 字体（执行状态表里的 ✅）和 poppler-utils（pdftotext）；
# 以 root 运行且缺少时自动安装
system:
	@PYTHON=$(PYTHON) sh tools/prerequisites.sh test

# 维护者的一步（构建从不运行它）：训练第 13 章的参考模型，写出 dsx_util/data/ 里的检查点、训练日志与其他结果。
# 单线程、固定种子与步数；在两核机器上约几十分钟。语料快照是冻结的：要重新生成用 python -m dsx_book.train_reference --corpus
model: $(VENV)/.installed
	nice -n 5 $(BIN)/python -m dsx_book.train_reference

# 改了 _config.yml 的仓库地址或章节后运行：更新每章的设置单元格、清空输出
sync: $(VENV)/.installed
	$(BIN)/python -m dsx_book.nbsync

# dsx_util 的 wheel 与 sdist（发布到 PyPI 的就是它们），并检查能否上传；tests/test_release.py 把 wheel 装进全新环境试用
# 只在包的文件变了以后才重新构建（_build/dist/.built 记下上次构建的时刻）
.PHONY: dist
dist: $(DIST_STAMP)
$(DIST_STAMP): $(VENV)/.installed pyproject.toml README.md MANIFEST.in LICENSE $(shell find dsx_util -type f -not -path '*__pycache__*')
	rm -rf _build/dist build   # build/ 里残留的旧文件会混进 wheel
	$(BIN)/python -m build --outdir _build/dist . >/dev/null
	$(BIN)/twine check --strict _build/dist/*
	touch $@

# 重新生成精确版本的锁文件
lock: $(VENV)/.installed $(COLAB)/.installed
	$(BIN)/pip freeze --exclude-editable | grep -viE '^(dsx[_-]util|-e )' | sed '1i # 由 make lock 生成：make 安装时使用的精确版本（requirements.txt 里只写宽松范围）。' > constraints.txt
	$(COLAB)/bin/pip freeze | grep -viE '^(dsx[_-]util|-e )' | sed '1i # 由 make lock 生成：仿 Colab 测试环境的精确版本。' > constraints-colab.txt

clean:
	rm -rf _build
