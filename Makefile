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
# 单元层、书层、慢层的测试在两个进程里并行（pytest-xdist）；JOBS=1 时在一个进程里顺序运行。
# --dist loadgroup：共用一次昂贵准备（同一页面访问、模块级夹具、.venv-colab）的测试留在同一进程（tests/shards.py 分组，
# tests/conftest.py 的调度器按组分配：pytest-xdist 自带的 loadgroup 在 pytest 9 上不分组）。
# 浏览器层不并行：chromium 本身已占满两核。
JOBS ?= 2
XDIST := $(if $(filter 1,$(JOBS)),,-n $(JOBS) --dist loadgroup)
# 单元层每个进程只用一个计算线程：torch 默认每个进程用满全部核，两个进程的线程互相空等（量过的对照见 CONTRIBUTING「测过的对照」）。
# 单元层不分组（--dist load）：它没有页面访问和 .venv-colab，模块级夹具在两个进程里各准备一次也比按组调度快（同上）。
UNIT := OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/pytest -q -m unit $(if $(filter 1,$(JOBS)),,-n $(JOBS) --dist load)
test-fast: $(VENV)/.installed
	@$(call timed,ruff,$(BIN)/ruff check .)
	@$(call timed,单元层,$(UNIT))

# ---------------------------------------------------------------- CI 的作业（.github/workflows/ci.yml 的每个作业运行其中一个）
# make test 在本机按顺序运行同样的目标，每个作业（每一份）打印一行用时；CI 里它们是并行的作业：
# 静态检查与单元层、仿 Colab 的 ipywidgets 7 层不等构建；构建作业把 _build 打包上传，书层、浏览器层、慢层下载它。
# 浏览器层和慢层分成 SHARDS 份（SHARD=i/N；按组与 tests/durations.json 的秒数分配，见 tests/shards.py）。
BROWSER_SHARDS ?= 2
SLOW_SHARDS ?= 2
SHARD ?=
SHARD_OPT = $(if $(SHARD),--shard $(SHARD),)
.PHONY: ci-lint-unit ci-build ci-pack ci-unpack ci-book ci-browser ci-colab-widgets ci-slow
ci-lint-unit: $(VENV)/.installed
	$(BIN)/ruff check .
	$(UNIT)

ci-build: book

# 构建作业上传的 _build（网页、读者版、执行缓存、dist、网页版压缩包）打成一个 tar，保留修改时间
ci-pack:
	tar -cf _build.tar _build

# 下载后解开，再按依赖的先后更新各个时间戳（环境 → 同步检查 → dist → 网页）：同一提交构建的结果对 make 来说是最新的，
# 书层的 test_make_book_skips_… 照样检查「没改就不重建」
ci-unpack:
	tar -xf _build.tar && rm -f _build.tar
	touch -c $(VENV)/.installed $(COLAB)/.installed $(NODE)/.installed
	touch _build/.nbsync-ok $(DIST_STAMP)
	touch $(HTML_STAMP)

ci-book: system $(VENV)/.installed
	$(BIN)/pytest -q -m book --durations=5 $(XDIST)

ci-browser: system $(VENV)/.installed
	$(BIN)/pytest -q -m browser --durations=10 $(SHARD_OPT)

ci-colab-widgets: $(COLAB)/.installed
	$(COLAB)/bin/python -m pytest -p no:cacheprovider -q -W ignore::DeprecationWarning tests/test_widgets.py

ci-slow: system $(VENV)/.installed $(COLAB)/.installed
	$(BIN)/pytest -q -m slow --durations=10 $(XDIST) $(SHARD_OPT)

# 全部测试：准备环境，再依次运行 CI 的每个作业（浏览器层与慢层逐份运行），每个作业打印一行用时。
# 仿 Colab 环境与构建同时准备（构建主要在执行章节，装环境主要在下载与解包）
test: system
	@$(call timed,准备环境,$(MAKE) --no-print-directory -j2 --output-sync=target $(VENV)/.installed $(NODE)/.installed)
	@$(call timed,构建（同时装 .venv-colab）,$(MAKE) --no-print-directory -j2 --output-sync=target ci-build $(COLAB)/.installed)
	@$(call timed,静态检查与单元层,$(MAKE) --no-print-directory ci-lint-unit)
	@$(call timed,书层,$(MAKE) --no-print-directory ci-book)
	@for i in $$(seq $(BROWSER_SHARDS)); do $(call timed,浏览器层 $$i/$(BROWSER_SHARDS),$(MAKE) --no-print-directory ci-browser SHARD=$$i/$(BROWSER_SHARDS)); done
	@$(call timed,ipywidgets 7.7.1 层,$(MAKE) --no-print-directory ci-colab-widgets)
	@for i in $$(seq $(SLOW_SHARDS)); do $(call timed,慢层 $$i/$(SLOW_SHARDS),$(MAKE) --no-print-directory ci-slow SHARD=$$i/$(SLOW_SHARDS)); done

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
# 单线程、固定种子与步数。语料快照是冻结的：要重新生成用 python -m dsx_book.train_reference --corpus
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
