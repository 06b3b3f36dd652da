"""Encoder routes of the English model side by side: torch fp32, torch dynamic int8, ONNX Runtime fp32 and int8.

The English package (``models/en_ewt``) spends most of its parse in its BERT encoder
(:mod:`eud.nn.bert`).  This benchmark exports that encoder to ONNX (dynamic batch and
sequence axes; output: the embeddings' and every layer's states stacked, as
:class:`eud.nn.encoders.TransformerEncoder` mixes them), then in one process and one run:

- times each route on the word-piece batches of the first ``--words`` words of en_ewt dev,
  as the parser batches them (words/s of the encoder alone, the best of ``--repeat`` passes);
- compares each route's states with torch fp32 (max abs difference over all layers);
- parses the raw text of en_ewt dev with the route swapped into the loaded pipeline and
  scores ELAS against the gold dev file (never test).  ``--elas-words`` limits that
  to the first paragraphs (0: skip).

Routes: ``torch-fp32``; ``torch-int8`` (``torch.ao.quantization.quantize_dynamic`` of the
``Linear`` layers, the parser's own ``int8``); ``ort-fp32``; ``ort-int8`` (per-tensor,
``quantize_dynamic`` of MatMul and Gemm), ``ort-int8-pc`` (per-channel) and
``ort-int8-matmul`` (MatMul only), and ``ort-int8-pc-ffn32`` (per-channel, the feed-forward
down-projections kept fp32).  Needs ``onnxruntime`` (and ``onnx`` for quantization).

Other work shares the machine's cores: the figures are measurements under load, so
routes are compared only with each other in the same run; the CPU model, flags and the
load average are recorded.

    python -m eval.scale.routes --threads 2 --words 3000 --elas-words 5000
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import tempfile
import time
from pathlib import Path

from eval.common import REPO, command_line, record


def bert_of(pipeline: object) -> object:
    """The :class:`eud.nn.encoders.TransformerEncoder` of a loaded pipeline."""
    return pipeline.predictor.model.encoder.transformer  # type: ignore[attr-defined]


class Stacked:
    """Torch module wrapper: (ids, mask) → all hidden states stacked [L+1, B, S, H] (the ONNX graph's output)."""

    def __new__(cls, bert: object) -> object:
        import torch

        class _Stacked(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.bert = bert

            def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
                allowed = mask.bool()[:, None, None, :]
                x = self.bert.embeddings(ids)
                states = [x]
                for layer in self.bert.encoder.layer:
                    x = layer(x, allowed)
                    states.append(x)
                return torch.stack(states)

        return _Stacked().eval()


def export(bert: object, path: Path) -> None:
    """Write the stacked-states graph of ``bert`` to ``path`` (opset 17, dynamic batch and sequence)."""
    import torch

    ids = torch.randint(1000, 2000, (2, 9))
    mask = torch.ones_like(ids)
    mask[1, 6:] = 0
    torch.onnx.export(Stacked(bert), (ids, mask), str(path), input_names=["ids", "mask"], output_names=["states"],
                      dynamic_axes={"ids": {0: "batch", 1: "seq"}, "mask": {0: "batch", 1: "seq"},
                                    "states": {1: "batch", 2: "seq"}}, opset_version=17, dynamo=False)


def ffn_outputs(path: Path) -> list[str]:
    """Names of the feed-forward down-projections (``layer.N/output/dense``) of an exported graph.

    Their inputs carry BERT's few very large activations, which int8 with one scale per
    tensor rounds worst; the ``-ffn32`` routes keep them in fp32.
    """
    import re

    import onnx

    graph = onnx.load(str(path)).graph
    return [n.name for n in graph.node if re.search(r"layer\.\d+/output/dense/", n.name)]


class OrtBert:
    """An ONNX Runtime session with the call signature :class:`eud.nn.encoders.TransformerEncoder` uses."""

    def __init__(self, path: Path, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # No busy-waiting between runs: the parser's own torch work follows each encoder call on the same cores.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def __call__(self, input_ids: object, attention_mask: object, output_hidden_states: bool = True) -> object:
        import torch

        from eud.nn.bert import BertOutput

        out = self.session.run(None, {"ids": input_ids.numpy(), "mask": attention_mask.numpy()})[0]
        states = torch.from_numpy(out)
        return BertOutput(states[-1], tuple(states))


def swap(encoder: object, model: object) -> None:
    """Put ``model`` (a module or any callable with its signature) in the encoder's place of its BERT."""
    encoder._modules["model"] = model  # type: ignore[attr-defined]  (nn.Module refuses plain callables)


def pieces(encoder: object, sentences: list[list[str]]) -> list[tuple[object, object]]:
    """The (ids, mask) batches the encoder would build for ``sentences`` in parser-sized batches."""
    import torch

    captured: list[tuple[object, object]] = []
    real = encoder.model

    def grab(input_ids: torch.Tensor, attention_mask: torch.Tensor, output_hidden_states: bool = True) -> object:
        captured.append((input_ids, attention_mask))
        return real(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=output_hidden_states)

    swap(encoder, grab)
    try:
        batch: list[list[str]] = []
        with torch.no_grad():
            for forms in sentences:
                batch.append(forms)
                if sum(map(len, batch)) >= 1000:
                    encoder._layers(batch)
                    batch = []
            if batch:
                encoder._layers(batch)
    finally:
        swap(encoder, real)
    return captured


def time_route(run: object, batches: list[tuple[object, object]], words: int, repeat: int) -> tuple[float, list]:
    """Best words/s of ``run`` over ``repeat`` passes of the batches (one warm-up batch first) and its outputs.

    The best pass, since other work on shared cores only ever slows a pass down.
    """
    import torch

    best = float("inf")
    with torch.no_grad():
        run(*batches[0])
        for _ in range(repeat):
            t0 = time.perf_counter()
            outs = [run(ids, mask) for ids, mask in batches]
            best = min(best, time.perf_counter() - t0)
    return words / best, outs


def dev_elas(pipeline: object, gold: Path, paragraphs: str, gold_sentences: list) -> float:
    """ELAS of the pipeline's parse of ``paragraphs`` against the gold sentences they come from."""
    from eud.evaluate import evaluate

    doc = pipeline.parse_text(paragraphs)
    return round(100 * evaluate(gold_sentences, list(doc))["ELAS"].f1, 2)


def main(argv: list[str] | None = None) -> int:
    """Measure the routes and write eval/results/scale/routes.json."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--words", type=int, default=3000, help="words of en_ewt dev timed per route")
    ap.add_argument("--elas-words", type=int, default=5000, help="words of en_ewt dev parsed per route for ELAS (0: none)")
    ap.add_argument("--routes", nargs="+", default=["torch-fp32", "torch-int8", "ort-fp32", "ort-int8",
                                                     "ort-int8-pc", "ort-int8-matmul", "ort-int8-pc-ffn32"])
    ap.add_argument("--repeat", type=int, default=3, help="timed passes per route; the best counts")
    ap.add_argument("--notes", default="")
    args = ap.parse_args(argv)

    import torch

    from eud.conllu import read_conllu
    from eud.nn.network import quantize_int8
    from eud.pipeline import Pipeline
    from eval.scale.speed import gold_file

    torch.set_num_threads(args.threads)
    gold = gold_file("en_ewt", "dev")
    gold_sentences = list(read_conllu(gold))
    pipeline = Pipeline.load(REPO / "models" / "en_ewt", precision="fp32", threads=args.threads)
    encoder = bert_of(pipeline)
    fp32_bert = encoder.model
    sentences, n = [], 0
    for s in gold_sentences:
        if n >= args.words:
            break
        sentences.append([w.form for w in s.words])
        n += len(s.words)
    batches = pieces(encoder, sentences)

    # The ELAS slice: whole paragraphs from the start of dev until --elas-words words.
    elas_gold, paras, words = [], [], 0
    for s in gold_sentences:
        if words >= args.elas_words and any(c.startswith(("# newpar", "# newdoc")) for c in s.comments):
            break
        if not paras or any(c.startswith(("# newpar", "# newdoc")) for c in s.comments):
            paras.append([])
        paras[-1].append(s.text)
        elas_gold.append(s)
        words += len(s.words)
    text = "\n\n".join(" ".join(p) for p in paras) + "\n"

    figures: dict = {"threads": args.threads, "timed_words": n, "repeat": args.repeat, "batches": len(batches), "elas_words": words,
                     "routes": {}}
    if args.elas_words:  # one untimed parse first: the one-off costs (lemma suffix tables) fall on no route
        pipeline.parse_text(text)
    with tempfile.TemporaryDirectory() as tmp:
        onnx_fp32 = Path(tmp) / "bert.onnx"
        reference = None
        for route in args.routes:
            load_before = os.getloadavg()[0]
            t0 = time.perf_counter()
            if route == "torch-fp32":
                model = fp32_bert
            elif route == "torch-int8":
                model = quantize_int8(Stacked(copy.deepcopy(fp32_bert))).bert
            else:
                if not onnx_fp32.exists():
                    export(fp32_bert, onnx_fp32)
                path = onnx_fp32
                if route != "ort-fp32":
                    from onnxruntime.quantization import QuantType, quantize_dynamic

                    path = Path(tmp) / f"{route}.onnx"
                    quantize_dynamic(str(onnx_fp32), str(path), weight_type=QuantType.QInt8,
                                     per_channel=route.startswith("ort-int8-pc"),
                                     op_types_to_quantize=["MatMul"] if route == "ort-int8-matmul" else None,
                                     nodes_to_exclude=ffn_outputs(onnx_fp32) if route.endswith("-ffn32") else None)
                model = OrtBert(path, args.threads)
            prepare_s = time.perf_counter() - t0

            def run(ids: torch.Tensor, mask: torch.Tensor, model: object = model) -> torch.Tensor:
                return torch.stack(model(input_ids=ids, attention_mask=mask, output_hidden_states=True).hidden_states)

            speed, outs = time_route(run, batches, n, args.repeat)
            if reference is None:
                reference = outs
            diff = max(float((a - b).abs().max()) for a, b in zip(outs, reference))
            row = {"encoder_words_per_s": round(speed), "max_abs_diff_vs_first": round(diff, 5),
                   "prepare_s": round(prepare_s, 2)}
            if args.elas_words:
                swap(encoder, model)
                encoder._pieces.clear()
                t1 = time.perf_counter()
                row["dev_elas"] = dev_elas(pipeline, gold, text, elas_gold)
                row["parse_words_per_s"] = round(words / (time.perf_counter() - t1))
                swap(encoder, fp32_bert)
            row["load_average"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
            figures["routes"][route] = row
            print(route, row, flush=True)
    first = args.routes[0]
    if args.elas_words and "dev_elas" in figures["routes"].get(first, {}):
        for row in figures["routes"].values():
            row["dev_elas_minus_first"] = round(row["dev_elas"] - figures["routes"][first]["dev_elas"], 2)
    print("wrote", record("scale", "routes", figures, label="measurement", command=command_line("eval.scale.routes"),
                          notes=args.notes or "measurements under load: other helpers share the 2 cores; "
                          "compare routes only with each other in this run", with_cpu=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
