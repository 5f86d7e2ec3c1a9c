#!/usr/bin/env bash
# Installs @modelcontextprotocol/server-memory from npm into .cache/npm at the repository's root,
# where tests/adapters/test_mcp_adapter.py looks for it (DITTOBENCH_MCP_MEMORY_SERVER overrides).
set -euo pipefail

VERSION="${MCP_MEMORY_SERVER_VERSION:-2026.8.31}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PREFIX="${ROOT}/.cache/npm"
ENTRY="${PREFIX}/node_modules/@modelcontextprotocol/server-memory/dist/index.js"

if ! command -v npm >/dev/null 2>&1; then
  echo "npm is not installed (apt-get install nodejs npm)" >&2
  exit 1
fi
installed="$(node -p "require('${PREFIX}/node_modules/@modelcontextprotocol/server-memory/package.json').version" 2>/dev/null || true)"
if [[ -f "${ENTRY}" && "${installed}" == "${VERSION}" ]]; then
  echo "server-memory ${VERSION} is already at ${ENTRY}"
  exit 0
fi
mkdir -p "${PREFIX}"
npm install --prefix "${PREFIX}" --no-audit --no-fund --no-save \
  "@modelcontextprotocol/server-memory@${VERSION}"
test -f "${ENTRY}"
echo "server-memory ${VERSION} installed at ${ENTRY}"
