"""The pinned registry of the public datasets the notebooks use.

:data:`REGISTRY` lists every public dataset, each pinned to one commit of one GitHub repository,
with the sha256 and size of every file, its terms and the paper to cite; ``data/README.md`` is the
human-readable version of the same table. :mod:`helpers.data.fetch` downloads and verifies the
files, :mod:`helpers.data.datasets` loads them as tidy frames.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .. import paths

__all__ = ["UPSTREAM", "RemoteFile", "Dataset", "REGISTRY", "dataset", "registry_table"]

#: Where the files come from by default: GitHub's raw file server, laid out
#: ``<owner>/<repo>/<commit>/<path>``.
UPSTREAM = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class RemoteFile:
    """One pinned file of a dataset: path inside the repository, sha256 and size in bytes."""

    path: str
    sha256: str
    size: int


@dataclass(frozen=True)
class Dataset:
    """A set of files from one GitHub repository at one commit.

    Attributes
    ----------
    id : str
        Registry key, e.g. ``"stc-ja"``.
    owner, repo, commit : str
        Upstream repository and the 40-hex commit every file is pinned to.
    files : tuple of RemoteFile
        Every file with its sha256.
    title : str
        One-line description.
    terms : str
        Licence or terms of use, as stated upstream.
    citation : str
        What to cite.
    """

    id: str
    owner: str
    repo: str
    commit: str
    files: tuple[RemoteFile, ...]
    title: str
    terms: str
    citation: str
    notes: str = ""

    def file(self, path: str) -> RemoteFile:
        """The registered file at ``path`` (ValueError if the dataset has no such file)."""
        for rf in self.files:
            if rf.path == path:
                return rf
        raise ValueError(f"dataset {self.id!r} has no file {path!r}")

    def url(self, path: str, base: str = UPSTREAM) -> str:
        """Address of ``path`` under a base URL laid out ``<owner>/<repo>/<commit>/<path>``."""
        return "/".join([base.rstrip("/"), self.owner, self.repo, self.commit,
                         urllib.parse.quote(path)])

    def local_path(self, path: str, root: Path | None = None) -> Path:
        """Where ``path`` is stored locally (``data/external/<owner>/<repo>/<commit>/<path>``)."""
        return Path(root or paths.DATA_EXTERNAL) / self.owner / self.repo / self.commit / path


def _files(*rows: tuple[str, str, int]) -> tuple[RemoteFile, ...]:
    return tuple(RemoteFile(p, h, n) for p, h, n in rows)


_PARRY = ("Parry-Parry", "sigir25-annotation", "935c789fd39a6aa450ce1911188e76a0b26a407a")
_PARRY_CITE = ("A. Parry et al. Variations in Relevance Judgments and the Shelf Life of Test "
               "Collections. SIGIR 2025.")
_DL19_CITE = ("N. Craswell, B. Mitra, E. Yilmaz, D. Campos, E. M. Voorhees. Overview of the TREC 2019 "
              "Deep Learning Track. TREC 2019 (arXiv:2003.07820).")

REGISTRY: dict[str, Dataset] = {d.id: d for d in [
    Dataset(
        "dl19-reannotation", *_PARRY,
        files=_files(
            ("README.md", "31c7686e87c0f5d8215b5847d589b18ef508c460f02e0fb6a3300b52af2c9747", 1082),
            ("judgments/agreement-round/qrels/andrew-parry-qrels.txt", "09bd2ad55012653c52e8301c31f02f5adbe7b045206501ad1c716960f2eb3e3f", 3637),
            ("judgments/agreement-round/qrels/eugene-yang-qrels.txt", "5f9a9df323544fd05e1a69d41c3c1446dfe9ed3687f97464cda1f561415db5c7", 3637),
            ("judgments/agreement-round/qrels/ferdinand-schlatt-qrels.txt", "fe7390c3756ab8c416f701bdcd98f7b9b2864e753fdceec6768e28674586cd37", 3637),
            ("judgments/agreement-round/qrels/froebe-qrels.txt", "36c439ce3c26806ef3590e05a6f592aa98f9a8e82d9a8e90dcc298fe9fe43c33", 3637),
            ("judgments/agreement-round/qrels/guglielmo-faggioli-qrels.txt", "8b25ccc52e50a5577922db4b830a087f65690b5964d378bd0eacb05da8075202", 3637),
            ("judgments/agreement-round/qrels/harry-scells-qrels.txt", "e301cb4aba8ce7a3b680c60bef635ed136ccaab428e51810df9ed9d31187c117", 3637),
            ("judgments/agreement-round/qrels/saber-zerhoudi-qrels.txt", "81e0808f82c1231ac4d0ebc0ecfbe291c89780361e489cc045164b0225fdc6e5", 3637),
            ("judgments/agreement-round/qrels/sean-macavaney-qrels.txt", "87ae7fbc69a6ac3cce0703a207575c81ac6f2efe7b8520af2d369f9f2a778da4", 3637),
            ("judgments/main/qrels/andrew-parry-qrels.txt", "dcedb73cb90f3727672f4736b002f43db99a412268760f79a812e73b93689bab", 21322),
            ("judgments/main/qrels/eugene-yang-qrels.txt", "642d3da7b76fa313a1c997b0c9975414b2173b3e9b50e3831da01e60cd663e2a", 21322),
            ("judgments/main/qrels/ferdinand-schlatt-qrels.txt", "b5f9dc67b53b71695806e14364831a1abec4e7be9337ba268571ca795a8337c4", 21412),
            ("judgments/main/qrels/froebe-qrels.txt", "85c51790d427627a640675ba825a2056d5db82a8df22dc07ac30540abb607b34", 21412),
            ("judgments/main/qrels/guglielmo-faggioli-qrels.txt", "28b796a33597826b702eab6ec5ef6b6d106584026c4fcff05bac1108eb51f0ed", 21605),
            ("judgments/main/qrels/harry-scells-qrels.txt", "98173bae7f086e1b70cd78ace6a811fec128bb4e6ddd1ccd6bc9b6c83cab7fa7", 21604),
            ("judgments/main/qrels/saber-zerhoudi-qrels.txt", "cce1e200053ee6003bba6caafeb68cbebb883e1ca34bc358c795609f9910a8fc", 22048),
            ("judgments/main/qrels/sean-macavaney-qrels.txt", "c49728dc32cfcca5f7de5221e8a92c3d7c29ef6a291522ac4efb141a04191ed3", 22048),
            ("judgments/pilot-round-01/qrels/andrew-parry-qrels.txt", "d6781695a1f89a389f707f02283001381384762dcb0c0e379befa387b854842c", 1900),
            ("judgments/pilot-round-01/qrels/ferdinand-schlatt-qrels.txt", "0fcc375008350721bfcfc09de60c57a5a44fe1c5d004af48c57915e91f533174", 1900),
            ("judgments/pilot-round-01/qrels/froebe-qrels.txt", "c7477c147415b2e6907ec28bb420a02f8b4e159d21e96decc2b11858ab2ae2e2", 1900),
            ("judgments/pilot-round-01/qrels/ground-truth-qrels.txt", "c3ae0ab6c0a856b486de60ab2bb6058057aff167f547ae351a1e6cc353061edc", 1900),
            ("judgments/pilot-round-01/qrels/guglielmo-faggioli-qrels.txt", "4218aaf5420d417c3375e244f7aee1a758b106af51e1cd5c0d709020774bea63", 1900),
            ("judgments/pilot-round-01/qrels/harry-scells-qrels.txt", "3f48b459ceccb0f2fc5de36503a7f432fd24a21e8c250ec403a1cdb94a463e88", 1900),
            ("judgments/pilot-round-01/qrels/saber-zerhoudi-qrels.txt", "764f5f34c01b02f80aa1cf0820a589686ed240f167d871083028bdc328723510", 1900),
        ),
        title="TREC DL 2019 passage re-judged 0-3 by 8 annotators (agreement, main and pilot rounds)",
        terms="academic data release accompanying the SIGIR 2025 paper; no licence file; cite the paper",
        citation=_PARRY_CITE,
    ),
    Dataset(
        "dl19-runs", *_PARRY,
        files=_files(*[
            (f"runs/trec-dl-2019/dl-19-official-input.{name}.gz", sha, size) for name, sha, size in [
                ("ICT-BERT2", "73bcd97ca16c8be0a47a8e823494406dc9cd73ccb0e46f43de6c739a80d0d30b", 47605),
                ("ICT-CKNRM_B", "561032cfc9595b5f5a164f88adc430d5af79a566021e979982094d1a07456acc", 45570),
                ("ICT-CKNRM_B50", "071c6c5b1c117bf9b22763604c99f4c628562a8766d1a96f9fa93217efb26935", 116611),
                ("TUA1-1", "343950ccacaebd4ea3197c862ae9616efc1e53f10308569acc3ecb8e45594c45", 2872495),
                ("TUW19-p1-f", "dd9c939718f0939ea85f60fdeb13ee6c1c019e5fc401f5077832089b6c70a846", 3122737),
                ("TUW19-p1-re", "805290a42dff7b75b0ee8d72c6a7b64d2bae0646a6824a53ef3426107ab6246b", 2965289),
                ("TUW19-p2-f", "77bfb76477ca5da5d0761c070784ddb23f4a7a6ce7b3044e56295c8bda4f3cbc", 3007333),
                ("TUW19-p2-re", "ec399475ea665b196ef14adb865312935de6729a7b0d2114c80bffb175e4dc08", 2862042),
                ("TUW19-p3-f", "4a01860ea02e29c45a6095d077148b5d43629c567544a1b6f10a4ac4125450e9", 3219858),
                ("TUW19-p3-re", "97f7af56c04ee66b645ce2c7542acc23c63219c1414fa5fb9b63866e150afa69", 3062012),
                ("UNH_bm25", "1c3fcea940e4e85f7f719d25b7fe8ff217d4a45bbd58b278619dd1e59977f2ed", 1928708),
                ("UNH_exDL_bm25", "07a5b04156113001a1667f0ef1c158b5353060a77aa50f99b5344e3d374b8f82", 2217869),
                ("bm25base_ax_p", "a74462bc93f18f4a3033ab9e8adbb4a84dbaa7ffee768e79541df2329b363beb", 2074022),
                ("bm25base_p", "d858efcc797a7ecdf66c2acbdfe4d493d5b710859844a6ddf8815f4238769498", 2034234),
                ("bm25base_prf_p", "12d06e1415591b6863f412664b43461eef411ea8f7958cc192db619b6e104487", 2069968),
                ("bm25base_rm3_p", "b5cb2ebdfcbeed28cca5f66028a65e2522d370770c5b71a11756358fec58aecd", 2014407),
                ("bm25tuned_ax_p", "4167d7fd2b63920eac1b38aa68d1486238c3420dcf46bec5bcc5705c87b9b572", 2080712),
                ("bm25tuned_p", "02c7535d225b012d4a8c0076a4ac2f9efbb8966527245be04c355e751859b28a", 2038609),
                ("bm25tuned_prf_p", "f0f9c459ee7baf7eb94dda7cee5608e7d0f413b5f17411c1f1e045b915d79503", 2072294),
                ("bm25tuned_rm3_p", "0cb333e4a6cacd30906dae6f377d2f3f2a32484f70bd8200a649c7588afc76e0", 2015876),
                ("idst_bert_p1", "1b731f80d9c5a5d4cefb87f8de2935ac370ff0f26757368d37cdeda1f64f20f9", 3369796),
                ("idst_bert_p2", "c060f4f8d741f96d7261ab6417aa030971d4f385ee9cfd3e1cf4dace45405555", 3373654),
                ("idst_bert_p3", "91c2dfe183d72868c5865f2ac8c1e22e0a161ae3ad1e9059811ef082de13566b", 3367842),
                ("idst_bert_pr1", "19608c8f2282777faab2c245e00adfb608c1a29f198d7d1744821a738536bc07", 3187097),
                ("idst_bert_pr2", "f24371c69be413577d6c2a399c4250454da773a865e5f2cb9aa9751ed8040c4d", 3182724),
                ("ms_duet_passage", "4095fbf75dcd2562a5568dc2d9295b67d379f60201f2a2793400c2bc5dcbd20c", 2736474),
                ("p_bert", "2b46549f240f6e743e70555f520dbe907bbdae17a280910fca4c9a64bde6ba1a", 2220079),
                ("p_exp_bert", "d40687ec58493d76ba749e3907342f515c4c18d908d837354abc595da21c86ff", 2270395),
                ("p_exp_rm3_bert", "14716b169425157b647a00bce53d8e45c62ad47be368048c1d30ff703fbd1c8c", 2278606),
                ("runid2", "f55b4013a9a7a6c2f44fc48a6ef3e89d027bbff16247dcd3e3eedbadce1bd8af", 2666284),
                ("runid3", "13a3e636b636025a4bb2795cd8f2a6f482e77bd94405513af70f51c4e1eed402", 2921862),
                ("runid4", "9b28cfd9a9a4f6fbd074ab43506fa89bbab7c6df5956c0624dbb077d201329df", 2924966),
                ("runid5", "a90f93dd26feaff057ccd1a10ba0acdc08c7526d545261a9beff50c0b83db4b9", 2604274),
                ("srchvrs_ps_run1", "6ac0e951e664fc25364d92a436b8846ef077276afaf98be7288d8ea26b93d7a2", 2104564),
                ("srchvrs_ps_run2", "35afa308432032aaaacedf3c5d82eb25a9a2b64a2abe8a3b78b4e47ee7136bac", 1062161),
                ("srchvrs_ps_run3", "82726a574f8174e8717234ed50b1095fe6c3587f71a3431e4630771be53e621b", 2076533),
                ("test1", "534c4ce5fad60a51b937270626107b3f4f3f6d68d9d28fcbf829b9dc4cf638ab", 1382291),
            ]]),
        title="the 37 official TREC DL 2019 passage-ranking runs (TREC run format, 200 queries)",
        terms="TREC participant runs as redistributed in that repository; research use only, do not republish",
        citation=_DL19_CITE,
    ),
    Dataset(
        "dl19-nist-qrels", "castorini", "anserini-tools", "5b819c1a45c8a0a3ec9426f476694f44a29dfaf3",
        files=_files(
            ("qrels/qrels.dl19-passage.txt", "8a1f10d550732e4cd91d7fc49846a3784de4040972f583e69285a88f3c5fee92", 187092),
        ),
        title="official NIST qrels of TREC DL 2019 passage ranking, levels 0-3, 43 topics",
        terms="NIST TREC qrels, publicly distributed (copy kept in the Anserini tools repository)",
        citation=_DL19_CITE,
    ),
    Dataset(
        "stc-ja", "mynlp", "stc", "298dbdb6063ca76bd344ea11d9758e6280b45612",
        files=_files(
            ("stc1/LICENSE", "c6596eb7be8581c18be736c846fb9173b69eccf6ef94c5135893ec56bd92ba08", 11358),
            ("stc1/README.md", "ccb55cd91fc84a10fe4aef2bc7bab1c25c46bf4db9d44011d4e9571ee19cc652", 1747),
            ("stc1/devset/README.md", "f6d976f2e979e611232d082d60db737556e411056cb635d861b87ab647bf8d2c", 1196),
            ("stc1/devset/dev.txt", "58af12f3d1429f08dc3e71975bf4c1f29d58f32300ede0273c5f4372d8ede020", 114732),
            ("stc1/testset/README.md", "8b6176e41403096e977cd303cdb990c29c68ebb8c40987a26d9e52db022b904f", 588),
            ("stc1/testset/test-final-labeled.txt.gz", "b8b7567ecacc0277b924b45bdbe740020a87bed1d2a660e9a9fd62ef54effcb5", 201550),
            ("stc1/testset/test-final.txt", "391ac8e69b4ceab9c983072c488b9b805d412ca1feec664399fa248163b7b7aa", 3838),
        ),
        title="NTCIR-12 STC Japanese: (post, reply) tweet-id pairs with 10 crowd labels 0-2",
        terms="Apache-2.0 (stc1/LICENSE); tweet texts are not included",
        citation=("L. Shang, T. Sakai, Z. Lu, H. Li, R. Higashinaka, Y. Miyao. Overview of the NTCIR-12 "
                  "Short Text Conversation Task. NTCIR-12, 2016."),
    ),
    Dataset(
        "trec-rf10-crowd", "axelabels", "CDM_BIAS", "68aaa11dd12638f79bb01a2ec49012fb43c2d5ec",
        files=_files(
            ("trec-rf10-crowd/trec-rf10-data.txt", "ab501bd275bc1a4bc1d2e680ddf1234f15d25c90a841e5adc55c6c995d303016", 4103310),
            ("trec-rf10-crowd/trec-rf10-readme.txt", "60b3afb47a05080866dd29a09c919034a948a048ac450df1f5f39c6b71b110d4", 5844),
        ),
        title="TREC 2010 Relevance Feedback track crowd judgments (MTurk, 0-2) with NIST gold labels",
        terms="released by the TREC 2010 Relevance Feedback track organisers (2013); cite the track overview",
        citation=("C. Buckley, M. Lease, M. D. Smucker. Overview of the TREC 2010 Relevance Feedback "
                  "Track (Notebook). TREC 2010."),
    ),
    Dataset(
        "trec-web-diversity", "zuacubd", "trec-web-track-2009-2014", "c3410481688842604e34a248bfb2ebfffa9a91fc",
        files=_files(
            ("2009/qrels.diversity", "cfdcba75db42dc13de3bbf7bfefe0a8907b3872a54e95372bdaaebf685572934", 917936),
            ("2009/wt09.topics.full.xml", "b7148fd772e6b09f9a3083e9f6871cecab936615b92cd3c9bbd329b3922376e2", 35853),
            ("2010/10.diversity-qrels.final.txt", "8fe3dd8db8816cce8a4f355130f0e47993d2b8dddfb8496a833968b34e88571a", 297198),
            ("2010/wt2010-topics.xml", "16be50030bdb0f77b0a33b8db85b3b2fb9a9a0e125eda8b597d731ee4826e811", 32661),
            ("2011/eval-README.txt", "d4ad10ce9dfeff3a0ea40d29529ab84e54eb0a6c8bac2b929d829d351984e8bb", 1937),
            ("2011/full-topics.xml", "f85896e4e88f7a644378571909d520af4b2fe400f8234f8e3260c6cf0ea242d5", 29693),
            ("2011/qrels.diversity.txt", "7ddba2f9109bae4e674148d15ab7dce6d9f8f81526d63be02dfeab7bf42aa17a", 2208947),
            ("2012/eval-README.txt", "1979882aad25ec5ebc8023d048a4657c51a0ebc77c497349011bd4908ec5af6e", 2351),
            ("2012/full-topics.xml", "17c5537ed11bde68ea03da15d42ea58cb0a651cf5896da0be05292c22745bddf", 29353),
            ("2012/qrels.diversity.txt", "639d54a7830bd6a7141c212edaed756a907e0d5141d88be55c66dcc5d57bce82", 2124769),
            ("2013/qrels.all.txt", "25abf974398b6861692cecd98a637ce4483ba5803d4fb54aeb5526510b70816e", 1598265),
            ("2013/qrels.ndeval.txt", "b951b46144b9af0d27a5b1de6f1d29d37026ddd3ee226d40143dc52e2d92138a", 1523676),
            ("2013/trec2013-topics.xml", "05dca19a0cde4326c99e4bb19460f1c406e2d2ae41496f39f2b3e63f606f1b61", 23143),
            ("2014/qrels.all.txt", "3ed84b5acd5e0e7bf7fc3501c144f4f3d64d578fb9be965c98023dca666d51b1", 1492061),
            ("2014/qrels.ndeval.txt", "89101bfb7be0845a4d86bbd19dc3a0e458d7e8c695b094fbef41a05b0a5051a2", 1490562),
            ("2014/trec2014-topics.xml", "83ddfaaf3113bd603e64c1cd5480ce6c46cc2ad762e4e0c3aae838b411b1f203", 22873),
        ),
        title="TREC Web Track 2009-2014 diversity qrels (ndeval format) and topic XML with typed subtopics",
        terms="NIST TREC data, publicly distributed",
        citation=("C. L. A. Clarke, N. Craswell, I. Soboroff, E. M. Voorhees, K. Collins-Thompson et al. "
                  "Overviews of the TREC 2009-2014 Web Tracks. TREC 2009-2014."),
    ),
    Dataset(
        "trec-web-2012-baselines", "trec-web", "trec-web-2014", "eb769d1ae81f29e34672f4a6914a8f399aafe083",
        files=_files(
            ("README.md", "60b915fc6381d0c43083445469a805be063dff2dfb8f989cd0487a07fccb4a03", 5158),
            ("data/runs/baselines/2012/ql/results-cata-filtered.txt", "24cd0f2b4eaeec19d885955be00150cb8222fba5f7f6bfb4629a4c89cbbb812f", 417431),
            ("data/runs/baselines/2012/ql/results-cata.txt", "40704b678eaddc63046d38815fcc0d7f7b3b1143da13213a848270200f3e929e", 2589068),
            ("data/runs/baselines/2012/ql/results-catb-filtered.txt", "e34025bbc8d8f52ab545c855d31ee3b4cab873c616620e81ed13b34b84433345", 1114153),
            ("data/runs/baselines/2012/ql/results-catb.txt", "1806bb5657bfa1ab6634de1675d65563f1e1a1ee27dc18cce7d322b46009035e", 2558538),
            ("data/runs/baselines/2012/rm/results-cata-filtered.txt", "2e74065f1b4fc3aafdeaa6939c7c94afeb446efbea1481c163ac0e93aa2c48b8", 418683),
            ("data/runs/baselines/2012/rm/results-cata.txt", "93930d0c482bff8512e731c231039afe09f26454a7514ab86533cf33616c135c", 2589136),
            ("data/runs/baselines/2012/rm/results-catb-filtered.txt", "6d0fc2011f6dc1a02782ac4de7ac6f11ca13ea43b658a9294afb5d33a78db356", 1143445),
            ("data/runs/baselines/2012/rm/results-catb.txt", "34b04b1f00de9782f959681bb3fa77ac1c992843fd525bab3684ff012e5044b8", 2589066),
        ),
        title="8 Indri baseline runs (QL, RM; ClueWeb09 Cat. A/B; with/without spam filter) on WT2012 topics 151-200",
        terms="released by the TREC 2014 Web Track organisers",
        citation=("K. Collins-Thompson, C. Macdonald, P. Bennett, F. Diaz, E. M. Voorhees. TREC 2014 "
                  "Web Track Overview. TREC 2014."),
    ),
    Dataset(
        "thuir-image-preference", "THUxiexiaohui", "An-image-dataset-with-preference-judgments",
        "cbd0065d9322fca687d69d5f86aca5fb1a0d0845",
        files=_files(
            ("Image_position.json", "23048f472d074134492f8f8034a6e24952301c0c8f76058d68c29dadf1633640", 53240),
            ("README.md", "711aff42a5b2d0b403dcea80ad3a823ebe8365e856c762b10677b4e1461f63d1", 1323),
            ("SERP_level_preference", "7b499c28961c7d53c8420bf8abca9db8b6cf534e42302a67f7b4ea995c17dc29", 2168),
            ("image_pairs_annotation", "b50ec0f1bd4842445c06031f744300e66fbae4a4ba0f9e3a456b623359ba2fc5", 3580611),
            ("relevance_data", "856c3176af92706a752cb858f92b934962da1ec1af4f7d63918d4ef4dbccab99", 185093),
        ),
        title="102 image-search queries: SERP-level preference Sogou vs Baidu, image relevance, grid positions, image-pair preferences",
        terms="no licence file; the authors ask to cite the paper",
        citation=("X. Xie, J. Mao, Y. Liu, M. de Rijke, H. Chen, M. Zhang, S. Ma. Preference-based "
                  "Evaluation Metrics for Web Image Search. SIGIR 2020."),
    ),
]}


def dataset(dataset_id: str) -> Dataset:
    """The registered dataset ``dataset_id`` (ValueError naming the known ones otherwise)."""
    try:
        return REGISTRY[dataset_id]
    except KeyError:
        raise ValueError(f"unknown dataset {dataset_id!r}; expected one of {sorted(REGISTRY)}") from None


def registry_table() -> pd.DataFrame:
    """The registry as a table (no download): id, repository, commit, files, bytes, terms."""
    return pd.DataFrame([(d.id, f"{d.owner}/{d.repo}", d.commit[:12], len(d.files),
                          sum(f.size for f in d.files), d.terms) for d in REGISTRY.values()],
                        columns=["id", "repository", "commit", "files", "bytes", "terms"])
