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

.PHONY: book test bench system sync lock clean pdf

# 先 make dist：网页版（dist/）和笔记本压缩包提供 dsx_util 的 wheel，读者不靠 PyPI 和 GitHub 也能安装
book: $(VENV)/.installed $(NODE)/.installed
	$(BIN)/python tools/nbsync.py --check
	$(MAKE) dist
	$(BIN)/jupyter-book build . -W -n --keep-going
	$(BIN)/python tools/web_archive.py
	@echo "HTML 已生成：_build/html/index.html"

test: $(VENV)/.installed $(COLAB)/.installed $(NODE)/.installed system
	$(BIN)/python tools/nbsync.py --check
	$(MAKE) dist
	$(BIN)/jupyter-book build . -W -n --keep-going
	$(BIN)/python tools/web_archive.py
	PYTHONPATH=$(CURDIR) $(COLAB)/bin/python -m pytest -p no:cacheprovider -q -W ignore::DeprecationWarning tests/test_widgets.py
	$(BIN)/pytest -q

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
	$(BIN)/python tools/build_pdf.py

$(VENV)/.installed: requirements.txt requirements-dev.txt constraints.txt pyproject.toml
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
	@if [ ! -x /usr/bin/chromium ] || [ -z "$$(fc-list :lang=zh 2>/dev/null)" ] || [ ! -x /usr/bin/pdftotext ] || [ -z "$$(fc-list 'Noto Color Emoji' 2>/dev/null)" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk poppler-utils fonts-noto-color-emoji >/dev/null; \
	  else echo "需要 /usr/bin/chromium：请用 root 运行，或先 sudo apt-get install chromium fonts-noto-cjk poppler-utils fonts-noto-color-emoji"; exit 1; fi; \
	fi

# 改了 _config.yml 的仓库地址或章节后运行：更新每章的设置单元格、清空输出
sync: $(VENV)/.installed
	$(BIN)/python tools/nbsync.py

# dsx_util 的 wheel 与 sdist（发布到 PyPI 的就是它们），并检查能否上传；tests/test_release.py 把 wheel 装进全新环境试用
.PHONY: dist
dist: $(VENV)/.installed
	rm -rf _build/dist build   # build/ 里残留的旧文件会混进 wheel
	$(BIN)/python -m build --outdir _build/dist . >/dev/null
	$(BIN)/twine check --strict _build/dist/*

# 重新生成精确版本的锁文件
lock: $(VENV)/.installed $(COLAB)/.installed
	$(BIN)/pip freeze --exclude-editable | grep -viE '^(dsx[_-]util|-e )' | sed '1i # 由 make lock 生成：make 安装时使用的精确版本（requirements.txt 里只写宽松范围）。' > constraints.txt
	$(COLAB)/bin/pip freeze | grep -viE '^(dsx[_-]util|-e )' | sed '1i # 由 make lock 生成：仿 Colab 测试环境的精确版本。' > constraints-colab.txt

clean:
	rm -rf _build
