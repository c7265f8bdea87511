#!/usr/bin/python3
"""Synthetic long-context retrieval tasks and the vocabulary they are written in.

Three task kinds, each a stretch of plain filler text with facts hidden in it
and questions at the end (in the spirit of RULER and passkey retrieval):
  passkey  " the pass key is 47219. remember it." at some depth;
           question " what is the pass key? the pass key is" -> " 4" "7" "2" "1" "9"
  recall   multi-query associative recall: many " the lamp has code 382."
           facts, several queried: " what code has the lamp? the lamp has code" -> digits
  twohop   " the ring is in jar." ... " the jar is in barn." (other
           chains as distractors); question " where is the ring?" answered in
           two steps " the ring is in jar. the jar is in barn." (the
           chain is spelled out, so both hops are retrievals from the context)
plus "filler": plain text only, so the model also models ordinary text, and
"runs" for training: random runs each followed by its copy.

A two-hop subject phrase is one token (" ring is in"), so the token before
each place names its fact and a plain induction head (find the earlier
occurrence of this token, copy what followed) does each hop; the text is
unchanged.  Spelt word by word, the token before a place is " in", which
also precedes the filler's places, and this 2-layer model never found the
longer lookup that needs (docs/retrieval.md, History).

The vocabulary is lower-case words with their leading space.  Its
tokenizer.bin holds every single character used and every space-prefixed
prefix of every word (" b", " ba", " bar", " barn"), scored by length, so that
llama2.c's BPE encoder (ours: firmware/lib/llm/tokenizer.c) turns the text
back into exactly the ids generated here: merges can only grow a word from its
start.  Tasks are generated as token ids directly; `check-encode` verifies the
correspondence with the firmware encoder's rules.

usage: tasks.py tokenizer OUT.bin
       tasks.py heldout OUT.tasks --len 1024 --per-kind 60 --seed 1000 [--one-question | --first-question]
       tasks.py show KIND --len 256 --seed 1
"""
import argparse
import random
import struct
import sys

# --- vocabulary --------------------------------------------------------------------

NOUNS = "cat dog bird girl boy man fox king frog bee cow duck fish pig owl bear mom dad".split()
ADJECTIVES = "big red old small happy sad blue green little good bad hot cold".split()
VERBS = "sat ran saw liked had got made ate found took met hid played sang looked jumped walked".split()
PLACES = "park tree sea hill road farm pond town wood lake river".split()
PREPOSITIONS = "on in near by at to under with".split()
PRONOUNS = "he she they it".split()
KEYS = ("lamp desk door gate bell boat cake coat drum fork harp kite lock mask nest oven "
        "pipe rope sock tent vase wand whip yarn bowl comb flag horn jug leaf mop nail").split()
OBJECTS = "ball ring coin hat cup book doll pen toy shoe".split()
CONTAINERS = "box bag jar pot case cart tin can basket chest".split()
ROOMS = "hall attic barn shed den yard garage cellar garden kitchen".split()
GLUE = "the a and then but so was very one day night pass key is remember what where code has".split()

WORDS = sorted(set(NOUNS + ADJECTIVES + VERBS + PLACES + PREPOSITIONS + PRONOUNS + KEYS + OBJECTS +
                   CONTAINERS + ROOMS + GLUE))
PUNCT = [".", "?"]
DIGITS = [str(d) for d in range(10)]
SPECIALS = ["<unk>", "<s>", "</s>"]  # ids 0, 1, 2 as in llama2.c
BOS = 1


def build_pieces():
    """All pieces in id order: specials, single characters, word prefixes."""
    chars = sorted(set("".join(WORDS)) | set(PUNCT) | set(DIGITS) | {" "})
    prefixes = sorted({" " + w[:n] for w in WORDS for n in range(1, len(w) + 1)} |
                      {" " + d for d in DIGITS})
    phrases = [" " + w + tail for w in OBJECTS + CONTAINERS for tail in (" is", " is in")]
    return SPECIALS + chars + prefixes + phrases


PIECES = build_pieces()
PIECE_ID = {p: i for i, p in enumerate(PIECES)}
VOCAB_SIZE = len(PIECES)


def write_tokenizer(path):
    """llama2.c tokenizer.bin: max length, then (float score, int len, bytes) per piece."""
    out = bytearray(struct.pack("<I", max(len(p.encode()) for p in PIECES)))
    for i, p in enumerate(PIECES):
        b = p.encode()
        # Longer pieces merge first; specials never merge (lowest score).
        score = -1e9 if i < len(SPECIALS) else float(len(b))
        out += struct.pack("<fi", score, len(b)) + b
    with open(path, "wb") as f:
        f.write(out)


