"""The segmenter on raw text rebuilt from treebanks: tokens, words, sentences, multiword tokens, lemmas and robustness."""
