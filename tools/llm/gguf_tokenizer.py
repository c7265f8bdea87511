"""PyPI tokenizers built from a GGUF file's vocabulary and merges: the
reference the firmware's byte-level BPE (firmware/lib/llm/tokenizer_bpe.c)
is tested against, token for token. SmolLM2's pre-tokenization
("smollm") is Digits(individual_digits) then ByteLevel's GPT-2 pattern; the
control tokens are special tokens matched in text."""


def chat_system(path):
    """The default system message of the GGUF's chat template ("" if none)."""
    import gguf
    field = gguf.GGUFReader(path).fields.get("tokenizer.chat_template")
    template = field.contents() if field else ""
    start = template.find("<|im_start|>system\n")
    if start < 0:
        return ""
    start += len("<|im_start|>system\n")
    return template[start:template.find("<|im_end|>", start)]


def build(path):
    import gguf
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers
    fields = gguf.GGUFReader(path).fields
    names = fields["tokenizer.ggml.tokens"].contents()
    types = fields["tokenizer.ggml.token_type"].contents()
    merges = [tuple(m.split(" ", 1)) for m in fields["tokenizer.ggml.merges"].contents()]
    tok = Tokenizer(models.BPE(vocab={name: i for i, name in enumerate(names)}, merges=merges))
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True),
                                                 pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(names[i], special=True, normalized=False)
                            for i, t in enumerate(types) if t == 3])
    return tok
