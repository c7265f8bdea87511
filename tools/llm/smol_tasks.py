#!/usr/bin/python3
"""Long-context tasks for a chat model in the style of RULER (Hsieh et al.,
2024, "RULER: What's the Real Context Size of Your Long-Context Language
Models?"), with haystacks of natural text: Debian's fortunes.

Kinds, with RULER's templates (its "noise"/"essay" haystacks replaced by
fortunes; its 7-digit values and answer prefixes kept):
  niah_single      one needle "One of the special magic numbers for KEY is: VALUE."
  niah_multikey    four needles of different keys, one queried
  niah_multivalue  four values of one key, all asked for
  niah_multiquery  four needles of different keys, two queried at once
  vt               variable tracking: VAR A = VALUE. VAR B = VAR A. ... (one chain of
                   four hops); which variables hold VALUE
  cwe              common-word extraction: a numbered list of words, ten of them 30
                   times and the others 3 times; the ten most common (RULER's
                   frequencies, fewer distractors where the context is short)
  qa               question answering over documents: numbered fortunes with their
                   attribution ("-- Mark Twain"); who is quoted as saying the
                   first words of one of them (RULER's QA template)
Development and test sets use different fortune files (sorted, even ones for
development, odd ones for test) and different seeds. The prompt is a one-turn
chat (the model's template and system message) ending with RULER's answer
prefix; the answers are scored by RULER's string_match_all: the share of the
expected strings that appear in the greedy continuation, case-insensitive.

One task a line: KIND DEPTH MAX_NEW ANSWERS TOKEN... where DEPTH is the
first needle's (or gold document's) place as a fraction of the prompt,
MAX_NEW the tokens generated at most, ANSWERS the expected strings joined by
'|' with '%', '|', spaces and non-printable bytes as %XX (prune_eval gen).

usage: smol_tasks.py MODEL.gguf OUT.tasks --len 2048 --per-kind 100 --seed 6000 --split test [--kinds a,b]
       smol_tasks.py MODEL.gguf - --len 1024 --per-kind 1 --show
"""
import argparse
import os
import random
import re
import sys

import gguf_tokenizer

FORTUNES = "/usr/share/games/fortunes"
KINDS = ["niah_single", "niah_multikey", "niah_multivalue", "niah_multiquery", "vt", "cwe", "qa"]
MAX_NEW = {"niah_single": 12, "niah_multikey": 12, "niah_multivalue": 40, "niah_multiquery": 24, "vt": 28,
           "cwe": 48, "qa": 16}
KEY_WORDS = ("apple river tiger candle window violin harbor meadow lantern falcon orchard pebble marble "
             "compass thunder garden silver dragon canyon blanket pepper island rocket walrus velvet").split()

NIAH_INTRO = ("Some special magic numbers are hidden within the following text. Make sure to memorize it. "
              "I will quiz you about the numbers afterwards.\n")
VT_INTRO = "Memorize and track the chain(s) of variable assignment hidden in the following text.\n\n"
CWE_INTRO = ("Below is a numbered list of words. In these words, some appear more often than others. "
             "Memorize the ones that appear most often.\n")
QA_INTRO = ("Answer the question based on the given documents. Only give me the answer and do not output "
            "any other words.\n\nThe following are given documents.\n\n")


class TaskError(Exception):
    pass


def fortune_files(split):
    names = sorted(f for f in os.listdir(FORTUNES)
                   if os.path.isfile(os.path.join(FORTUNES, f)) and "." not in f)
    return [os.path.join(FORTUNES, f) for i, f in enumerate(names) if i % 2 == (split == "test")]


def fortunes(split):
    """Every fortune of the split's files: (text, author or None)."""
    out = []
    for path in fortune_files(split):
        with open(path, encoding="utf-8", errors="replace") as f:
            for entry in f.read().split("\n%\n"):
                lines = [l.rstrip() for l in entry.strip("\n").split("\n")]
                if not lines or not lines[0]:
                    continue
                author = None
                m = re.fullmatch(r"\s*-- ?([A-Z][A-Za-z.' ]{2,28}[a-z.])", lines[-1])
                if m and len(lines) > 1:
                    author, lines = m.group(1).strip(), lines[:-1]
                text = " ".join(" ".join(l.split()) for l in lines).strip()
                if text and text.isprintable():
                    out.append((text, author))
    if not out:
        raise TaskError(f"no fortunes under {FORTUNES} (Debian package fortunes)")
    return out


