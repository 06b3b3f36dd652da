"""eud.nn.releases: a Latvian UD 2.0 sentence read through the lv_r2.0 upgrade has today's conventions."""

from pathlib import Path

import pytest

from eud.conllu import parse_conllu
from eud.nn.data import file_entries, read_entry

# "Nams netika uzcelts, bet tas bija skaists." (invented), annotated as UD 2.0 LVTB did.
OLD = """# sent_id = 1
# text = Nams netika uzcelts, bet tas bija skaists.
1\tNams\tnams\tNOUN\t_\tCase=Nom|Gender=Masc|Number=Sing\t3\tnsubj:pass\t_\t_
2\tnetika\tnetikt\tVERB\t_\tEvident=Fh,Nfh|Mood=Ind|Person=3|Polarity=Neg|Tense=Past|VerbForm=Fin|Voice=Act\t3\taux\t_\t_
3\tuzcelts\tuzcelt\tVERB\t_\tCase=Nom|Gender=Masc|Number=Sing|VerbForm=Part|Voice=Act\t0\troot\t_\tSpaceAfter=No
4\t,\t,\tPUNCT\t_\t_\t8\tpunct\t_\t_
5\tbet\tbet\tCCONJ\t_\t_\t8\tcc\t_\t_
6\ttas\ttas\tPRON\t_\tCase=Nom|Gender=Masc|Number=Sing|PronType=Dem\t8\tnsubj\t_\t_
7\tbija\tbūt\tVERB\t_\tEvident=Fh,Nfh|Mood=Ind|Person=3|Polarity=Pos|Tense=Past|VerbForm=Fin|Voice=Act\t8\tcop\t_\t_
8\tskaists\tskaists\tADJ\t_\tCase=Nom|Degree=Pos|Gender=Masc|Number=Sing\t3\tconj\t_\tSpaceAfter=No
9\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_

"""


def test_lv_r2_0_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "lv_old-ud-train.conllu"
    path.write_text(OLD, encoding="utf-8")
    [entry] = file_entries({"path": str(path), "upgrade": "lv_r2.0"}, tmp_path, "train")
    [sentence] = read_entry(entry)
    aux, participle, cop = sentence.words[1], sentence.words[2], sentence.words[6]
    assert (aux.upos, aux.deprel, aux.lemma) == ("AUX", "aux:pass", "tikt")
    assert aux.feats == "Evident=Fh|Mood=Ind|Person=3|Polarity=Neg|Tense=Past|VerbForm=Fin|Voice=Act"
    assert participle.feat("Voice") == "Pass" and participle.upos == "VERB"
    assert (cop.upos, cop.deprel, cop.lemma, cop.feat("Evident")) == ("AUX", "cop", "būt", "Fh")
    # read without the upgrade, the file is as written
    [plain] = file_entries({"path": str(path)}, tmp_path, "train")
    assert read_entry(plain)[0].words[1].lemma == "netikt"
    assert parse_conllu(OLD)[0].words[1].deprel == "aux"


def test_unknown_upgrade_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown upgrade 'lv_r1.4'"):
        file_entries({"path": "x.conllu", "upgrade": "lv_r1.4"}, tmp_path, "train")
