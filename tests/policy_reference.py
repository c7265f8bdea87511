"""Reference models of the pruning policies, written from their papers and
the cache's prompt rule (firmware/lib/kv/kvcache.h), sharing no code with
the C: the positions each step keeps, for tests/llm_tests.py's comparison
with build/llm/kv_trace.

The prompt rule: the prompt's positions are all cached as they come; when
the first generated position arrives, the prompt is cut down to the
policy's budget by evicting its victims one by one; from then on a new
position evicts the victim when the cache holds the budget. A position's
score starts at 0 when it is cached.

Scripted attention: each position's key is a direction of its own, and each
query points at one cached position with a logit gap far beyond what a
softmax can weigh, so a step's attention is 1 on that position and 0
elsewhere. Quest evicts nothing; what it chooses is which positions a step
reads, compared on random keys and queries (quest_cases)."""
import random


def streamingllm_victim(kept, scores, pos, sinks):
    """Xiao et al. (ICLR 2024): the first SINKS positions stay (attention
    sinks); the rest is a window of the most recent, so the oldest after
    the sinks leaves."""
    return min(p for p in kept if p >= sinks)


def h2o_victim(kept, scores, pos, window):
    """Zhang et al. (NeurIPS 2023): the WINDOW most recent positions stay;
    of the others, the one with the least attention summed over every step
    so far leaves (the older on a tie)."""
    candidates = [p for p in kept if p < pos - window]
    return min(candidates, key=lambda p: (scores[p], p))


def run(victim, budget, prompt, n, rng):
    """Steps of a sequence of N positions under VICTIM(kept, scores, pos)
    with BUDGET positions (the first PROMPT the prompt): the target of each
    step's query and the kept positions after each step."""
    kept, scores, targets, trace = [], {}, [], []
    for pos in range(n):
        if pos == prompt:
            while len(kept) > budget:
                kept.remove(victim(kept, scores, prompt))
        if pos >= prompt and len(kept) >= budget:
            kept.remove(victim(kept, scores, pos))
        kept.append(pos)
        scores[pos] = 0
        # Queries favour a few positions (heavy hitters), sometimes the newest.
        target = rng.choice(kept[:3] + kept[-2:] if rng.random() < 0.6 else kept)
        scores[target] += 1
        targets.append(target)
        trace.append(sorted(kept))
    return targets, trace


def run_snapkv(budget, window, kernel, prompt, n, rng):
    """Li et al. (NeurIPS 2024): at the prompt's end its last WINDOW
    positions (the observation window) stay, and of the others the
    BUDGET - WINDOW with the most attention from the window's queries,
    max-pooled over KERNEL neighbours, the earlier on a tie; generated
    positions are all kept. Returns what run() does."""
    kept, scores, targets, trace = [], {}, [], []
    for pos in range(n):
        if pos == prompt and len(kept) > budget:
            candidates = [p for p in kept if p < prompt - window]
            half = kernel // 2
            pooled = {c: max(scores[t] for t in candidates if abs(t - c) <= half) for c in candidates}
            chosen = sorted(candidates, key=lambda c: (-pooled[c], c))[:budget - window]
            kept = sorted(chosen) + [p for p in kept if p >= prompt - window]
        kept.append(pos)
        scores[pos] = 0
        target = rng.choice(kept[:3] + kept[-2:] if rng.random() < 0.4 else kept)
        if prompt - window <= pos < prompt:  # the window's queries score the prompt
            scores[target] += 1
        targets.append(target)
        trace.append(sorted(kept))
    return targets, trace


def run_tova(budget, prompt, n, rng):
    """Oren et al. (2024): at each step the new position joins the cache and,
    when that makes it hold more than BUDGET, the position the step's query
    attends to least leaves (the older on a tie; the new one too, if it is
    the least); the prompt is cut down by its last query's attention.
    Returns what run() does."""
    kept, last, targets, trace = [], {}, [], []
    for pos in range(n):
        if pos == prompt:
            while len(kept) > budget:
                kept.remove(min(kept, key=lambda p: (last.get(p, 0), p)))
        kept.append(pos)
        target = rng.choice(kept[:3] + kept[-2:] if rng.random() < 0.6 else kept)
        last = {p: int(p == target) for p in kept}
        if pos >= prompt and len(kept) > budget:
            kept.remove(min(kept, key=lambda p: (last[p], p)))
        targets.append(target)
        trace.append(sorted(kept))
    return targets, trace


