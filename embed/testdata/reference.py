"""Independent reference for the Go `local` embedder's golden test.

Embeds every sentence of sentences.json with the same model files the Go code uses
(model.onnx and tokenizer.json from deploy/model/setup.sh), but through HuggingFace
`tokenizers` and Python `onnxruntime`: one sentence at a time, no padding, truncation at
256 tokens (sentence-transformers' max_seq_length for all-MiniLM-L6-v2), mean pooling with
the attention mask, L2 normalisation. Writes golden.json (token ids and vectors).

Run once, from the repository root, after deploy/model/setup.sh:

    python3 -m venv .realm/venv
    .realm/venv/bin/pip install onnxruntime==1.24.1 tokenizers==0.23.3 numpy
    .realm/venv/bin/python embed/testdata/reference.py [model dir, default .realm/model]
"""

import json
import os
import sys

import numpy as np
import onnxruntime
import tokenizers

here = os.path.dirname(os.path.abspath(__file__))
model_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("REALM_MODEL_DIR", ".realm/model")

tok = tokenizers.Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
# The file ships with padding to 128 and truncation at 128; the model (and the Go code) use 256
# and no padding.
tok.no_padding()
tok.enable_truncation(max_length=256)
session = onnxruntime.InferenceSession(os.path.join(model_dir, "model.onnx"), providers=["CPUExecutionProvider"])

with open(os.path.join(here, "sentences.json"), encoding="utf-8") as f:
    sentences = json.load(f)

cases = []
for text in sentences:
    enc = tok.encode(text)
    ids = np.array([enc.ids], dtype=np.int64)
    mask = np.array([enc.attention_mask], dtype=np.int64)
    types = np.array([enc.type_ids], dtype=np.int64)
    (hidden,) = session.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})
    m = mask[..., None].astype(np.float32)
    pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
    vec = pooled[0] / np.linalg.norm(pooled[0])
    cases.append({"text": text, "ids": enc.ids, "vector": [round(float(x), 6) for x in vec]})

golden = {
    "generator": "embed/testdata/reference.py",
    "onnxruntime": onnxruntime.__version__,
    "tokenizers": tokenizers.__version__,
    "cases": cases,
}
with open(os.path.join(here, "golden.json"), "w", encoding="utf-8") as f:
    json.dump(golden, f, ensure_ascii=False, indent=1)
print(f"wrote {len(cases)} cases to {os.path.join(here, 'golden.json')}")
