#!/usr/bin/python3
"""Writes wayfind's tiny test model: testdata/model/{model.onnx,
model_int8.onnx, tokenizer.json, weights.json}, and testdata/model/pooled/
(a model with the wrong output shape, for the failure tests).

A ColBERT-shaped graph — token embedding Gather -> MatMul projection ->
L2 normalise -> x attention mask — over a small WordPiece vocabulary of
path words, letters and digits (so any word tokenizes), dimension 32.
The weights are random (seeded): the model rewards shared tokens, which
is enough to test loading, batching, MaxSim and every failure mode.
model_int8.onnx stores both matrices as int8 with a per-tensor scale and
dequantizes them in the graph (DequantizeLinear), weight-only.
weights.json holds the same matrices for the tests' pure-Go reference.

Needs Debian's python3-onnx (onnx 1.12, opset 13) and numpy:
    /usr/bin/python3 scripts/gen_test_model.py
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "model")
DIM = 32
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = """src lib test tests spec docs doc include internal pkg cmd app main index util utils core
api client server auth login logout middleware handler router route routes command config settings
model models view views controller service services store cache session user users account
http https request response json yaml xml html css js ts tsx jsx go py rs java kt rb php c cc cpp h hpp
md txt sh build make file files path paths name names find resolve locate symbol symbols rank
read write parse parser lexer token tokens error errors log logger util helper helpers common
data db database query queries schema migration migrations type types interface impl replay
cursor binary socket net network stream buffer string strings number array object map list
built ins prototype language expressions statements class function method module""".split()


def vocab():
    toks = list(SPECIAL)
    toks += [chr(c) for c in range(ord("a"), ord("z") + 1)] + [str(d) for d in range(10)]
    toks += ["##" + chr(c) for c in range(ord("a"), ord("z") + 1)] + ["##" + str(d) for d in range(10)]
    for w in WORDS:
        if w not in toks:
            toks.append(w)
    return {t: i for i, t in enumerate(toks)}


def tokenizer_json(v):
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": v[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True} for t in SPECIAL
        ],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", v["[SEP]"]], "cls": ["[CLS]", v["[CLS]"]]},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": v},
    }


def graph(emb, proj, int8):
    inits, nodes = [], []
    if int8:
        for name, m in (("embedding", emb), ("projection", proj)):
            scale = float(np.abs(m).max() / 127.0)
            q = np.clip(np.round(m / scale), -127, 127).astype(np.int8)
            inits += [numpy_helper.from_array(q, name + "_q"),
                      numpy_helper.from_array(np.array(scale, dtype=np.float32), name + "_scale"),
                      numpy_helper.from_array(np.array(0, dtype=np.int8), name + "_zero")]
            nodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_scale", name + "_zero"], [name]))
    else:
        inits += [numpy_helper.from_array(emb, "embedding"), numpy_helper.from_array(proj, "projection")]
    inits.append(numpy_helper.from_array(np.array([-1], dtype=np.int64), "last_axis"))
    nodes += [
        helper.make_node("Gather", ["embedding", "input_ids"], ["tok"]),
        helper.make_node("MatMul", ["tok", "projection"], ["projected"]),
        helper.make_node("LpNormalization", ["projected"], ["normalised"], axis=-1, p=2),
        helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask_f", "last_axis"], ["mask3"]),
        helper.make_node("Mul", ["normalised", "mask3"], ["token_embeddings"]),
    ]
    g = helper.make_graph(
        nodes, "wayfind-tiny-colbert",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("token_embeddings", TensorProto.FLOAT, ["batch", "seq", DIM])],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="wayfind gen_test_model.py")
    m.ir_version = 7
    onnx.checker.check_model(m)
    return m


def pooled(emb, proj):
    """A sentence-embedding model ([batch, dim], mean over tokens): the
    wrong shape for late interaction, for the failure tests."""
    m = graph(emb, proj, False)
    g = m.graph
    g.node.append(helper.make_node("ReduceMean", ["token_embeddings"], ["pooled"], axes=[1], keepdims=0))
    del g.output[:]
    g.output.append(helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", DIM]))
    onnx.checker.check_model(m)
    return m


def dequantized(m):
    scale = np.float32(np.abs(m).max() / 127.0)
    return (np.clip(np.round(m / scale), -127, 127).astype(np.int8).astype(np.float32) * scale).astype(np.float32)


def main():
    os.makedirs(OUT, exist_ok=True)
    v = vocab()
    rng = np.random.default_rng(20261121)
    emb = rng.standard_normal((len(v), DIM)).astype(np.float32)
    proj = (rng.standard_normal((DIM, DIM)) / np.sqrt(DIM)).astype(np.float32)
    onnx.save(graph(emb, proj, False), os.path.join(OUT, "model.onnx"))
    onnx.save(graph(emb, proj, True), os.path.join(OUT, "model_int8.onnx"))
    with open(os.path.join(OUT, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(v), f, indent=1, sort_keys=True)
    pooled_dir = os.path.join(OUT, "pooled")
    os.makedirs(pooled_dir, exist_ok=True)
    onnx.save(pooled(emb, proj), os.path.join(pooled_dir, "model.onnx"))
    with open(os.path.join(pooled_dir, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(v), f, indent=1, sort_keys=True)
    with open(os.path.join(OUT, "weights.json"), "w") as f:
        json.dump({"dim": DIM,
                   "fp32": {"embedding": emb.tolist(), "projection": proj.tolist()},
                   "int8": {"embedding": dequantized(emb).tolist(), "projection": dequantized(proj).tolist()}}, f)
    print("wrote", OUT, "vocab", len(v), file=sys.stderr)


if __name__ == "__main__":
    main()