def word(w):
    return PIECE_ID[" " + w]


def subject_in(w):
    """' ring is in': the encoder merges ' ring' + ' is', then + ' in'."""
    return PIECE_ID[" " + w + " is in"]


def number(digits):
    """' 4' '7' '2': a number as the encoder splits it."""
    return [PIECE_ID[" " + digits[0]]] + [PIECE_ID[d] for d in digits[1:]]


def decode(ids):
    return "".join(PIECES[i] if i >= len(SPECIALS) else "" for i in ids)


def encode(text):
    """The firmware encoder's algorithm (llama2.c's), for checking the vocabulary."""
    ids = ([PIECE_ID[" "]] if text else []) + [PIECE_ID[c] for c in text]
    while True:
        best = None
        for i in range(len(ids) - 1):
            merged = PIECE_ID.get(PIECES[ids[i]] + PIECES[ids[i + 1]])
            if merged is not None and (best is None or len(PIECES[merged]) > len(PIECES[best[1]])):
                best = (i, merged)
        if best is None:
            return ids
        ids[best[0]:best[0] + 2] = [best[1]]


# --- text --------------------------------------------------------------------------

PERIOD, QUESTION = PIECE_ID["."], PIECE_ID["?"]
# Every token the tasks use: words, both forms of the digits, punctuation.
COPYABLE = sorted({word(w) for w in WORDS} | {PIECE_ID[d] for d in DIGITS} |
                  {PIECE_ID[" " + d] for d in DIGITS} | {PERIOD, QUESTION})


def sentence(rng):
    """One sentence of filler: a little grammar over the plain-text words."""
    c = rng.choice
    kind = rng.randrange(5)
    if kind == 0:
        words = ["the", c(ADJECTIVES), c(NOUNS), c(VERBS), c(PREPOSITIONS), "the", c(PLACES)]
    elif kind == 1:
        words = ["one", c(["day", "night"]), "the", c(NOUNS), c(VERBS), "a", c(ADJECTIVES), c(NOUNS)]
    elif kind == 2:
        words = [c(["then", "so", "but"]), c(PRONOUNS), "was", "very", c(ADJECTIVES)]
    elif kind == 3:
        words = ["the", c(NOUNS), "and", "the", c(NOUNS), c(VERBS), c(PREPOSITIONS), "the", c(PLACES)]
    else:
        words = ["a", c(NOUNS), c(VERBS), "the", c(ADJECTIVES), c(NOUNS)]
    return [word(w) for w in words] + [PERIOD]


def digits(rng, n):
    return "".join(rng.choice(DIGITS) for _ in range(n))


class Task:
    """A sequence of ids with answer spans: tokens[start:end] follow from the
    context before `start`.  `weights` marks what training should predict:
    1 for text, 0 for random values stated the first time, ANSWER for answers."""
    ANSWER = 8.0

    def __init__(self, kind):
        self.kind = kind
        self.tokens = [BOS]
        self.weights = [0.0]
        self.answers = []   # (start, end, needle position)
        self.questions = []  # where each question of a multi-question task starts

    def add(self, ids, weight=1.0):
        self.tokens += ids
        self.weights += [weight] * len(ids)

    def add_answer(self, ids, needle_pos):
        self.answers.append((len(self.tokens), len(self.tokens) + len(ids), needle_pos))
        self.add(ids, Task.ANSWER)


def fill_until(task, rng, length):
    """Filler sentences while they fit in LENGTH tokens."""
    while True:
        s = sentence(rng)
        if len(task.tokens) + len(s) > length:
            return
        task.add(s)


def place_facts(task, rng, facts, length, reserve, probe=0, depth=None):
    """Write filler with FACTS (lists of (ids, weight)) at random depths in
    [0, length - reserve), fact PROBE at fraction DEPTH of that range when
    given; returns each fact's start position (in fact order)."""
    budget = max(length - reserve - sum(len(ids) for f in facts for ids, _ in f), 1)
    depths = [rng.randrange(budget) for _ in facts]
    if depth is not None:
        depths[probe] = int(depth * budget)
    starts = [0] * len(facts)
    filler = 0
    for d, i in sorted((d, i) for i, d in enumerate(depths)):
        while True:
            s = sentence(rng)
            if filler + len(s) > d:
                break
            task.add(s)
            filler += len(s)
        starts[i] = len(task.tokens)
        for ids, weight in facts[i]:
            task.add(ids, weight)
    return starts


