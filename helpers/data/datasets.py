"""Public datasets: a pinned registry, checksummed download, offline mirror and tidy loaders.

Registry
--------
:data:`REGISTRY` lists every public dataset the notebooks use, each pinned to one commit of one
GitHub repository, with the sha256 and size of every file, its terms and the paper to cite.
``data/README.md`` is the human-readable version of the same table.

Download (:func:`fetch`)
------------------------
Files go to ``data/external/<owner>/<repo>/<commit>/<path>`` (git-ignored). Each file is streamed
into a temporary file in the target folder while its sha256 is computed; only a file whose hash
matches the registry is renamed into place, so an interrupted or corrupted download never leaves
anything under the final name, and the error names the file with the expected and the actual hash.

A file already present is re-hashed (about 0.1 s for the 85 MB of DL-19 runs) instead of trusting
a stamp, so a locally modified file is detected and replaced; within one Python process a file is
hashed only once (keyed on its size and modification time).

Sources, in order of precedence: the ``source`` argument; the environment variable
``SUBJEVAL_DATA_MIRROR``; the upstream ``https://raw.githubusercontent.com``. A mirror is either a
local directory laid out ``<owner>/<repo>/<commit>/<path>`` or a ``file://``, ``http://`` or
``https://`` base URL with the same layout (what ``raw.githubusercontent.com`` serves). Whatever the
source, the bytes must match the pinned sha256.

Loaders
-------
Loaders fetch what they need on first use and return tidy frames with ``ir_measures`` column
names. Identifiers are strings. Annotators of the DL-19 re-annotation are named ``A1``..``A8``
(sorted order of the upstream file names of the agreement round, computed at load time; the
names themselves never reach a frame). Every malformed line raises a :class:`ValueError`
``"<file>:<line>: expected ..., got ..."``. Excluded rows (e.g. broken-link labels) are counted in
``df.attrs["excluded"]``.

Command line: ``python -m helpers data fetch --all | fetch ID... | describe [--registry]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from helpers import paths
from helpers.io import files, readers, trec
from helpers.io.topics import parse_topics

__all__ = [
    "MIRROR_ENV", "UPSTREAM", "RemoteFile", "Dataset", "REGISTRY", "FetchError", "ChecksumError",
    "fetch", "load_ratings", "load_qrels", "load_runs", "load_diversity_qrels", "load_intents",
    "load_image_preferences", "ImagePreferences", "describe", "registry_table", "main",
    "RATINGS", "QRELS", "RUNS", "DIVERSITY",
]

log = logging.getLogger(__name__)

MIRROR_ENV = "SUBJEVAL_DATA_MIRROR"
UPSTREAM = "https://raw.githubusercontent.com"
_CHUNK = 1 << 20


# --------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------
# Download
# --------------------------------------------------------------------------------------------

class FetchError(OSError):
    """A dataset file could not be obtained (missing, unreachable, interrupted)."""


class ChecksumError(FetchError):
    """A downloaded file's sha256 differs from the pinned one (nothing was kept)."""