def quest_attended(budget, page, prompt, keys, queries):
    """Tang et al. (ICML 2024): nothing is evicted; the prompt is read with
    full attention (so is every step while the cache holds at most BUDGET
    positions); after it, a step reads the BUDGET // PAGE pages of PAGE
    consecutive positions whose keys' per-channel minimum and maximum give
    the query the highest upper bound, sum_i max(q_i * min_i, q_i * max_i),
    the page being filled always among them (the earlier page on a tie).
    Returns the positions each step reads."""
    steps = []
    for pos, q in enumerate(queries):
        if pos < prompt or pos < budget:
            steps.append(list(range(pos + 1)))
            continue
        pages = pos // page + 1
        bounds = []
        for g in range(pages - 1):
            rows = keys[g * page:(g + 1) * page]
            lo = [min(col) for col in zip(*rows)]
            hi = [max(col) for col in zip(*rows)]
            bounds.append(sum(max(qi * a, qi * b) for qi, a, b in zip(q, lo, hi)))
        chosen = sorted(range(pages - 1), key=lambda g: (-bounds[g], g))[:budget // page - 1] + [pages - 1]
        steps.append([t for g in sorted(chosen) for t in range(g * page, min((g + 1) * page, pos + 1))])
    return steps


def quest_cases(seed, n, head):
    """(spec, prompt, script, expected reads) for Quest at a few budgets,
    pages and prompt lengths, on random int8 keys and queries."""
    rng = random.Random(seed)
    out = []
    for budget, page, prompt in ((16, 8, 8), (24, 8, 30), (32, 16, 20), (40, 8, 12)):
        keys = [[rng.randint(-100, 100) for _ in range(head)] for _ in range(n)]
        queries = [[rng.randint(-100, 100) for _ in range(head)] for _ in range(n)]
        text = "".join(" ".join(map(str, k + q)) + "\n" for k, q in zip(keys, queries))
        out.append((f"quest:{budget}:page={page}", prompt, text, quest_attended(budget, page, prompt, keys, queries)))
    return out


def recorded_quest_cases(script):
    """(spec, prompt, script, expected reads) for Quest on a real model's
    keys and queries (SCRIPT: kv_trace's lines, as build/llm/kv_record
    writes them), at the budgets, pages and prompts of quest_cases."""
    rows = [list(map(int, line.split())) for line in script.splitlines()]
    head = len(rows[0]) // 2
    keys, queries = [r[:head] for r in rows], [r[head:] for r in rows]
    return [(f"quest:{budget}:page={page}", prompt, script, quest_attended(budget, page, prompt, keys, queries))
            for budget, page, prompt in ((16, 8, 8), (24, 8, 30), (32, 16, 20), (40, 8, 12))]


# UniCAIM (Xu et al., DAC 2025) on the array, from docs/unicaim.md's
# arithmetic (cells, query levels, the sense line, charge sharing,
# min-detect) and policy_unicaim.c's description: the cache's bank steps
# (KV_UCM_KEY_STEP 32, KV_UCM_QUERY_STEP 48), V_pre 1 V.
KEY_STEP, QUERY_STEP, VPRE_MV, RATE_K, CELL_MAX = 32, 48, 1000, 1952, 31
EXP2 = [round(65536 * 2 ** (-f / 256)) for f in range(256)]


def level(v, step, top):
    m = min(top, (abs(v) + step // 2) // step)
    return -m if v < 0 else m


def sense_update(acc, key, query, ts, csl, cacc, linear, alpha):
    """One search's charge-domain update of a slot's accumulator."""
    q = [level(v, QUERY_STEP, 2) for v in query]
    s = sum(a * 8 * level(k, KEY_STEP, 3) for a, k in zip(q, key))
    if linear:
        bits = (64 * len(key) - 1).bit_length() + 2
        x = (s + (1 << (bits - 1))) << (32 - bits)
        return acc + ((x - acc) >> alpha)
    mismatch = max(0, CELL_MAX * sum(abs(a) for a in q) - s)
    z = mismatch * ((ts * RATE_K * ((1 << 24) // csl)) >> 24)
    v = 0 if z >> 24 >= 32 else (VPRE_MV * EXP2[(z >> 16) & 255]) >> (z >> 24)
    w = (csl * ((1 << 24) // (csl + cacc))) >> 8
    return acc + (((v - acc) * w) >> 16)


def run_unicaim(budget, prompt, keys, queries, ts, csl, cacc, linear=0, alpha=2, k=None):
    """H = budget - budget // 9 positions kept when the prompt ends, H + M
    held at most; every step's query updates every cached slot's
    accumulator (prompt and generated steps alike), a new slot starts at
    V_pre (or the top of the linear range); the victim is the lowest
    accumulator, the older position on a tie. A generated step reads the K
    (a fifth of H + M) cached positions of highest CAM similarity (docs:
    S = sum_d q_level e, ties to the lower slot), a prompt step all. The
    slots, as the cache places positions (kvcache.c): a new position
    overwrites the victim's slot when the cache is full, else takes the slot
    after the used ones if it is free, else the lowest free one. Returns the
    kept positions and the positions read after each step."""
    m_free = budget // 9
    h = budget - m_free
    k = k or max((h + m_free) // 5, 1)
    init = (1 << 32) - 1 if linear else VPRE_MV << 16
    acc, slot_of, kept, read = {}, {}, [], []

    def victim():
        return min(acc, key=lambda p: (acc[p], p))

    def similarity(p, query):
        return sum(level(v, QUERY_STEP, 2) * 8 * level(c, KEY_STEP, 3) for v, c in zip(query, keys[p]))
    for pos, (key, query) in enumerate(zip(keys, queries)):
        if pos == prompt:
            while len(acc) > h:
                gone = victim()
                del acc[gone], slot_of[gone]
        if pos >= prompt and len(acc) >= budget:
            gone = victim()
            slot = slot_of.pop(gone)
            del acc[gone]
        else:
            taken = set(slot_of.values())
            slot = len(acc) if len(acc) not in taken else min(s for s in range(len(acc) + 1) if s not in taken)
        slot_of[pos] = slot
        acc[pos] = init
        for p in acc:
            acc[p] = sense_update(acc[p], keys[p], query, ts, csl, cacc, linear, alpha)
        ranked = sorted(acc, key=lambda p: (-similarity(p, query), slot_of[p]))
        read.append(sorted(ranked if pos < prompt else ranked[:k]))
        kept.append(sorted(acc))
    return kept, read


def unicaim_cases(seed, n, head):
    """(spec, prompt, script, expected trace) for unicaim on the sense line
    at a few trims (short and long memories, fast and slow discharges) and
    with the linear update, on random int8 keys and queries."""
    rng = random.Random(seed)
    out = []
    for budget, prompt, ts, csl, cacc, linear in ((18, 30, 300, 20, 10, 0), (18, 10, 100, 8, 40, 0),
                                                  (27, 40, 50, 60, 5, 0), (18, 30, 300, 20, 10, 1)):
        keys = [[rng.randint(-127, 127) for _ in range(head)] for _ in range(n)]
        queries = [[rng.randint(-127, 127) for _ in range(head)] for _ in range(n)]
        text = "".join(" ".join(map(str, k + q)) + "\n" for k, q in zip(keys, queries))
        spec = f"unicaim:{budget}:ts={ts}:csl={csl}:cacc={cacc}:linear={linear}"
        out.append((spec, prompt, text, run_unicaim(budget, prompt, keys, queries, ts, csl, cacc, linear)[0]))
    return out


def rounded_ratio(v, num, den, limit):
    """v * num / den rounded half away from zero, within +-limit."""
    r = (abs(v) * num + den // 2) // den
    return max(-limit, min(limit, -r if v < 0 else r))


def unicaim_scaled_cases(seed, n, head):
    """(spec, prompt, script, bank scales, expected trace) for unicaim's
    per-bank scale ablation (scale=1): the script's keys and queries come
    with their own scales (the key's, the query's head factor), and the
    array receives each at the bank's trimmed scale instead -- the cached
    12-bit key (16 x int8) times its scale over the bank's, within the
    12-bit range, rounded to int8 as the array's first slice; the query
    times its factor over the bank's, within int8 -- so a small key drives
    little and a large one saturates."""
    rng = random.Random(seed)
    out = []
    for budget, prompt, ts, csl, cacc, linear in ((18, 30, 300, 20, 10, 0), (18, 30, 300, 20, 10, 1)):
        bank = (1 << 16, 3000)
        keys = [[rng.randint(-127, 127) for _ in range(head)] for _ in range(n)]
        queries = [[rng.randint(-127, 127) for _ in range(head)] for _ in range(n)]
        key_scales = [rng.randint(bank[0] // 8, 2 * bank[0]) for _ in range(n)]
        factors = [rng.randint(bank[1] // 8, 2 * bank[1]) for _ in range(n)]
        text = "".join(" ".join(map(str, k + q + [ks, f])) + "\n"
                       for k, q, ks, f in zip(keys, queries, key_scales, factors))
        in_array = [[max(-127, min(127, (rounded_ratio(16 * v, ks, bank[0], 127 << 4) + 8) >> 4)) for v in k]
                    for k, ks in zip(keys, key_scales)]
        driven = [[rounded_ratio(v, f, bank[1], 127) for v in q] for q, f in zip(queries, factors)]
        spec = f"unicaim:{budget}:ts={ts}:csl={csl}:cacc={cacc}:linear={linear}:scale=1"
        out.append((spec, prompt, text, bank, run_unicaim(budget, prompt, in_array, driven, ts, csl, cacc, linear)[0]))
    return out


def unicaim_read_cases(seed, n, head):
    """(spec, prompt, script, expected kept, expected reads) for unicaim's
    CAM top-k at a few budgets, k and trims, on random int8 keys and queries
    (N at most HEAD: kv_trace --attended names a read position by its
    value's component)."""
    rng = random.Random(seed)
    out = []
    for budget, prompt, k, ts, csl, cacc, linear in ((18, 10, None, 300, 20, 10, 0), (16, 6, 5, 100, 8, 40, 0),
                                                     (20, 12, 2, 300, 20, 10, 1)):
        keys = [[rng.randint(-127, 127) for _ in range(head)] for _ in range(n)]
        queries = [[rng.randint(-127, 127) for _ in range(head)] for _ in range(n)]
        text = "".join(" ".join(map(str, k + q)) + "\n" for k, q in zip(keys, queries))
        spec = f"unicaim:{budget}:ts={ts}:csl={csl}:cacc={cacc}:linear={linear}" + (f":k={k}" if k else "")
        out.append((spec, prompt, text, *run_unicaim(budget, prompt, keys, queries, ts, csl, cacc, linear, k=k)))
    return out


def recorded_unicaim_cases(script, budget, prompt):
    """(spec, prompt, script, expected trace) for unicaim on a real model's
    keys and queries (SCRIPT: kv_trace's lines, as build/llm/kv_record
    writes them from one bank of a greedy story), at the default trim and
    with the linear update."""
    rows = [list(map(int, line.split())) for line in script.splitlines()]
    head = len(rows[0]) // 2
    keys, queries = [r[:head] for r in rows], [r[head:] for r in rows]
    return [(f"unicaim:{budget}:ts={ts}:csl={csl}:cacc={cacc}:linear={linear}", prompt, script,
             run_unicaim(budget, prompt, keys, queries, ts, csl, cacc, linear)[0])
            for ts, csl, cacc, linear in ((300, 20, 10, 0), (100, 8, 40, 0), (300, 20, 10, 1))]


def run_unicaim_plus(budget, prompt, n, rng, span=10, spare=None, question=16, recent=1):
    """unicaim+ at its defaults (digital sums, recent and threshold
    protection; policy_unicaim_plus.c's description) on scripted attention:
    a step's probability (1, in Q16 clamped to 65535) is added to the
    accumulator of the position it points at, the others gaining 0; the M =
    budget // 9 newest positions are protected while they gather; a step
    that points at a position older than those (in the prompt's last
    QUESTION queries, or generating) makes it and the SPAN after it, short of
    the newest M, critical: protected for good, at most SPARE a bank
    (budget // 2). The prompt's marks wait for its end and are taken
    strongest first, the older on a tie (here every mark is 65535). H =
    budget - M stay when the prompt ends, H + M at most; the victim is the
    lowest unprotected accumulator, the older on a tie. Returns what run()
    does."""
    m = budget // 9
    h = budget - m
    spare = max(budget // 2, 1) if spare is None else spare
    kept, acc, guarded, critical, targets, trace, marked = [], {}, set(), set(), [], [], set()

    def protect(target, recent_lo):
        for u in range(target, min(target + span + 1, recent_lo)):
            if u in kept and u not in critical and len(critical) < spare:
                critical.add(u)
                guarded.add(u)

    def evict():
        victim = min((p for p in kept if p not in guarded), key=lambda p: (acc[p], p))
        kept.remove(victim)
        guarded.discard(victim)
        critical.discard(victim)
    for pos in range(n):
        if pos == prompt:
            for target in sorted(t for t in marked if t < prompt - (m if recent else 0)):
                if len(critical) >= spare:
                    break
                protect(target, prompt - (m if recent else 0))
            while len(kept) > h:
                evict()
        if pos >= prompt and len(kept) >= h + m:
            evict()
        kept.append(pos)
        acc[pos] = 0
        if recent and m:
            guarded.add(pos)
            if pos - m in kept and pos - m not in critical:
                guarded.discard(pos - m)
        target = rng.choice(kept[:3] + kept[-2:] if rng.random() < 0.5 else kept)
        acc[target] += 65535
        recent_lo = pos - (m if recent else 0)
        if pos < prompt and (not question or pos >= prompt - question):
            marked.add(target)
        elif pos >= prompt and target < recent_lo and target not in critical:
            protect(target, recent_lo)
        targets.append(target)
        trace.append(sorted(kept))
    return targets, trace


def unicaim_plus_cases(seed, n):
    """(spec, prompt, targets, expected trace) for unicaim+ at its defaults
    and with its protection's knobs moved, the prompt shorter and longer
    than the budget (budgets and prompts scaled to sequences of N
    positions: 60 on the host, 24 on the SoC's bank of 24 cells)."""
    rng = random.Random(seed)
    out = []
    for budget, prompt, knobs in ((18, 30, {}), (27, 12, {}), (18, 40, {"span": 2, "spare": 4}),
                                  (20, 30, {"question": 0}), (18, 30, {"recent": 0})):
        budget, prompt = round(budget * min(1, n / 40)), prompt * n // 60
        spec = f"unicaim+:{budget}" + "".join(f":{k}={v}" for k, v in knobs.items())
        out.append((spec, prompt, *run_unicaim_plus(budget, prompt, n, rng, **knobs)))
    return out


def script(targets, head):
    """kv_trace's input: position p's key is direction p, its query points
    at TARGETS[p]'s key."""
    lines = []
    for pos, target in enumerate(targets):
        key, query = [0] * head, [0] * head
        key[pos] = 100
        query[target] = 100
        lines.append(" ".join(map(str, key + query)))
    return "\n".join(lines) + "\n"


def cases(seed, n):
    """(spec, prompt, targets, expected trace) for StreamingLLM, H2O, SnapKV
    and TOVA at a few budgets and prompt lengths (the prompt shorter and
    longer than the budget)."""
    rng = random.Random(seed)
    out = []
    for budget, prompt in ((12, 8), (12, 20), (20, 30), (16, 4), (8, 40)):
        window = budget // 4
        # Above 8 positions the default keeps the paper's four sinks.
        out.append((f"streamingllm:{budget}" + ("" if budget > 8 else ":sinks=4"), prompt,
                    *run(lambda kept, s, pos: streamingllm_victim(kept, s, pos, 4), budget, prompt, n, rng)))
        out.append((f"h2o:{budget}:window={window}", prompt,
                    *run(lambda kept, s, pos, w=window: h2o_victim(kept, s, pos, w), budget, prompt, n, rng)))
        out.append((f"snapkv:{budget}:window={window}:kernel=3", prompt,
                    *run_snapkv(budget, window, 3, prompt, n, rng)))
        out.append((f"tova:{budget}", prompt, *run_tova(budget, prompt, n, rng)))
    return out