def question_words(words, mark):
    return [word(w) for w in words] + [mark]


def passkey(rng, length, depth=None, many=False):
    task = Task("passkey")
    key = digits(rng, 5)
    needle = [([word(w) for w in "the pass key is".split()], 1.0), (number(key), 0.0),
              ([PERIOD, word("remember"), word("it"), PERIOD], 1.0)]
    question = question_words("what is the pass key".split(), QUESTION) + \
        [word(w) for w in "the pass key is".split()]
    reserve = len(question) + 6
    start = place_facts(task, rng, [needle], length, reserve, 0, depth)[0]
    fill_until(task, rng, length - reserve)
    task.add(question)
    task.add_answer(number(key), start)
    task.add([PERIOD])
    return task


def recall(rng, length, depth=None, many=False):
    """With DEPTH, the first fact is placed there and queried first.  MANY
    (training) asks up to every fact, as room allows."""
    task = Task("recall")
    n_pairs = rng.randint(2, max(2, min(16, length // 20)))
    most = length // 24 if many else min(6, length // 40)
    n_queries = rng.randint(1, max(1, min(n_pairs, most)))
    keys = rng.sample(KEYS, n_pairs)
    values = [digits(rng, 3) for _ in keys]
    facts = [[([word(w) for w in ("the", k, "has", "code")], 1.0), (number(v), 0.0), ([PERIOD], 1.0)]
             for k, v in zip(keys, values)]
    questions = [question_words(("what", "code", "has", "the", k), QUESTION) +
                 [word(w) for w in ("the", k, "has", "code")] for k in keys]
    # Every question and answer has the same length; which are asked is drawn later.
    reserve = n_queries * (len(questions[0]) + len(number(values[0])) + 1) + 1
    starts = place_facts(task, rng, facts, length, reserve, 0, depth)
    queried = [0] + rng.sample(range(1, n_pairs), n_queries - 1) if depth is not None else \
        rng.sample(range(n_pairs), n_queries)
    fill_until(task, rng, length - reserve)
    for q in queried:
        task.questions.append(len(task.tokens))
        task.add(questions[q])
        task.add_answer(number(values[q]), starts[q])
        task.add([PERIOD])
    return task


def twohop(rng, length, depth=None, many=False):
    """Chain 0 is asked (MANY, for training: then others, and up to 8
    chains); with DEPTH its first hop is placed there.  The place follows
    the subject phrase token with no article: " the" before it would also
    precede every subject."""
    task = Task("twohop")
    n_chains = rng.randint(2, max(2, min(8, length // 32) if many else min(5, length // 64)))
    objects = rng.sample(OBJECTS, n_chains)
    containers = rng.sample(CONTAINERS, n_chains)
    rooms = rng.sample(ROOMS, n_chains)

    def is_in(a, b):  # the place is a random choice where first stated
        return [([word("the"), subject_in(a)], 1.0), ([word(b)], 0.0), ([PERIOD], 1.0)]

    def sentence_of(hop):
        return [i for ids, _ in hop for i in ids]

    hops = [is_in(o, c) for o, c in zip(objects, containers)] + \
        [is_in(c, r) for c, r in zip(containers, rooms)]
    questions = [question_words(("where", "is", "the", o), QUESTION) for o in objects]
    answers = [sentence_of(hops[q]) + sentence_of(hops[n_chains + q]) for q in range(n_chains)]
    asked = [0] + (rng.sample(range(1, n_chains), rng.randrange(n_chains)) if many else [])
    reserve = sum(len(questions[q]) + len(answers[q]) for q in asked) + 2
    starts = place_facts(task, rng, hops, length, reserve, 0, depth)
    fill_until(task, rng, length - reserve)
    for q in asked:
        task.questions.append(len(task.tokens))
        task.add(questions[q])
        task.add_answer(answers[q], min(starts[q], starts[n_chains + q]))
    return task


def runs(rng, length, depth=None, many=False):
    """Random runs of 4-24 tokens, each followed by its copy: a dense copy
    signal beside the sparse task answers.  The runs' lengths vary, so no
    fixed offset predicts a copy; only an induction head does, and the
    tasks' lookups are built on it.  A run's first showing and the first
    token of its copy cannot be predicted and are not trained on."""
    task = Task("runs")
    while True:
        run = [rng.choice(COPYABLE) for _ in range(rng.randint(4, 24))]
        if len(task.tokens) + 2 * len(run) > length:
            return task
        task.add(run + run[:1], 0.0)
        task.add(run[1:], 2.0)


def filler(rng, length, depth=None, many=False):
    task = Task("filler")
    fill_until(task, rng, length)
    return task


KINDS = {"passkey": passkey, "recall": recall, "twohop": twohop, "runs": runs, "filler": filler}
EVAL_KINDS = ("passkey", "recall", "twohop")
TEXT_KINDS = EVAL_KINDS + ("filler",)  # runs are token strings, not text to encode


def make(kind, rng, length, depth=None, many=False):
    """A task of at most LENGTH tokens; MANY (training) asks as many
    questions as fit where a kind has several facts."""
    task = KINDS[kind](rng, length, depth, many)
    assert len(task.tokens) <= length, (kind, len(task.tokens), length)
    return task


# --- held-out files -----------------------------------------------------------------

def one_question_each(task, depth):
    """A multi-question task as one task per question over the same context
    (LongBench's setting: the question is part of the prompt), as (needle
    depth, task) pairs; any other task as it is, at DEPTH."""
    if len(task.questions) < 2:
        return [(depth, task)]
    context = task.questions[0]
    ends = task.questions[1:] + [len(task.tokens)]
    split = []
    for start, end, (a, b, needle) in zip(task.questions, ends, task.answers):
        one = Task(task.kind)
        one.tokens = task.tokens[:context] + task.tokens[start:end]
        one.weights = task.weights[:context] + task.weights[start:end]
        one.answers = [(a - start + context, b - start + context, needle)]
        split.append((needle / context, one))
    return split


def write_heldout(path, length, per_kind, seed, one_question=False, first_question=False):
    """Text file, one task per line: kind, depth bin, answer spans, then ids.
    Depths are spread evenly: task i of a kind puts its needle at (i + 0.5) /
    per_kind of the context.  ONE_QUESTION writes a multi-question task as
    one line per question, all over the same context; FIRST_QUESTION keeps
    only its first question (one prompt per task: tasks stay independent
    samples)."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        for kind in EVAL_KINDS:
            for i in range(per_kind):
                depth = (i + 0.5) / per_kind
                task = make(kind, rng, length, depth)
                split = one_question_each(task, depth) if one_question or first_question else [(depth, task)]
                for d, one in split[:1] if first_question else split:
                    spans = ",".join(f"{a}:{b}:{n}" for a, b, n in one.answers)
                    f.write(f"{kind} {d:.4f} {spans} {' '.join(map(str, one.tokens))}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tokenizer")
    t.add_argument("out")
    h = sub.add_parser("heldout")
    h.add_argument("out")
    h.add_argument("--len", type=int, default=1024)
    h.add_argument("--per-kind", type=int, default=60)
    h.add_argument("--seed", type=int, default=1000)
    h.add_argument("--first-question", action="store_true",
                   help="keep only each task's first question (one prompt per task)")
    h.add_argument("--one-question", action="store_true",
                   help="one line per question of a multi-question task, over the same context")
    s = sub.add_parser("show")
    s.add_argument("kind", choices=sorted(KINDS))
    s.add_argument("--len", type=int, default=256)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--depth", type=float)
    sub.add_parser("check-encode")
    args = ap.parse_args()
    if args.cmd == "tokenizer":
        write_tokenizer(args.out)
        print(f"{args.out}: {VOCAB_SIZE} pieces")
    elif args.cmd == "heldout":
        write_heldout(args.out, args.len, args.per_kind, args.seed, args.one_question, args.first_question)
    elif args.cmd == "show":
        task = make(args.kind, random.Random(args.seed), args.len, args.depth)
        print(decode(task.tokens))
        for a, b, n in task.answers:
            print(f"answer [{a}:{b}] {decode(task.tokens[a:b])!r} needle at {n}")
    else:
        rng = random.Random(7)
        for i in range(20):
            task = make(rng.choice(TEXT_KINDS), rng, 160)
            text = decode(task.tokens)[1:]  # the encoder adds the leading space back
            if encode(text) != task.tokens[1:]:
                sys.exit(f"task {i}: encode(decode(ids)) differs")
        print(f"check-encode: 20 tasks round-trip, vocabulary {VOCAB_SIZE}")


if __name__ == "__main__":
    main()
