"""Trains the static code-search embedder and exports it as ONNX for transformers.js.

Model: one embedding table; a text's vector is the mean of its token vectors, L2-normalised
(exactly what transformers.js computes with pooling='mean', normalize=true). Because the
result is normalised, a token vector's length acts as that token's weight, so the table
learns both meaning and importance.

Training: symmetric InfoNCE with in-batch negatives over (query, code) pairs produced by
data.mjs and tokenized by tokenize.mjs (with transformers.js, like the product).

Export: input_ids, attention_mask (int64) -> last_hidden_state [B, T, D] (float32). The table
is stored int8 with one float scale per row (dequantised inside the graph), which keeps the
file small without changing the interface.
"""
import argparse
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "..", ".work")
STAGE = os.path.join(WORK, "stage")


def load_side(side):
    ids = np.fromfile(os.path.join(WORK, f"tokens-{side}.bin"), dtype=np.int32)
    off = np.fromfile(os.path.join(WORK, f"tokens-{side}.off"), dtype=np.int32)
    return torch.from_numpy(ids.astype(np.int64)), torch.from_numpy(off.astype(np.int64))


class Bag(torch.nn.Module):
    def __init__(self, vocab, dim, init_std):
        super().__init__()
        self.emb = torch.nn.EmbeddingBag(vocab, dim, mode="sum", padding_idx=0)
        # Small start: a token the training never updates (rare in the corpus) keeps a
        # near-zero vector and so near-zero weight in the mean, instead of adding a random
        # direction as large as a trained token's to every text it appears in.
        torch.nn.init.normal_(self.emb.weight, std=init_std)
        with torch.no_grad():
            self.emb.weight[0].zero_()

    def forward(self, ids, offsets):
        return F.normalize(self.emb(ids, offsets), dim=-1)


def gather_batch(ids, off, idx):
    """Token ids of the texts `idx`, flattened, with EmbeddingBag offsets (no Python loop)."""
    starts = off[idx]
    lens = off[idx + 1] - starts
    offsets = torch.cumsum(lens, 0) - lens
    pos = torch.arange(int(lens.sum())) - offsets.repeat_interleave(lens) + starts.repeat_interleave(lens)
    return ids[pos], offsets


def source_batches(srcs, files, train_idx, batch, gen):
    """Batches drawn from one code base at a time, its files kept together (a few batches
    straddle a seam): the negatives of a pair are then mostly code of the same file and
    package, sharing its vocabulary and style, as in a real repository search."""
    by_src = {}
    for i in train_idx.tolist():
        by_src.setdefault(srcs[i], {}).setdefault(files[i], []).append(i)
    ordered = []
    for name in sorted(by_src):
        groups = [by_src[name][f] for f in sorted(by_src[name])]
        order = torch.randperm(len(groups), generator=gen).tolist()
        items = []
        for g in order:
            members = torch.tensor(groups[g])
            items.append(members[torch.randperm(len(members), generator=gen)])
        ordered.append(torch.cat(items))
    order = torch.cat([ordered[k] for k in torch.randperm(len(ordered), generator=gen).tolist()])
    n = len(order) // batch
    batches = [order[b * batch : (b + 1) * batch] for b in range(n)]
    return [batches[k] for k in torch.randperm(n, generator=gen).tolist()]


def mrr(model, q, c, idx):
    with torch.no_grad():
        qv = model(*gather_batch(*q, idx))
        cv = model(*gather_batch(*c, idx))
        sims = qv @ cv.T
        ranks = (sims > sims.diag().unsqueeze(1)).sum(1) + 1
        return float((1.0 / ranks.float()).mean())