_VERIFIED: dict[Path, tuple[int, int, str]] = {}


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _is_verified(path: Path, rf: RemoteFile) -> bool:
    """True if ``path`` exists with the pinned hash (hashed at most once per process)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return False
    stamp = (st.st_size, st.st_mtime_ns, rf.sha256)
    if _VERIFIED.get(path) == stamp:
        return True
    if st.st_size == rf.size and _sha256_file(path) == rf.sha256:
        _VERIFIED[path] = stamp
        return True
    log.warning("%s does not match its pinned sha256; downloading it again", path)
    return False


def _resolve_source(source: str | os.PathLike | None) -> tuple[str, str, bool]:
    """Return ``(kind, base, configured)``: kind is ``"dir"`` or ``"url"``."""
    configured = True
    if source is None:
        source = os.environ.get(MIRROR_ENV) or None
    if source is None:
        return "url", UPSTREAM, False
    text = os.fspath(source)
    if "://" in text:
        scheme = text.split("://", 1)[0].lower()
        if scheme not in ("file", "http", "https"):
            raise ValueError(f"{MIRROR_ENV}: expected a directory or a file://, http:// or https:// "
                             f"base URL, got {text!r}")
        return "url", text, configured
    if not Path(text).is_dir():
        raise ValueError(f"{MIRROR_ENV}: expected an existing directory laid out "
                         f"<owner>/<repo>/<commit>/<path>, got {text!r}")
    return "dir", text, configured


_HINT = (f"To work offline, set the environment variable {MIRROR_ENV} to a mirror: a local "
         "directory laid out <owner>/<repo>/<commit>/<path> or a file://, http:// or https:// base "
         "URL with that layout.")


def _open_source(ds: Dataset, rf: RemoteFile, kind: str, base: str, configured: bool,
                 timeout: float):
    """Open the source of one file for reading; return ``(binary file object, address)``."""
    if kind == "dir":
        where = Path(base) / ds.owner / ds.repo / ds.commit / rf.path
        try:
            return open(where, "rb"), str(where)
        except FileNotFoundError:
            raise FetchError(f"{ds.id}: file {rf.path} is missing from the mirror: {where} does not "
                             f"exist ({MIRROR_ENV}={base})") from None
    url = ds.url(rf.path, base)
    try:
        return urllib.request.urlopen(url, timeout=timeout), url
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{ds.id}: file {rf.path} could not be downloaded from {url}: HTTP "
                         f"{exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, FileNotFoundError) or (url.startswith("file:")
                                                     and isinstance(exc, urllib.error.URLError)):
            raise FetchError(f"{ds.id}: file {rf.path} is missing from the mirror: {url} "
                             f"({reason})") from None
        hint = _HINT if not configured else f"Check the mirror {MIRROR_ENV}={base}."
        raise FetchError(f"{ds.id}: could not download {rf.path} from {url}: {reason}. "
                         f"{hint}") from None


def _download(ds: Dataset, rf: RemoteFile, dest: Path, kind: str, base: str, configured: bool,
              timeout: float) -> None:
    """Stream one file into ``dest`` through a temporary file, verifying its sha256."""
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FetchError(f"{ds.id}: cannot create the data folder {dest.parent} for {rf.path}: "
                         f"{exc.strerror or exc}") from None
    src, where = _open_source(ds, rf, kind, base, configured, timeout)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    except OSError as exc:
        src.close()
        raise FetchError(f"{ds.id}: cannot write {rf.path} into {dest.parent}: "
                         f"{exc.strerror or exc}") from None
    os.fchmod(fd, 0o666 & ~files.umask())
    try:
        digest = hashlib.sha256()
        received = 0
        headers = getattr(src, "headers", None)
        announced = headers.get("Content-Length") if headers is not None else None
        with src, os.fdopen(fd, "wb") as out:
            while True:
                try:
                    block = src.read(_CHUNK)
                except Exception as exc:
                    raise FetchError(f"{ds.id}: download of {rf.path} from {where} was interrupted: "
                                     f"{type(exc).__name__}: {exc}") from exc
                if not block:
                    break
                digest.update(block)
                try:
                    out.write(block)
                except OSError as exc:  # disk full, quota, I/O error: keep nothing, say where
                    raise FetchError(f"{ds.id}: writing {rf.path} to {dest.parent} failed after "
                                     f"{received} bytes: {exc.strerror or exc}; nothing was kept") from None
                received += len(block)
            if announced is not None and announced.isdigit() and int(announced) != received:
                raise FetchError(f"{ds.id}: download of {rf.path} from {where} was interrupted: "
                                 f"received {received} of {announced} bytes")
            out.flush()
            os.fsync(out.fileno())
        got = digest.hexdigest()
        if got != rf.sha256:
            raise ChecksumError(f"{ds.id}: checksum mismatch for {rf.path} (from {where}): expected "
                                f"sha256 {rf.sha256}, got {got}; the file was not kept")
        os.replace(tmp, dest)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    st = dest.stat()
    _VERIFIED[dest] = (st.st_size, st.st_mtime_ns, rf.sha256)


def _dataset(dataset_id: str) -> Dataset:
    try:
        return REGISTRY[dataset_id]
    except KeyError:
        raise ValueError(f"unknown dataset {dataset_id!r}; expected one of {sorted(REGISTRY)}") from None


def fetch(dataset_id: str, *, paths: Iterable[str] | None = None,
          source: str | os.PathLike | None = None, root: str | os.PathLike | None = None,
          timeout: float = 60.0) -> dict[str, Path]:
    """Download the files of a registered dataset, verifying every sha256.

    Parameters
    ----------
    dataset_id : str
        Key of :data:`REGISTRY`, e.g. ``"dl19-runs"``.
    paths : iterable of str, optional
        Only these registered files (default: all files of the dataset).
    source : str or path-like, optional
        Where to download from; default: ``$SUBJEVAL_DATA_MIRROR`` if set, else
        ``https://raw.githubusercontent.com``. A local directory or a ``file://``/``http(s)://``
        base URL, laid out ``<owner>/<repo>/<commit>/<path>``.
    root : path-like, optional
        Local store; default ``data/external``.
    timeout : float
        Seconds before a network connection or read gives up.

    Returns
    -------
    dict of str to pathlib.Path
        Local path of each requested file, keyed by its path in the repository.

    Raises
    ------
    ValueError
        Unknown dataset or file, or a malformed ``SUBJEVAL_DATA_MIRROR``.
    ChecksumError
        A file's sha256 differs from the pinned value (message: file, expected and got).
    FetchError
        A file is missing from the source, the source is unreachable (the message says how to
        configure an offline mirror) or the transfer was interrupted.
    """
    ds = _dataset(dataset_id)
    wanted = [rf.path for rf in ds.files] if paths is None else list(paths)
    kind, base, configured = None, None, False
    out: dict[str, Path] = {}
    for path in wanted:
        rf = ds.file(path)
        dest = ds.local_path(rf.path, Path(root) if root is not None else None)
        if not _is_verified(dest, rf):
            if kind is None:
                kind, base, configured = _resolve_source(source)
            log.info("fetching %s/%s from %s", ds.id, rf.path, base)
            _download(ds, rf, dest, kind, base, configured, timeout)
        out[path] = dest
    return out


def _fetch_one(dataset_id: str, path: str) -> Path:
    return fetch(dataset_id, paths=[path])[path]


# --------------------------------------------------------------------------------------------
# Helpers for validation
# --------------------------------------------------------------------------------------------

def _check_values(path: Path, values: pd.Series, allowed: Iterable, expected: str,
                  skip: int = 0) -> None:
    """Raise ``file:line`` for the first row whose value is not in ``allowed``."""
    bad = ~values.isin(list(allowed)).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        line = trec.row_line(path, row, skip=skip)
        raise trec.malformed(path, line, expected, values.iloc[row])


def _with_attrs(df: pd.DataFrame, **attrs) -> pd.DataFrame:
    df = df.reset_index(drop=True)
    df.attrs.update(attrs)
    return df


# --------------------------------------------------------------------------------------------
# Ratings
# --------------------------------------------------------------------------------------------

_DL19_ROUNDS = {"dl19-agreement": "agreement-round", "dl19-main": "main",
                "dl19-pilot": "pilot-round-01"}
_QRELS_SUFFIX = "-qrels.txt"
_GROUND_TRUTH = "ground-truth"

RATINGS = ("dl19-agreement", "dl19-main", "dl19-pilot", "stc-ja", "stc-ja-dev", "trec-rf10")


def _dl19_annotator_ids() -> dict[str, str]:
    """Map upstream file stems to anonymous ids A1..A8 (sorted order of the agreement round)."""
    ds = REGISTRY["dl19-reannotation"]
    prefix = "judgments/agreement-round/qrels/"
    stems = sorted(rf.path[len(prefix):-len(_QRELS_SUFFIX)] for rf in ds.files
                   if rf.path.startswith(prefix) and rf.path.endswith(_QRELS_SUFFIX))
    ids = {stem: f"A{i + 1}" for i, stem in enumerate(stems)}
    ids[_GROUND_TRUTH] = "GT"
    return ids


def _load_dl19_round(name: str) -> pd.DataFrame:
    ds = REGISTRY["dl19-reannotation"]
    prefix = f"judgments/{_DL19_ROUNDS[name]}/qrels/"
    wanted = [rf.path for rf in ds.files if rf.path.startswith(prefix)]
    local = fetch(ds.id, paths=wanted)
    ids = _dl19_annotator_ids()
    for path in wanted:
        stem = path[len(prefix):]
        if not stem.endswith(_QRELS_SUFFIX) or stem[:-len(_QRELS_SUFFIX)] not in ids:
            raise ValueError(f"{local[path]}: expected an annotator qrels file of the agreement round, "
                             f"got an unknown file name")
    # one qrels file per annotator: the reader users have for their own files (issue 12)
    df = readers.read_ratings([local[p] for p in wanted], layout="qrels", d_max=3, what=name)
    df["assessor"] = df["assessor"].map(lambda a: ids[a.removesuffix(_QRELS_SUFFIX.removesuffix(".txt"))])
    df = df.sort_values(["query_id", "doc_id", "assessor"], kind="stable")
    df.attrs = {}
    return _with_attrs(df, dataset=name, levels=(0, 1, 2, 3), excluded={})


def _load_stc(name: str) -> pd.DataFrame:
    path = "stc1/testset/test-final-labeled.txt.gz" if name == "stc-ja" else "stc1/devset/dev.txt"
    local = _fetch_one("stc-ja", path)
    # the STC layout (ids, then ten crowd labels; NA = no label) is the readers' "wide" layout
    long = readers.read_ratings(local, layout="wide", d_max=2, what=name)
    if long["assessor"].nunique() != 10:
        raise trec.malformed(local, None, "10 label columns C1..C10", f"{long['assessor'].nunique()} columns")
    n_na = int(long.attrs.get("excluded", {}).get("missing_labels", 0))
    long = long.sort_values(["query_id", "doc_id", "assessor"], kind="stable",
                            key=lambda s: s.str[1:].astype(int) if s.name == "assessor" else s)
    long.attrs = {}
    return _with_attrs(long[["query_id", "doc_id", "assessor", "rating"]], dataset=name,
                       levels=(0, 1, 2), excluded={"NA_labels": n_na})


def _load_rf10(include_nist: bool) -> pd.DataFrame:
    local = _fetch_one("trec-rf10-crowd", "trec-rf10-crowd/trec-rf10-data.txt")
    expected_header = "topicID\tworkerID\tdocID\tgold\tlabel"
    with open(local, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\r\n")
    if header != expected_header:
        raise trec.malformed(local, 1, f"the header {expected_header!r}", header)
    raw = trec.read_delimited(
        local, ["query_id", "assessor", "doc_id", "gold", "rating"], sep="\t", header=True,
        dtypes={"query_id": str, "assessor": str, "doc_id": str, "gold": "int64", "rating": "int64"},
        expected="5 tab-separated fields 'topicID workerID docID gold label' (integer labels)",
        checks={3: trec.is_int, 4: trec.is_int})
    _check_values(local, raw["rating"], (-2, 0, 1, 2), "crowd label -2, 0, 1 or 2", skip=1)
    _check_values(local, raw["gold"], (-2, -1, 0, 1, 2), "gold label -2, -1, 0, 1 or 2", skip=1)
    golds = raw.groupby(["query_id", "doc_id"], sort=False)["gold"].transform("nunique")
    bad = (golds > 1).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise trec.malformed(local, trec.row_line(local, row, skip=1),
                                "one gold label per (topic, document)", raw["gold"].iloc[row])
    trap = raw["gold"] == -2
    broken = (raw["rating"] == -2) & ~trap
    valid = ~(trap | broken)
    repeated = pd.Series(False, index=raw.index)
    repeated[valid] = raw.loc[valid].duplicated(["query_id", "assessor", "doc_id"])
    keep = valid & ~repeated
    excluded = {
        "broken_link_labels": int(broken.sum()),
        "planted_broken_link_items": int(raw.loc[trap, ["query_id", "doc_id"]].drop_duplicates().shape[0]),
        "planted_broken_link_labels": int(trap.sum()),
        "repeated_labels": int(repeated.sum()),
    }
    crowd = raw.loc[keep, ["query_id", "doc_id", "assessor", "rating"]]
    frames = [crowd]
    if include_nist:
        gold = raw.loc[raw["gold"] >= 0, ["query_id", "doc_id", "gold"]].drop_duplicates(
            ["query_id", "doc_id"])
        frames.append(pd.DataFrame({"query_id": gold["query_id"], "doc_id": gold["doc_id"],
                                    "assessor": "NIST", "rating": gold["gold"]}))
    df = pd.concat(frames, ignore_index=True)
    return _with_attrs(df, dataset="trec-rf10", levels=(0, 1, 2), excluded=excluded)


def load_ratings(name: str, *, include_nist: bool | None = None) -> pd.DataFrame:
    """Per-assessor relevance ratings, one row per (item, assessor).

    Parameters
    ----------
    name : str
        ``"dl19-agreement"``: TREC DL 2019 passages, 188 items x 8 annotators, levels 0-3 (Parry
        et al. 2025, agreement round). ``"dl19-main"``: the main round, ~4,500 items over the 43
        judged topics, each judged by one pair of annotators (18 by only one). ``"dl19-pilot"``:
        100 items, 6 annotators plus the organisers' reference labels (assessor ``"GT"``).
        ``"stc-ja"``: NTCIR-12 STC Japanese test set, 18,543 (post, reply) pairs x 10 crowd labels
        0-2; ``"stc-ja-dev"``: the 1,959-pair development set (``NA`` labels, given when a worker
        found the post meaningless, are dropped and counted). ``"trec-rf10"``: TREC 2010
        Relevance Feedback crowd labels 0-2.
    include_nist : bool, optional
        Add the NIST label of each item as assessor ``"NIST"``. Default (None): as the source
        ships it, i.e. True for ``trec-rf10`` (its ``gold`` column) and False for the others.
        True for a DL-19 round joins the official NIST qrels (:func:`load_qrels`
        ``("dl19-nist")``) on (query_id, doc_id); STC has no NIST label (ValueError).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str; the post id for STC), ``doc_id`` (str; the reply id for STC),
        ``assessor`` (str) and ``rating`` (int64). ``df.attrs`` holds ``dataset``, ``levels``
        and ``excluded`` (counts of rows left out and why).

    Notes
    -----
    Assessor ids: DL-19 annotators are ``A1``..``A8`` (sorted order of the upstream file names of
    the agreement round; the same person has the same id in every round). STC labels are
    ``C1``..``C10`` by column position: the columns are crowd *slots*, not persons (the source
    does not identify workers, and the labels of a row are often sorted). TREC RF10 keeps the
    source's anonymised worker ids (``w1``...).

    TREC RF10 exclusions: a worker label of -2 ("broken link") is dropped; items whose NIST gold
    is -2 are the organisers' planted broken links (quality control) and are dropped entirely;
    when a worker gave the same item more than one valid label (1,239 repeats), the first in file
    order is kept. Each count is in ``df.attrs["excluded"]``.

    Raises
    ------
    ValueError
        Unknown name, or a malformed source line (``"<file>:<line>: expected ..., got ..."``).
    """
    if name not in RATINGS:
        raise ValueError(f"unknown ratings set {name!r}; expected one of {list(RATINGS)}")
    if name in _DL19_ROUNDS:
        df = _load_dl19_round(name)
        if include_nist:
            nist = load_qrels("dl19-nist")
            items = df[["query_id", "doc_id"]].drop_duplicates()
            joined = items.merge(nist, on=["query_id", "doc_id"], how="inner")
            extra = pd.DataFrame({"query_id": joined["query_id"], "doc_id": joined["doc_id"],
                                  "assessor": "NIST", "rating": joined["relevance"]})
            attrs = dict(df.attrs)
            df = pd.concat([df, extra], ignore_index=True)
            df.attrs.update(attrs)
            df.attrs["excluded"] = {**attrs["excluded"],
                                    "items_without_nist_label": len(items) - len(joined)}
        return df
    if name.startswith("stc-ja"):
        if include_nist:
            raise ValueError(f"{name} has no NIST (official) label; use include_nist=None or False")
        return _load_stc(name)
    return _load_rf10(include_nist is None or include_nist)


# --------------------------------------------------------------------------------------------
# Qrels and runs
# --------------------------------------------------------------------------------------------

#: TREC DL 2019 passage ranking: the lowest NIST level that counts as relevant. NIST judged passages
#: on 0 "irrelevant", 1 "related" (on the topic but does not answer the question), 2 "highly
#: relevant", 3 "perfectly relevant", and level 1 is *not* relevant: binary measures of the passage
#: task use ``trec_eval -l 2`` (Craswell et al., Overview of the TREC 2019 Deep Learning Track,
#: Sect. on passage judgments; NIST's TREC 2019 DL data page). Graded measures (nDCG) keep the
#: gains 0-3 of the levels.
DL19_RELEVANCE_THRESHOLD: int = 2
DL19_LEVEL_NAMES: tuple[str, ...] = ("irrelevant", "related (not relevant)", "highly relevant",
                                     "perfectly relevant")
DL19_THRESHOLD_SOURCE = ("TREC DL 2019 passage levels: 0 irrelevant, 1 related (not relevant), 2 highly "
                         "relevant, 3 perfectly relevant; binary measures use levels >= 2 (trec_eval -l 2) "
                         "[Craswell et al. 2020, Overview of the TREC 2019 Deep Learning Track]")

#: Relevance threshold (lowest relevant level) of every collection with official levels, by the
#: collection's own definition. ``dl19``/``dl19-nist``/the DL-19 re-annotation rounds: 2 (above);
#: ``trec-rf10``: 1 (TREC 2010 RF labels 0 non-relevant, 1 relevant, 2 highly relevant).
RELEVANCE_THRESHOLDS: dict[str, int] = {"dl19": DL19_RELEVANCE_THRESHOLD, "dl19-nist": DL19_RELEVANCE_THRESHOLD,
                                        "dl19-agreement": DL19_RELEVANCE_THRESHOLD,
                                        "dl19-main": DL19_RELEVANCE_THRESHOLD,
                                        "dl19-pilot": DL19_RELEVANCE_THRESHOLD, "trec-rf10": 1}


def relevance_threshold(name: str) -> int:
    """The collection's own relevance threshold (lowest level counted as relevant).

    >>> relevance_threshold("dl19")
    2
    """
    if name not in RELEVANCE_THRESHOLDS:
        raise ValueError(f"no documented relevance threshold for {name!r}; known: {sorted(RELEVANCE_THRESHOLDS)}")
    return RELEVANCE_THRESHOLDS[name]


#: The team of every official DL-19 passage run, with the evidence for each grouping
#: (``data/raw/dl19_teams.csv``; documented in ``data/raw/README.md``).
DL19_TEAMS_FILE = "dl19_teams.csv"


def load_teams(name: str = "dl19", path: str | os.PathLike | None = None) -> pd.DataFrame:
    """Team table of a run collection: ``run_id, team, evidence`` (one row per run).

    Parameters
    ----------
    name : str
        ``"dl19"``: the 37 official TREC DL 2019 passage runs (``data/raw/dl19_teams.csv``).
    path : path-like, optional
        Read this CSV instead (same columns); for tests and other collections.

    Raises
    ------
    ValueError
        ``"<file>:<line>: expected ..."`` for a missing column, an empty field or a run listed twice.
    """
    if path is None:
        if name != "dl19":
            raise ValueError(f"no team table for {name!r}; expected 'dl19'")
        path = paths.DATA_RAW / DL19_TEAMS_FILE
    path = Path(path)
    df = pd.read_csv(path, dtype=str, keep_default_na=False, comment="#")
    need = ["run_id", "team", "evidence"]
    if list(df.columns[:3]) != need:
        raise ValueError(f"{path.name}:1: expected header {','.join(need)}, got {','.join(df.columns)}")
    # line numbers: header is the first non-comment line
    lines = [i + 1 for i, t in enumerate(path.read_text(encoding="utf-8").splitlines())
             if t.strip() and not t.lstrip().startswith("#")][1:]
    for k, row in enumerate(df[need].itertuples(index=False)):
        for col, v in zip(need, row):
            if not v.strip():
                raise ValueError(f"{path.name}:{lines[k]}: expected a non-empty {col}, got {v!r}")
    dup = df["run_id"].duplicated()
    if dup.any():
        k = int(np.flatnonzero(dup.to_numpy())[0])
        raise ValueError(f"{path.name}:{lines[k]}: expected each run once, got {df['run_id'].iloc[k]!r} again")
    return df[need].reset_index(drop=True)


QRELS = ("dl19-nist",)
RUNS = ("dl19", "trec-web-2012")


def load_qrels(name: str) -> pd.DataFrame:
    """Official qrels as ``query_id, doc_id, relevance``.

    Parameters
    ----------
    name : str
        ``"dl19-nist"``: NIST qrels of TREC DL 2019 passage ranking (levels 0-3, 43 topics,
        9,260 judgments).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64).
    """
    if name not in QRELS:
        raise ValueError(f"unknown qrels {name!r}; expected one of {list(QRELS)}")
    local = _fetch_one("dl19-nist-qrels", "qrels/qrels.dl19-passage.txt")
    qrels = readers.read_graded_qrels(local, levels=(0, 3), what=name)
    qrels.attrs = {}
    return _with_attrs(qrels, dataset=name, levels=(0, 1, 2, 3))


def load_runs(name: str, depth: int | None = None) -> pd.DataFrame:
    """System runs as ``run_id, query_id, doc_id, rank, score``.

    Parameters
    ----------
    name : str
        ``"dl19"``: the 37 official TREC DL 2019 passage runs (200 queries; run ids from the
        files' sixth field). ``"trec-web-2012"``: the 8 Indri baselines on WT2012 topics
        151-200, named ``{ql,rm}-{cata,catb}[-filtered]`` after their files (all are tagged
        ``indri`` upstream).
    depth : int, optional
        Keep only ranks 1..depth of every (run, query).

    Returns
    -------
    pandas.DataFrame
        Runs in registry order; within a run, queries in file order; within a query, documents in
        ``trec_eval`` order (decreasing score, ties by decreasing doc_id) with ``rank``
        renumbered 1, 2, ... (the files' own rank fields are ignored, as ``trec_eval`` does; some
        DL-19 runs count from 0).
    """
    if name not in RUNS:
        raise ValueError(f"unknown runs {name!r}; expected one of {list(RUNS)}")
    if depth is not None and (not isinstance(depth, (int, np.integer)) or depth < 1):
        raise ValueError(f"depth must be a positive integer or None, got {depth!r}")
    dataset_id = "dl19-runs" if name == "dl19" else "trec-web-2012-baselines"
    ds = REGISTRY[dataset_id]
    wanted = [rf.path for rf in ds.files if "/runs/" in f"/{rf.path}"]
    local = fetch(dataset_id, paths=wanted)
    if name == "dl19":  # TREC run files named by their sixth field: the readers' own case
        df = readers.read_runs([local[p] for p in wanted], depth=depth, what=name)
        df.attrs = {}
        return _with_attrs(df, dataset=name, depth=depth)
    frames = []
    for path in wanted:
        run_id = None
        if name == "trec-web-2012":
            model = path.split("/")[-2]
            run_id = f"{model}-{Path(path).stem.removeprefix('results-')}"
        run = trec.sort_run(trec.read_run(local[path], run_id=run_id))
        if depth is not None:
            run = run[run["rank"] <= depth]
        frames.append(run)
    df = pd.concat(frames, ignore_index=True)
    return _with_attrs(df, dataset=name, depth=depth)


# --------------------------------------------------------------------------------------------
# Diversity: qrels and intents
# --------------------------------------------------------------------------------------------

_WEB = {
    "trec-web-2009": ("2009/qrels.diversity", "2009/wt09.topics.full.xml"),
    "trec-web-2010": ("2010/10.diversity-qrels.final.txt", "2010/wt2010-topics.xml"),
    "trec-web-2011": ("2011/qrels.diversity.txt", "2011/full-topics.xml"),
    "trec-web-2012": ("2012/qrels.diversity.txt", "2012/full-topics.xml"),
    "trec-web-2013": ("2013/qrels.all.txt", "2013/trec2013-topics.xml"),
    "trec-web-2014": ("2014/qrels.all.txt", "2014/trec2014-topics.xml"),
}
DIVERSITY = tuple(_WEB)


def _web_files(name: str) -> tuple[Path, Path]:
    if name not in _WEB:
        raise ValueError(f"unknown diversity collection {name!r}; expected one of {list(_WEB)}")
    qrels, topics = _WEB[name]
    local = fetch("trec-web-diversity", paths=[qrels, topics])
    return local[qrels], local[topics]


def load_intents(name: str) -> pd.DataFrame:
    """Intents (subtopics) of the TREC Web Track topics, with uniform probabilities.

    Parameters
    ----------
    name : str
        ``"trec-web-2009"`` .. ``"trec-web-2014"``.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``intent_id`` (str), ``prob`` (float64, 1/number of
        subtopics of the topic: TREC publishes no intent probabilities and the TREC measures
        weight subtopics uniformly) and ``kind`` (``"nav"`` or ``"inf"``, from the topic XML).

    Notes
    -----
    Topics of type ``single`` (2013, 2014) have no subtopics in the XML; their qrels use
    subtopic 0, so they get one intent ``"0"`` with probability 1 and kind ``"inf"``. A subtopic
    without a type, or with a type other than nav/inf (2011 has ``inv`` and ``inav``), gets the
    DTD's default ``"inf"``; such corrections are listed in ``df.attrs["kind_corrections"]``.
    Subtopics that no document is relevant to are kept (they count in the uniform probability).
    """
    _, topics_path = _web_files(name)
    rows, corrections = [], []
    for topic in parse_topics(topics_path):
        subs = topic["subtopics"] or [("0", "inf", topic["line"])]
        seen = set()
        for intent, kind, line in subs:
            if intent in seen:
                raise trec.malformed(topics_path, line, f"distinct subtopic numbers in topic "
                                        f"{topic['number']}", f"subtopic {intent} again")
            seen.add(intent)
            if kind not in ("nav", "inf"):
                corrections.append((topic["number"], intent, kind))
                kind = "inf"
            rows.append((topic["number"], intent, 1.0 / len(subs), kind))
    df = pd.DataFrame(rows, columns=["query_id", "intent_id", "prob", "kind"])
    df = df.astype({"query_id": "str", "intent_id": "str", "kind": "str"})
    return _with_attrs(df, dataset=name, kind_corrections=corrections)


def load_diversity_qrels(name: str) -> pd.DataFrame:
    """Diversity qrels of a TREC Web Track year as ``query_id, intent_id, doc_id, relevance``.

    Parameters
    ----------
    name : str
        ``"trec-web-2009"`` .. ``"trec-web-2014"`` (primary files: ``qrels.diversity`` for
        2009-2012, ``qrels.all.txt`` for 2013-2014).

    Returns
    -------
    pandas.DataFrame
        ``relevance`` is int64 with negative levels (-2 = spam) set to 0, as ndeval requires.
        Levels: 2009 and 2010 binary (2010 lists relevant rows only), 2011-2014 graded 0-4.

    Notes
    -----
    In 2009, subtopic 0 marks documents judged non-relevant to every subtopic; those rows
    (relevance 0, not an intent of :func:`load_intents`) are dropped. In 2013-2014, subtopic 0 is
    the single intent of ``single`` topics and is kept. Counts are in
    ``df.attrs["excluded"]`` (``negative_set_to_zero``, ``subtopic0_rows_dropped``).
    """
    qrels_path, topics_path = _web_files(name)
    qrels = trec.read_diversity_qrels(qrels_path)
    has_subtopics = {t["number"] for t in parse_topics(topics_path) if t["subtopics"]}
    negative = qrels["relevance"] < 0
    qrels.loc[negative, "relevance"] = 0
    drop = (qrels["intent_id"] == "0") & qrels["query_id"].isin(has_subtopics)
    dropped_relevant = int((drop & (qrels["relevance"] > 0)).sum())
    if dropped_relevant:
        row = int(np.flatnonzero((drop & (qrels["relevance"] > 0)).to_numpy())[0])
        raise trec.malformed(qrels_path, trec.row_line(qrels_path, row),
                                "subtopic 0 only with level 0 for topics that have subtopics",
                                int(qrels["relevance"].iloc[row]))
    qrels = qrels[~drop]
    return _with_attrs(qrels, dataset=name, excluded={
        "negative_set_to_zero": int(negative.sum()), "subtopic0_rows_dropped": int(drop.sum())})


# --------------------------------------------------------------------------------------------
# THUIR image search preferences
# --------------------------------------------------------------------------------------------

class ImagePreferences(NamedTuple):
    """Tidy tables of the THUIR image-search preference dataset (Xie et al., SIGIR 2020).

    Attributes
    ----------
    serp : pandas.DataFrame
        ``query_id, preference, preferred``: SERP-level preference between the two engines'
        result pages (``preference`` 0 = Sogou, 1 = tie, 2 = Baidu, as upstream;
        ``preferred`` = ``"sogou"``, ``"tie"``, ``"baidu"``). 102 queries.
    relevance : pandas.DataFrame
        ``query_id, engine, image, doc_id, relevance``: mean relevance (0-100) of three
        assessors per image; ``image`` is the image's index in the engine's result list and
        ``doc_id`` the upstream file name (``engine/query_index.jpg``).
    positions : pandas.DataFrame
        ``query_id, engine, image, row, column, row_size``: grid placement (0-based row and
        column, number of images in that row). Upstream keys engines as ``"0"`` (Sogou) and
        ``"1"`` (Baidu), as the authors' PWP.py reads them.
    pairs : pandas.DataFrame
        ``query_id, left, right, assessor, preference``: image-pair preferences in long form, one
        row per pair and assessor slot ``P1``..``P3`` (slots by column position; the source does
        not identify persons). ``preference`` -2 (definitely left) .. 2 (definitely right).
    """

    serp: pd.DataFrame
    relevance: pd.DataFrame
    positions: pd.DataFrame
    pairs: pd.DataFrame


_ENGINES = ("sogou", "baidu")


def _image_name(path: Path, values: pd.Series, skip: int, what: str) -> pd.DataFrame:
    """Split ``engine/anything_<index>.jpg`` into engine and integer index, validating both."""
    parts = values.str.extract(r"^(sogou|baidu)/.*_(\d+)\.jpg$")
    bad = parts.isna().any(axis=1).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise trec.malformed(path, trec.row_line(path, row, skip=skip),
                                f"{what} 'sogou|baidu/<query>_<index>.jpg'", values.iloc[row])
    return pd.DataFrame({"engine": parts[0].astype("str"), "image": parts[1].astype("int64")})


def _check_header(path: Path, expected: str) -> None:
    with open(path, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\r\n")
    if header.split("\t")[0] != "Query":
        raise trec.malformed(path, 1, f"a header line starting 'Query' ({expected})", header)


def load_image_preferences() -> ImagePreferences:
    """Load the THUIR image-search preference dataset as tidy frames.

    Returns
    -------
    ImagePreferences
        Named tuple of four DataFrames (``serp``, ``relevance``, ``positions``, ``pairs``); see
        :class:`ImagePreferences`. ``query_id`` is the (Chinese or English) query text.

    Raises
    ------
    ValueError
        A malformed line (field count, value out of range, image name) with file and line, or an
        image that has a relevance label but no grid position.
    """
    ds = REGISTRY["thuir-image-preference"]
    local = fetch(ds.id, paths=["SERP_level_preference", "relevance_data", "Image_position.json",
                                "image_pairs_annotation"])

    path = local["SERP_level_preference"]
    _check_header(path, "Query, Winner")
    serp = trec.read_delimited(path, ["query_id", "preference"], sep="\t", header=True,
                                  dtypes={"query_id": str, "preference": "int64"},
                                  expected="2 tab-separated fields 'query winner(0, 1, 2)'",
                                  checks={1: trec.is_int})
    _check_values(path, serp["preference"], (0, 1, 2), "winner 0 (Sogou), 1 (tie) or 2 (Baidu)", skip=1)
    serp["preferred"] = serp["preference"].map({0: "sogou", 1: "tie", 2: "baidu"}).astype("str")

    path = local["relevance_data"]
    _check_header(path, "Query, Image, Average_Relevance_Score")
    rel = trec.read_delimited(path, ["query_id", "doc_id", "relevance"], sep="\t", header=True,
                                 dtypes={"query_id": str, "doc_id": str, "relevance": "float64"},
                                 expected="3 tab-separated fields 'query engine/image.jpg score'",
                                 checks={2: trec.is_finite})
    bad = ~rel["relevance"].between(0, 100).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise trec.malformed(path, trec.row_line(path, row, skip=1), "relevance in [0, 100]",
                                rel["relevance"].iloc[row])
    rel = pd.concat([rel[["query_id"]], _image_name(path, rel["doc_id"], 1, "image"),
                     rel[["doc_id", "relevance"]]], axis=1)

    path = local["Image_position.json"]
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise trec.malformed(path, exc.lineno, "valid JSON", exc.msg) from None
    rows = []
    try:
        for query, engines in raw.items():
            for key, images in engines.items():
                engine = {"0": "sogou", "1": "baidu"}[key]
                for image, (row_, col, size) in images.items():
                    rows.append((query, engine, int(image), int(row_), int(col), int(size)))
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise trec.malformed(path, None, "{query: {'0'|'1': {image: [row, column, row_size]}}}",
                                f"{type(exc).__name__}: {exc}") from None
    positions = pd.DataFrame(rows, columns=["query_id", "engine", "image", "row", "column", "row_size"])
    positions = positions.astype({"query_id": "str", "engine": "str"})
    missing = rel.merge(positions, on=["query_id", "engine", "image"], how="left", indicator=True)
    missing = missing["_merge"].eq("left_only").to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise trec.malformed(local["relevance_data"],
                                trec.row_line(local["relevance_data"], row, skip=1),
                                "an image with a position in Image_position.json",
                                rel["doc_id"].iloc[row])

    path = local["image_pairs_annotation"]
    _check_header(path, "Query, Image_pair, three preference tags")
    slots = ["P1", "P2", "P3"]
    wide = trec.read_delimited(
        path, ["query_id", "pair", *slots], sep="\t", header=True,
        dtypes={"query_id": str, "pair": str, **dict.fromkeys(slots, "int64")},
        expected="5 tab-separated fields 'query left.jpg,right.jpg tag tag tag' (tags -2..2)",
        checks={i: trec.is_int for i in (2, 3, 4)})
    for slot in slots:
        _check_values(path, wide[slot], range(-2, 3), f"preference tag -2..2 in column {slot}", skip=1)
    split = wide["pair"].str.split(",", expand=True, regex=False)
    if split.shape[1] != 2 or split.isna().any(axis=1).any():
        bad = split.isna().any(axis=1).to_numpy() if split.shape[1] == 2 else \
            (split.notna().sum(axis=1) != 2).to_numpy()
        row = int(np.flatnonzero(bad)[0])
        raise trec.malformed(path, trec.row_line(path, row, skip=1),
                                "an image pair 'left.jpg,right.jpg'", wide["pair"].iloc[row])
    _image_name(path, split[0], 1, "left image")
    _image_name(path, split[1], 1, "right image")
    wide["left"], wide["right"] = split[0].astype("str"), split[1].astype("str")
    pairs = wide.melt(id_vars=["query_id", "left", "right"], value_vars=slots,
                      var_name="assessor", value_name="preference")
    pairs = pairs.sort_values(["query_id", "left", "right", "assessor"], kind="stable")
    return ImagePreferences(serp=_with_attrs(serp, dataset="thuir-serp"),
                            relevance=_with_attrs(rel, dataset="thuir-relevance"),
                            positions=_with_attrs(positions, dataset="thuir-positions"),
                            pairs=_with_attrs(pairs, dataset="thuir-pairs"))


# --------------------------------------------------------------------------------------------
# Summaries and command line
# --------------------------------------------------------------------------------------------

def _levels(values: pd.Series) -> str:
    return ",".join(str(v) for v in sorted(values.unique()))


def describe(names: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per judgment set: size, topics, assessors per item, levels and terms.

    Loads (and if needed fetches) every set, so the first call downloads about 30 MB.

    Parameters
    ----------
    names : sequence of str, optional
        Subset of ``RATINGS + QRELS + DIVERSITY`` (default: all of them).

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset`` (loader name), ``source`` (registry id), ``items`` (distinct
        (query, document) pairs, or (query, intent, document) triples for diversity qrels),
        ``topics``, ``assessors_per_item`` (mean, NIST rows excluded), ``levels`` (the distinct
        labels, comma separated), ``terms``.
    """
    all_names = list(RATINGS) + list(QRELS) + list(DIVERSITY)
    names = all_names if names is None else list(names)
    rows = []
    for name in names:
        if name in RATINGS:
            df = load_ratings(name, include_nist=False)
            source = {"stc-ja": "stc-ja", "stc-ja-dev": "stc-ja",
                      "trec-rf10": "trec-rf10-crowd"}.get(name, "dl19-reannotation")
            per_item = df.groupby(["query_id", "doc_id"]).size()
            rows.append((name, source, len(per_item), df["query_id"].nunique(),
                         round(float(per_item.mean()), 2), _levels(df["rating"])))
        elif name in QRELS:
            df = load_qrels(name)
            rows.append((name, "dl19-nist-qrels", len(df), df["query_id"].nunique(), 1.0,
                         _levels(df["relevance"])))
        elif name in DIVERSITY:
            df = load_diversity_qrels(name)
            rows.append((name, "trec-web-diversity", len(df), df["query_id"].nunique(), 1.0,
                         _levels(df["relevance"])))
        else:
            raise ValueError(f"unknown dataset {name!r}; expected one of {all_names}")
    out = pd.DataFrame(rows, columns=["dataset", "source", "items", "topics", "assessors_per_item",
                                      "levels"])
    out["terms"] = out["source"].map(lambda s: REGISTRY[s].terms)
    return out


def registry_table() -> pd.DataFrame:
    """The registry as a table (no download): id, repository, commit, files, bytes, terms."""
    return pd.DataFrame([(d.id, f"{d.owner}/{d.repo}", d.commit[:12], len(d.files),
                          sum(f.size for f in d.files), d.terms) for d in REGISTRY.values()],
                        columns=["id", "repository", "commit", "files", "bytes", "terms"])


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``fetch --all``, ``fetch ID...``, ``describe [--registry]``.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments after ``python -m helpers data`` (a leading ``"data"`` is also accepted).

    Returns
    -------
    int
        Exit status: 0 on success, 1 on a download or data error, 2 on a usage error.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "data":
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="python -m helpers data",
                                     description="Download and describe the public datasets.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_fetch = sub.add_parser("fetch", help="download and verify datasets into data/external")
    p_fetch.add_argument("ids", nargs="*", metavar="ID", help=f"dataset ids: {', '.join(REGISTRY)}")
    p_fetch.add_argument("--all", action="store_true", help="every registered dataset")
    p_desc = sub.add_parser("describe", help="summarise every judgment set (downloads if needed)")
    p_desc.add_argument("--registry", action="store_true",
                        help="only list the registry, without downloading")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    try:
        if args.command == "fetch":
            if args.all == bool(args.ids):
                print("error: give dataset ids or --all (not both)", file=sys.stderr)
                return 2
            for dataset_id in (list(REGISTRY) if args.all else args.ids):
                files = fetch(dataset_id)
                print(f"{dataset_id}: {len(files)} files verified")
        else:
            table = registry_table() if args.registry else describe()
            with pd.option_context("display.width", 200, "display.max_colwidth", 60):
                print(table.to_string(index=False))
    except (FetchError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # read-only checkout, disk full while unpacking or describing
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"error:{where} {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
