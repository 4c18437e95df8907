"""A tiny, randomly initialised Qwen3-VL-Embedding-style checkpoint, written offline.

Same architecture classes, checkpoint layout, chat template tokens and image processor as the real
models, only small: it drives the real `Qwen3VLEmbedder` loading and encoding code on a CPU in the
tests, and on a GPU in bench/gpu/check_qwen3_vl_embedder.py, without any download. Its vectors
carry no meaning.
"""
from __future__ import annotations

from pathlib import Path

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>",
                  "<|image_pad|>", "<|video_pad|>"]
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}{% else %}"
    "{% for c in message['content'] %}{% if c['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif c['type'] == 'text' %}{{ c['text'] }}{% endif %}{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
_CORPUS = [
    "Represent the user's input. Given a question about organizational records, retrieve records or "
    "document pages that help answer the question.",
    "budget revenue forecast meeting slack email notion slide page figure table chart quarter report",
    "the of and to in is for on with by at from as that this be are was were 0 1 2 3 4 5 6 7 8 9",
]


def _tokenizer(vocab_size: int):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(_CORPUS, trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   chat_template=CHAT_TEMPLATE)


def write_tiny_qwen3_vl(folder: Path, *, hidden_size: int = 64, layers: int = 2, vision_hidden: int = 32,
                        vision_layers: int = 2, seed: int = 0) -> Path:
    """Write config, safetensors, tokenizer and preprocessor config to `folder`; returns it."""
    import torch
    from transformers import Qwen3VLConfig

    from mmeb_resources.qwen3_vl import embedding_model_class, image_processor_class

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = _tokenizer(vocab_size=600)
    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS}
    heads = max(2, hidden_size // 16)
    head_dim = hidden_size // heads
    half = head_dim // 2
    section = [half - 2 * (half // 3), half // 3, half // 3]
    rope = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": section, "mrope_interleaved": True}
    text = dict(vocab_size=len(tokenizer), hidden_size=hidden_size, intermediate_size=2 * hidden_size,
                num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=max(1, heads // 2),
                head_dim=head_dim)
    vision = dict(depth=vision_layers, hidden_size=vision_hidden, intermediate_size=2 * vision_hidden, num_heads=2,
                  out_hidden_size=hidden_size, num_position_embeddings=64, deepstack_visual_indexes=[vision_layers - 1],
                  patch_size=16, spatial_merge_size=2, temporal_patch_size=2)
    tokens = dict(image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
                  vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"])
    try:
        config = Qwen3VLConfig(text_config={**text, "rope_parameters": rope}, vision_config=vision, **tokens)
    except (TypeError, ValueError):  # transformers releases that still spell it rope_scaling / rope_theta
        config = Qwen3VLConfig(text_config={**text, "rope_theta": 10000.0, "rope_scaling": {
            k: v for k, v in rope.items() if k != "rope_theta"}}, vision_config=vision, **tokens)
    torch.manual_seed(seed)
    model = embedding_model_class()(config).eval()
    model.save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    image_processor_class()(patch_size=16, merge_size=2, temporal_patch_size=2,
                             min_pixels=32 * 32, max_pixels=256 * 256).save_pretrained(str(folder))
    return folder
