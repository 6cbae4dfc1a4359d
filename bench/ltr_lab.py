"""Scratch lab for issue 13 (not shipped): cache out-of-fold walks of the tune half, then try feature groups."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cv_tune import fold_of, ranker_for

from medpath.datasets import load_paths, split_tune_check
from medpath.metrics import path_f1_best_chain
from medpath.resources import load_resources
from medpath.settings import Settings
from tools.edge_predictor import EmbeddingEdgePredictor, RelationPriors
from tools.walker import GraphWalker

CACHE = Path("traces/ltr_cache.pkl")


def build() -> None:
    s = Settings.from_env()
    res = load_resources(s)
    tune, _ = split_tune_check(load_paths(s.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    kg = res.kg

    def ty(x: str) -> str:
        e = kg.node(x)
        return e.type if e else "Unknown"

    walker = GraphWalker(kg, s.budget)
    out = {}
    qvs = res.embed_many([r.question for r in tune])
    for k in range(5):
        fit = [r for r in tune if fold_of(r) != k]
        pri = RelationPriors.fit([(ty(t.head), t.relation, ty(t.tail)) for r in fit for t in r.gold_triples], kg.relations)
        p0 = res.predictor
        pred = EmbeddingEdgePredictor(p0.relations, p0.relation_vectors, pri, p0.embed, beta=p0.beta, temperature=p0.temperature)
        rk = ranker_for(res, fit)
        for r, qv in zip(tune, qvs, strict=True):
            if fold_of(r) != k:
                continue
            paths = walker.walk([r.drug_id], [r.disease_id], pred.conf_fn(qv)).paths
            gold = [(t.head, t.relation, t.tail) for t in r.gold_triples]
            y = np.array([path_f1_best_chain([(e.head, e.relation, e.tail) for e in p.edges], gold, r.gold_chains) for p in paths])
            base = rk.features(paths, qv) if paths else np.zeros((0, 33))
            out[r.id] = {"paths": [(tuple((e.head, e.relation, e.tail) for e in p.edges), p.confs) for p in paths],
                         "y": y, "base": base, "qv": qv, "fold": k}
        print("fold", k, flush=True)
    CACHE.write_bytes(pickle.dumps(out))


if __name__ == "__main__" and sys.argv[1:] == ["build"]:
    build()


# ---------------------------------------------------------------- experiments
import json
import math
import os
from collections import Counter, defaultdict


class Stats:
    """Counts over gold chains (of other folds)."""

    def __init__(self, chains):  # chains: list of (drug, disease, [triples])
        self.edge = Counter()
        self.node = Counter()
        self.last_dis = Counter()
        self.nodes_dis = defaultdict(Counter)
        self.first_t = Counter()
        self.cont = defaultdict(Counter)
        self.sub = set()
        self.suf_dis = set()
        self.pair = Counter()
        self.n = len(chains)
        for drug, dis, steps in chains:
            self.edge.update(set(steps))
            inner = {s[2] for s in steps[:-1]}
            self.node.update(inner)
            self.last_dis[(dis, steps[-1])] += 1
            self.nodes_dis[dis].update(inner)
            self.first_t[steps[0][2]] += 1
            self.cont[steps[0][2]].update(set(steps[1:]))
            st = tuple(steps)
            for i in range(len(st)):
                for j in range(i + 1, len(st) + 1):
                    self.sub.add(st[i:j])
                self.suf_dis.add((dis, st[i:]))
            for s in steps:
                self.pair[(s[0], s[2])] += 1

    def feats(self, edges, disease):
        k = len(edges)
        rest = edges[1:]
        inner = [e[2] for e in edges[:-1]]
        t = edges[0][2]
        suf_d = 0
        for i in range(k):
            if (disease, tuple(edges[i:])) in self.suf_dis:
                suf_d = k - i
                break
        suf_a = 0
        for i in range(k):
            if tuple(edges[i:]) in self.sub:
                suf_a = k - i
                break
        pre_a = 0
        for j in range(k, 1, -1):
            if tuple(edges[1:j]) in self.sub:
                pre_a = j - 1
                break
        nc = self.first_t[t]
        cont = [self.cont[t][e] / nc for e in rest] if nc and rest else [0.0]
        return [
            sum(1 for e in rest if self.edge[e]) / len(rest) if rest else 1.0,
            sum(math.log1p(self.edge[e]) for e in rest) / len(rest) if rest else 0.0,
            suf_d / k, float(suf_d),
            suf_a / k, float(suf_a), pre_a / max(k - 1, 1),
            math.log1p(self.last_dis[(disease, edges[-1])]),
            math.log1p(nc),
            max(cont), sum(cont) / len(cont),
            sum(1 for x in inner[1:] if self.nodes_dis[disease][x]) / max(len(inner) - 1, 1),
            sum(math.log1p(self.node[x]) for x in inner) / len(inner) if inner else 0.0,
            min(math.log1p(self.node[x]) for x in inner) if inner else 0.0,
            sum(1 for e in edges if self.pair[(e[0], e[2])] and not self.edge[e]) / k,
        ]


T_NAMES = ["t_edge_frac", "t_edge_log", "t_suf_dis_frac", "t_suf_dis", "t_suf_any_frac", "t_suf_any", "t_pre_any",
           "t_last_dis", "t_target_n", "t_cont_max", "t_cont_mean", "t_nodes_dis", "t_node_log", "t_node_min", "t_pair_other_rel"]


def structure(kg, edges, cache):
    def deg(x):
        if x not in cache:
            cache[x] = (kg.degree(x), len(kg.out_edges(x)), len(kg.in_edges(x)) if hasattr(kg, "in_edges") else kg.degree(x))
        return cache[x]
    nodes = [edges[0][0], *(e[2] for e in edges)]
    pcrw_f = sum(-math.log(max(deg(e[0])[1], 1)) for e in edges)
    pcrw_b = sum(-math.log(max(deg(e[2])[2], 1)) for e in edges)
    pdp = sum(-0.4 * math.log(max(deg(x)[0], 1)) for x in nodes)
    inner = nodes[1:-1]
    spec = [-math.log(max(deg(x)[0], 1)) for x in inner] or [0.0]
    return [pcrw_f, pcrw_b, pdp, min(spec), sum(spec) / len(spec)]


S_NAMES = ["s_pcrw_f", "s_pcrw_b", "s_pdp", "s_spec_min", "s_spec_mean"]


def pool_dwpc(kg, paths, types_of, struct_rows):
    """Pool-based DWPC: per metapath (type seq + rel seq) sum of exp(pdp) over the candidates, log."""
    mp = []
    for edges, _ in paths:
        mp.append((tuple(types_of(x) for x in [edges[0][0], *(e[2] for e in edges)]), tuple(e[1] for e in edges)))
    tmass, rmass, tcount = Counter(), Counter(), Counter()
    for m, row in zip(mp, struct_rows):
        w = math.exp(row[2])
        tmass[m[0]] += w
        rmass[m] += w
        tcount[m[0]] += 1
    return [[math.log(tmass[m[0]] + 1e-12), math.log(rmass[m] + 1e-12), math.log(tcount[m[0]]), math.log(rmass[m] / tmass[m[0]])] for m in mp]


D_NAMES = ["d_type_dwpc", "d_meta_dwpc", "d_type_count", "d_meta_share"]


TAUS = (0.25, 0.5, 1.0, 2.0)


def _f1(a, b):
    sa, sb = set(a), set(b)
    i = len(sa & sb)
    return 2 * i / (len(sa) + len(sb)) if i else 0.0


def mbr(pr, paths, tau, n=20):
    top = np.argsort(-pr)[:n]
    w = np.exp((pr[top] - pr[top].max()) / tau)
    w /= w.sum()
    best, bv = int(top[0]), -1.0
    for i in top:
        v = sum(wj * _f1(paths[i][0], paths[j][0]) for j, wj in zip(top, w))
        if v > bv:
            best, bv = int(i), v
    return best


def triple_rank(pr, paths, tau, first):
    order = np.argsort(-pr)[:50]
    mass = {}
    for i in order:
        w = math.exp((pr[i] - pr[order[0]]) / tau)
        for e in paths[i][0]:
            mass[e] = mass.get(e, 0.0) + w
    ranked = sorted(mass, key=lambda e: -mass[e])
    if first:
        head = list(paths[order[0]][0])
        ranked = head + [e for e in ranked if e not in head]
    return ranked


def experiment() -> None:
    import lightgbm as lgb

    s = Settings.from_env()
    res = load_resources(s)
    kg = res.kg
    tune, _ = split_tune_check(load_paths(s.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    data = pickle.loads(CACHE.read_bytes())
    tcache = {}

    def ty(x):
        if x not in tcache:
            e = kg.node(x)
            tcache[x] = e.type if e else "Unknown"
        return tcache[x]

    def chains(recs):
        out = []
        for r in recs:
            for c in r.gold_chains:
                out.append((r.drug_id, r.disease_id, [(r.gold_triples[i].head, r.gold_triples[i].relation, r.gold_triples[i].tail) for i in c]))
        return out
    stats = {k: Stats(chains([r for r in tune if fold_of(r) != k])) for k in range(5)}
    dcache = {}
    feats = {}
    for r in tune:
        d = data[r.id]
        if not d["paths"]:
            continue
        st = stats[d["fold"]]
        T = np.array([st.feats(e, r.disease_id) for e, _ in d["paths"]])
        S = np.array([structure(kg, e, dcache) for e, _ in d["paths"]])
        D = np.array(pool_dwpc(kg, d["paths"], ty, S))
        feats[r.id] = {"B": d["base"], "T": T, "S": S, "D": D}
    # target encoding from the candidate pools of other folds
    enc = {}
    for k in range(5):
        seen_n, good_n, seen_e, good_e, seen_r, good_r = Counter(), Counter(), Counter(), Counter(), Counter(), Counter()
        for r in tune:
            d = data[r.id]
            if d["fold"] == k or not d["paths"]:
                continue
            sn, gn, se, ge, sr, gr = set(), set(), set(), set(), set(), set()
            for (edges, _), y in zip(d["paths"], d["y"]):
                for e in edges:
                    rk = (ty(e[0]), e[1], ty(e[2]))
                    se.add(e); sr.add(rk); sn.add(e[2])
                    if y >= 0.75:
                        ge.add(e); gr.add(rk); gn.add(e[2])
            seen_n.update(sn); good_n.update(gn); seen_e.update(se); good_e.update(ge); seen_r.update(sr); good_r.update(gr)
        enc[k] = (seen_n, good_n, seen_e, good_e, seen_r, good_r)
    for r in tune:
        if r.id not in feats:
            continue
        seen_n, good_n, seen_e, good_e, seen_r, good_r = enc[data[r.id]["fold"]]
        rows = []
        for edges, _ in data[r.id]["paths"]:
            inner = [e[2] for e in edges[:-1]]
            nr = [math.log((good_n[x] + 0.3) / (seen_n[x] + 1)) for x in inner] or [0.0]
            er = [math.log((good_e[e] + 0.3) / (seen_e[e] + 1)) for e in edges]
            rr = [math.log((good_r[(ty(e[0]), e[1], ty(e[2]))] + 0.3) / (seen_r[(ty(e[0]), e[1], ty(e[2]))] + 1)) for e in edges]
            rows.append([sum(nr) / len(nr), min(nr), sum(er) / len(er), min(er), sum(rr) / len(rr), min(rr), er[-1], rr[-1]])
        feats[r.id]["E"] = np.array(rows)
        te = np.hstack([feats[r.id]["T"], feats[r.id]["E"], feats[r.id]["B"]])
        feats[r.id]["R"] = te - te.max(0)
        tb = np.hstack([feats[r.id]["T"], feats[r.id]["B"]])
        feats[r.id]["Q"] = tb - tb.max(0)
    # class transfer, similar-disease transfer, name similarity to the ends
    by_drug = {k: defaultdict(list) for k in range(5)}
    by_dis = {k: defaultdict(list) for k in range(5)}
    for r in tune:
        for c in r.gold_chains:
            steps = tuple((r.gold_triples[i].head, r.gold_triples[i].relation, r.gold_triples[i].tail) for i in c)
            for k in range(5):
                if fold_of(r) != k:
                    by_drug[k][r.drug_id].append(steps)
                    by_dis[k][r.disease_id].append(steps)
    dis_ids = sorted({r.disease_id for r in tune})
    dvec = {x: res.node_vector(x) for x in dis_ids}
    dis_ids = [x for x in dis_ids if dvec[x] is not None]
    dmat = np.vstack([dvec[x] for x in dis_ids])
    for r in tune:
        if r.id not in feats:
            continue
        k = data[r.id]["fold"]
        mates = {e.tail for e in kg.out_edges(r.drug_id)}
        cls = set()
        for t in mates:
            for e in kg.in_edges(t):
                if e.head != r.drug_id and e.head in by_drug[k]:
                    cls.add(e.head)
        cedge, cnode = Counter(), Counter()
        for dd in cls:
            for ch in by_drug[k][dd]:
                cedge.update(set(ch[1:]))
                cnode.update({s[2] for s in ch[:-1]})
        v = res.node_vector(r.disease_id)
        sedge, snode = Counter(), Counter()
        if v is not None:
            sims = dmat @ v
            order = [dis_ids[i] for i in np.argsort(-sims)[:11] if dis_ids[i] != r.disease_id][:10]
            for dz in order:
                for ch in by_dis[k][dz]:
                    sedge.update(set(ch[1:-1]))
                    snode.update({s[2] for s in ch[1:-1]})
        dv = res.node_vector(r.drug_id)
        rows = []
        for edges, _ in data[r.id]["paths"]:
            rest = edges[1:]
            inner = [e[2] for e in edges[:-1]]
            ce = [math.log1p(cedge[e]) for e in rest] or [0.0]
            cn = [math.log1p(cnode[x]) for x in inner[1:]] or [0.0]
            se = [math.log1p(sedge[e]) for e in rest[:-1]] or [0.0]
            sn = [math.log1p(snode[x]) for x in inner[1:]] or [0.0]
            nv = [res.node_vector(x) for x in inner]
            simd = [float(u @ v) for u in nv if u is not None and v is not None] or [0.0]
            simg = [float(u @ dv) for u in nv if u is not None and dv is not None] or [0.0]
            rows.append([math.log1p(len(cls)), sum(ce) / len(ce), max(ce), sum(1 for x in ce if x) / len(ce), sum(cn) / len(cn),
                         sum(se) / len(se), max(se), sum(sn) / len(sn), max(sn),
                         simd[-1], max(simd), sum(simd) / len(simd), simg[0], max(simg)])
        feats[r.id]["C"] = np.array(rows)
    print("features done", flush=True)
    groups = {"base": ["B"], "base+T": ["B", "T"], "base+S": ["B", "S"], "base+D": ["B", "D"], "all": ["B", "T", "S", "D"],
              "all-T": ["B", "S", "D"], "base+T+E": ["B", "T", "E"], "all+E": ["B", "T", "S", "D", "E"], "BTER": ["B", "T", "E", "R"], "BTERC": ["B", "T", "E", "R", "C"], "BTQ": ["B", "T", "Q"], "BTQS": ["B", "T", "Q", "S"]}
    sel = sys.argv[2].split(",") if len(sys.argv) > 2 else list(groups)
    rng = np.random.default_rng(0)
    keep = {}
    for r in tune:
        if r.id not in feats:
            continue
        y = data[r.id]["y"]
        good = np.flatnonzero(y >= 0.5)
        rest = np.setdiff1d(np.arange(len(y)), good)
        keep[r.id] = np.sort(np.concatenate([good, rng.choice(rest, size=min(len(rest), max(0, int(os.environ.get("KEEP", 100)) - len(good))), replace=False)])).astype(int)
    for name in sel:
        cols = groups[name]
        per = []
        mbr_sc = {}
        for k in range(5):
            tr = [r for r in tune if r.id in feats and fold_of(r) != k]
            va = [r for r in tune if fold_of(r) == k]
            X = np.vstack([np.hstack([feats[r.id][c] for c in cols])[keep[r.id]] for r in tr])
            Y = np.concatenate([np.rint(data[r.id]["y"][keep[r.id]] * int(os.environ.get("GRADES", 4))).astype(int) for r in tr])
            params = {"objective": "lambdarank", "learning_rate": 0.05, "num_leaves": 31, "min_data_in_leaf": 20,
                      "seed": 13, "num_threads": 2, "verbose": -1, "deterministic": True, "force_row_wise": True,
                      "label_gain": [0, 1, 3, 7, 15], "lambdarank_truncation_level": 10, "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1}
            params.update(json.loads(os.environ.get("P", "{}")))
            grades = int(os.environ.get("GRADES", 4))
            params["label_gain"] = [2**i - 1 for i in range(grades + 1)] if grades <= 6 else list(range(grades + 1))
            m = lgb.train(params, lgb.Dataset(X, Y, group=[len(keep[r.id]) for r in tr]), num_boost_round=int(os.environ.get("ROUNDS", 300)))
            sc = []
            for r in va:
                if r.id not in feats:
                    sc.append(0.0)
                    continue
                x = np.hstack([feats[r.id][c] for c in cols])
                pr = m.predict(x)
                sc.append(float(data[r.id]["y"][int(np.argmax(pr))]))
                gold = {(t.head, t.relation, t.tail) for t in r.gold_triples}
                for tau in TAUS:
                    for first in (False, True):
                        top = triple_rank(pr, data[r.id]["paths"], tau, first)[:5]
                        mbr_sc.setdefault((tau, first), []).append(len(set(top) & gold) / min(5, len(gold)))
            per.append(np.mean(sc))
        print({t: round(float(np.mean(v)), 4) for t, v in mbr_sc.items()})
        print(f"{name:10s} {np.mean(per):.3f} ± {np.std(per):.3f}  {[round(p, 3) for p in per]}", flush=True)


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "exp":
    experiment()


def diagnose() -> None:
    import lightgbm as lgb

    s = Settings.from_env()
    res = load_resources(s)
    kg = res.kg
    tune, _ = split_tune_check(load_paths(s.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    data = pickle.loads(CACHE.read_bytes())

    def chains(recs):
        return [(r.drug_id, r.disease_id, [(r.gold_triples[i].head, r.gold_triples[i].relation, r.gold_triples[i].tail) for i in c])
                for r in recs for c in r.gold_chains]
    k = 0
    st = Stats(chains([r for r in tune if fold_of(r) != k]))
    feats = {r.id: np.hstack([data[r.id]["base"], np.array([st.feats(e, r.disease_id) for e, _ in data[r.id]["paths"]])])
             for r in tune if data[r.id]["paths"] and fold_of(r) == k}
    # train quickly on other folds with per-fold stats
    stats = {j: Stats(chains([r for r in tune if fold_of(r) != j])) for j in range(5) if j != k}
    X, Y, G = [], [], []
    for r in tune:
        if fold_of(r) == k or not data[r.id]["paths"]:
            continue
        x = np.hstack([data[r.id]["base"], np.array([stats[fold_of(r)].feats(e, r.disease_id) for e, _ in data[r.id]["paths"]])])
        X.append(x); Y.append(np.rint(data[r.id]["y"] * 4).astype(int)); G.append(len(x))
    params = {"objective": "lambdarank", "learning_rate": 0.05, "num_leaves": 31, "min_data_in_leaf": 20, "seed": 13,
              "num_threads": 2, "verbose": -1, "label_gain": [0, 1, 3, 7, 15]}
    m = lgb.train(params, lgb.Dataset(np.vstack(X), np.concatenate(Y), group=G), num_boost_round=300)
    c = Counter()
    for r in tune:
        if r.id not in feats:
            continue
        y = data[r.id]["y"]
        i = int(np.argmax(m.predict(feats[r.id])))
        b = int(np.argmax(y))
        pe, be = data[r.id]["paths"][i][0], data[r.id]["paths"][b][0]
        c["n"] += 1
        if y[i] >= y[b] - 1e-9:
            c["right"] += 1
            continue
        c["first_same"] += pe[0] == be[0]
        c["last_same"] += pe[-1] == be[-1]
        c["len_same"] += len(pe) == len(be)
        c["longer"] += len(pe) > len(be)
        c["shorter"] += len(pe) < len(be)
        if c["shown"] < 12:
            c["shown"] += 1
            print(r.question, f"chosen {y[i]:.2f}, best {y[b]:.2f}")
            print("   chosen:", " | ".join(f"{kg.name(h)} -{rel}-> {kg.name(t)}" for h, rel, t in pe))
            print("   best:  ", " | ".join(f"{kg.name(h)} -{rel}-> {kg.name(t)}" for h, rel, t in be))
    print(dict(c))


if __name__ == "__main__" and sys.argv[1:] == ["diag"]:
    diagnose()