def export_onnx(weight, path):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    w = weight.detach().numpy().astype(np.float32).copy()
    w[0] = 0.0  # [PAD]
    scale = np.abs(w).max(axis=1, keepdims=True) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    vocab, dim = w.shape
    nodes = [
        # padding positions read row 0 ([PAD]), which is all zeros: masking the ids is cheaper
        # than masking the [B, T, D] activations
        helper.make_node("Mul", ["input_ids", "attention_mask"], ["ids"]),
        helper.make_node("Gather", ["table_q", "ids"], ["rows_q"], axis=0),
        helper.make_node("Gather", ["table_scale", "ids"], ["rows_scale"], axis=0),
        helper.make_node("Cast", ["rows_q"], ["rows_f"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["rows_f", "rows_scale"], ["last_hidden_state"]),
        # the pooled, normalised text vector, so callers can skip pooling in JavaScript
        # (transformers.js pools in a per-element loop; this is the same mean, in C++)
        helper.make_node("ReduceSum", ["last_hidden_state", "axis_seq"], ["pooled"], keepdims=0),
        helper.make_node("LpNormalization", ["pooled"], ["sentence_embedding"], axis=-1, p=2),
    ]
    graph = helper.make_graph(
        nodes,
        "opencode_rag_static_embedder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"]),
        ],
        [
            helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", dim]),
            helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", dim]),
        ],
        [
            numpy_helper.from_array(q, "table_q"),
            numpy_helper.from_array(scale.astype(np.float32), "table_scale"),
            numpy_helper.from_array(np.array([1], dtype=np.int64), "axis_seq"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="opencode-rag")
    model.ir_version = 8
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    onnx.save(model, path)
    err = np.abs(q.astype(np.float32) * scale - w).max()
    print(f"exported {path}: {os.path.getsize(path) / 1e6:.1f} MB, max quantisation error {err:.4f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dim", type=int, default=256)
    ap.add_argument("--epochs", type=float, default=8)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--temp", type=float, default=0.05)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--minutes", type=float, default=60, help="stop after this much training time")
    ap.add_argument("--kinds", default="doc,sig,md,test,path", help="pair kinds to train on (see data.mjs)")
    ap.add_argument("--init-std", type=float, default=0.002, help="std of the initial token vectors")
    ap.add_argument("--init", default="", help="continue from the table of an exported model.onnx (same vocabulary)")
    ap.add_argument("--init-vectors", default="", help="start from token vectors in fastText's .vec text format (rows matched by token), scaled to --init-std")
    ap.add_argument("--same-source", type=float, default=0.5, help="share of epochs batched within one code base")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    q, c = load_side("q"), load_side("c")
    meta = json.load(open(os.path.join(WORK, "tokens-meta.json")))
    srcs = meta["srcs"]
    files = meta.get("files") or srcs
    gen = torch.Generator().manual_seed(args.seed)
    n = len(q[1]) - 1
    vocab = len(json.load(open(os.path.join(STAGE, "tokenizer.json")))["model"]["vocab"])
    perm = torch.randperm(n)
    val_idx, train_idx = perm[:2000], perm[2000:]
    kinds = meta["kinds"]
    wanted = set(args.kinds.split(","))
    train_idx = torch.tensor([i for i in train_idx.tolist() if kinds[i] in wanted])
    model = Bag(vocab, args.dim, args.init_std)
    if args.init:
        import onnx
        from onnx import numpy_helper

        inits = {i.name: numpy_helper.to_array(i) for i in onnx.load(args.init).graph.initializer}
        table = inits["table_q"].astype(np.float32) * inits["table_scale"]
        with torch.no_grad():
            model.emb.weight.copy_(torch.from_numpy(table))
        print(f"continuing from {args.init}")
    if args.init_vectors:
        vocab_list = json.load(open(os.path.join(STAGE, "tokenizer.json")))["model"]["vocab"]
        found = 0
        with torch.no_grad(), open(args.init_vectors, encoding="utf8", errors="replace") as f:
            next(f)
            for line in f:
                parts = line.rstrip().split(" ")
                row = vocab_list.get(parts[0])
                if row is None or row == 0 or len(parts) != args.dim + 1:
                    continue
                v = torch.tensor([float(x) for x in parts[1:]])
                # direction from fastText, length as small as a fresh row: the training still
                # learns each token's weight, but starts from words that co-occur pointing alike
                model.emb.weight[row] = v / (v.norm() + 1e-8) * args.init_std * math.sqrt(args.dim)
                found += 1
        print(f"initialised {found} of {vocab} rows from {args.init_vectors}")
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    steps_per_epoch = len(train_idx) // args.batch
    total = int(steps_per_epoch * args.epochs)

    def progress(step, elapsed):
        # whichever budget runs out first, steps or minutes, ends the schedule: on a shared
        # machine the step rate is unknown in advance, yet the learning rate must still anneal
        return max(step / total, elapsed / (args.minutes * 60))

    def set_lr(p):
        warm = 0.03
        f = p / warm if p < warm else 0.5 * (1 + math.cos(math.pi * min(1.0, (p - warm) / (1 - warm))))
        for g in opt.param_groups:
            g["lr"] = args.lr * max(f, 0.02)
    print(f"pairs {n}, vocab {vocab}, dim {args.dim}, {total} steps; val MRR (2000 candidates) before: {mrr(model, q, c, val_idx):.3f}")
    t0 = time.time()
    step = 0
    labels = torch.arange(args.batch)
    while step < total:
        if torch.rand(1, generator=gen).item() < args.same_source:
            batches = source_batches(srcs, files, train_idx, args.batch, gen)
        else:
            order = train_idx[torch.randperm(len(train_idx), generator=gen)]
            batches = [order[b * args.batch : (b + 1) * args.batch] for b in range(steps_per_epoch)]
        for idx in batches:
            qv = model(*gather_batch(*q, idx))
            cv = model(*gather_batch(*c, idx))
            logits = qv @ cv.T / args.temp
            loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
            set_lr(progress(step, time.time() - t0))
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 50 == 0 or step == total:
                print(f"step {step}/{total} loss {loss.item():.3f} val MRR {mrr(model, q, c, val_idx):.3f} {time.time() - t0:.0f}s", flush=True)
            if progress(step, time.time() - t0) >= 1:
                break
        if progress(step, time.time() - t0) >= 1:
            break
    print(f"trained {step} steps ({step / steps_per_epoch:.1f} epochs)")

    with torch.no_grad():
        model.emb.weight[0].zero_()
    export_onnx(model.emb.weight, os.path.join(STAGE, "onnx", "model.onnx"))
    config = {
        "model_type": "bert",
        "architectures": ["BertModel"],
        "hidden_size": args.dim,
        "vocab_size": vocab,
        "max_position_embeddings": 512,
        "opencode_rag": {
            "preprocess": "identifiers-v1",
            "architecture": "static token embeddings, mean pooling, int8 table with per-row scales",
            "trained": {k: getattr(args, k) for k in ["dim", "epochs", "batch", "lr", "temp", "seed", "same_source", "init_std", "minutes", "kinds"]},
            "pairs": n,
            "steps_done": step,
            "epochs_done": round(step / steps_per_epoch, 2),
        },
    }
    json.dump(config, open(os.path.join(STAGE, "config.json"), "w"), indent=2)
    print(f"done in {time.time() - t0:.0f}s; val MRR {mrr(model, q, c, val_idx):.3f}")


if __name__ == "__main__":
    main()