class Builder:
    def __init__(self, gguf, split, seed):
        self.tok = gguf_tokenizer.build(gguf)
        self.system = gguf_tokenizer.chat_system(gguf)
        self.texts = fortunes(split)
        self.rng = random.Random(seed)
        words = sorted({w.lower() for t, _ in self.texts for w in re.findall(r"\b[a-zA-Z]{4,9}\b", t)})
        self.words = [w for w in words if w not in KEY_WORDS]

    def n_tokens(self, text):
        return len(self.tok.encode(text).ids)

    def chat(self, user, prefix):
        return (f"<|im_start|>system\n{self.system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n"
                f"<|im_start|>assistant\n{prefix}")

    def haystack(self, budget):
        """Fortunes in random order, about BUDGET tokens of them."""
        out, used = [], 0
        while used < budget:
            text, _ = self.rng.choice(self.texts)
            out.append(text)
            used += self.n_tokens(" " + text)
        return out

    def fit(self, length, build, pieces):
        """BUILD(pieces) -> (prompt, depth) with as many of PIECES as fit in
        LENGTH tokens, the first left out cut at a word to fill the rest
        (documents, which are tuples, are never cut)."""
        def size(k, extra=None):
            chosen = pieces[:k] + ([extra] if extra else [])
            return self.n_tokens(build(chosen)[0]) if chosen else 0
        lo, hi = 0, len(pieces)  # the largest k that fits, by bisection
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if size(mid) <= length:
                lo = mid
            else:
                hi = mid - 1
        if lo == 0:
            raise TaskError(f"--len {length} is too short for the task's own text")
        if lo < len(pieces) and isinstance(pieces[lo], str):
            words = pieces[lo].split()
            a, b = 0, len(words)
            while a < b:
                mid = (a + b + 1) // 2
                if size(lo, " ".join(words[:mid])) <= length:
                    a = mid
                else:
                    b = mid - 1
            if a:
                return build(pieces[:lo] + [" ".join(words[:a])])
        return build(pieces[:lo])

    def with_needles(self, length, needles, intro, question, prefix):
        """NEEDLES (sentences) at random depths in a fortune haystack."""
        depths = sorted(self.rng.random() for _ in needles)

        def build(pieces):
            text = list(pieces)
            for d, needle in sorted(zip(depths, needles), reverse=True):
                text.insert(int(d * len(pieces)), needle)
            return self.chat(intro + " ".join(text) + "\n" + question, prefix), depths[0]
        return self.fit(length, build, self.haystack(length))

    def number(self):
        return str(self.rng.randint(1000000, 9999999))

    def niah(self, kind, length):
        keys = self.rng.sample(KEY_WORDS, 4)
        if kind == "niah_multivalue":
            values = [self.number() for _ in range(4)]
            needles = [f"One of the special magic numbers for {keys[0]} is: {v}." for v in values]
            asked, answers = [keys[0]], values
        else:
            needles_n = 1 if kind == "niah_single" else 4
            values = [self.number() for _ in range(needles_n)]
            needles = [f"One of the special magic numbers for {k} is: {v}." for k, v in zip(keys, values)]
            asked = keys[:2] if kind == "niah_multiquery" else keys[:1]
            answers = values[:len(asked)]
            order = list(range(needles_n))
            self.rng.shuffle(order)
            needles = [needles[i] for i in order]
        plural = kind in ("niah_multivalue", "niah_multiquery")
        what = " and ".join(asked)
        if plural:
            question = f"What are all the special magic numbers for {what} mentioned in the provided text?"
            prefix = f"The special magic numbers for {what} mentioned in the provided text are"
        else:
            question = f"What is the special magic number for {what} mentioned in the provided text?"
            prefix = f"The special magic number for {what} mentioned in the provided text is"
        prompt, depth = self.with_needles(length, needles, NIAH_INTRO, question, prefix)
        return prompt, depth, answers

    def vt(self, length):
        names = set()
        while len(names) < 5:
            names.add("".join(self.rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(5)))
        # Sorted first: a set's order follows Python's string hashing, which
        # changes from run to run (the tasks must follow from the seed alone).
        names = sorted(names)
        self.rng.shuffle(names)
        value = str(self.rng.randint(10000, 99999))
        chain = [f"VAR {names[0]} = {value}."] + [f"VAR {b} = VAR {a}." for a, b in zip(names, names[1:])]
        question = f"Question: Find all variables that are assigned the value {value} in the text above."
        prefix = (f"Answer: According to the chain(s) of variable assignment in the text above, 5 variables are "
                  f"assigned the value {value}, they are:")
        prompt, depth = self.with_needles(length, chain, VT_INTRO, question, prefix)
        return prompt, depth, names

    def cwe(self, length):
        common = self.rng.sample(self.words, 10)
        rest = [w for w in self.rng.sample(self.words, 400) if w not in common]
        question = "Question: What are the 10 most common words in the above list?"
        prefix = "Answer: The top 10 words that appear most often in the list are:"
        for freq in (30, 20, 12, 8, 6):  # RULER's 30 where the length allows
            for n_rest in range(len(rest), 0, -10):
                words = common * freq + rest[:n_rest] * 3
                self.rng.shuffle(words)
                listing = " ".join(f"{i + 1}. {w}" for i, w in enumerate(words))
                prompt = self.chat(CWE_INTRO + listing + "\n" + question, prefix)
                if self.n_tokens(prompt) <= length and n_rest >= 10 * freq // 3:
                    return prompt, 0.0, common
        raise TaskError(f"--len {length} is too short for common-word extraction")

    def qa(self, length):
        quoted = [(t, a) for t, a in self.texts if a and 6 <= len(t.split()) <= 60]
        gold_text, author = self.rng.choice(quoted)
        first = " ".join(gold_text.split()[:12])
        question = (f"Answer the question based on the given documents. Only give me the answer and do not output "
                    f"any other words.\n\nQuestion: Who is quoted as saying \"{first}\"?")
        others = [(t, a) for t, a in quoted if a != author]
        budget_docs = []
        used = 0
        while used < length:
            doc = self.rng.choice(others)
            budget_docs.append(doc)
            used += self.n_tokens(f" {doc[0]} -- {doc[1]}") + 6
        where = self.rng.random()

        def build(docs):
            docs = list(docs)
            at = int(where * len(docs))
            docs.insert(at, (gold_text, author))
            body = "\n\n".join(f"Document {i + 1}:\n{t}\n-- {a}" for i, (t, a) in enumerate(docs))
            return self.chat(QA_INTRO + body + "\n\n" + question, "Answer:"), at / len(docs)
        prompt, depth = self.fit(length, build, budget_docs)
        return prompt, depth, [author]

    def task(self, kind, length):
        if kind.startswith("niah"):
            return self.niah(kind, length)
        return getattr(self, kind)(length)


def escape(s):
    return "".join(c if c.isascii() and c.isprintable() and c not in "%| " else
                   "".join(f"%{b:02X}" for b in c.encode()) for c in s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gguf")
    ap.add_argument("out")
    ap.add_argument("--len", type=int, required=True)
    ap.add_argument("--per-kind", type=int, required=True)
    ap.add_argument("--seed", type=int, default=6000)
    ap.add_argument("--split", choices=["dev", "test"], default="dev")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--show", action="store_true", help="print the prompts' text instead")
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    if any(k not in KINDS for k in kinds) or args.per_kind < 1 or args.len < 256:
        sys.exit(f"smol_tasks.py: kinds are {','.join(KINDS)}; --per-kind >= 1, --len >= 256")
    try:
        b = Builder(args.gguf, args.split, args.seed)
        lines = []
        for kind in kinds:
            for _ in range(args.per_kind):
                prompt, depth, answers = b.task(kind, args.len)
                if args.show:
                    print(f"--- {kind} {answers}\n{prompt}")
                    continue
                ids = b.tok.encode(prompt).ids
                lines.append(f"{kind} {depth:.4f} {MAX_NEW[kind]} {'|'.join(escape(a) for a in answers)} "
                             + " ".join(map(str, ids)) + "\n")
    except TaskError as e:
        sys.exit(f"smol_tasks.py: {e}")
    if not args.show:
        with open(args.out + ".tmp", "w") as f:
            f.writelines(lines)
        os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()
