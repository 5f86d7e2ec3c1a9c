"""Pinned dataset hashes: any change to dataset bytes must be a deliberate version change.

If one of these fails, either revert the change or bump the bench version (docs/bench-versions.md)
and pin the new hashes there and here.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from dittobench.core.hashing import canonical_sha256
from dittobench.generate.assemble import build_dataset
from dittobench.spec.versions import CURRENT_VERSION, POLICIES, RELEASED_VERSIONS

GOLDEN_SEED = 123456789
GOLDEN = {
    "9.0.0": {
        "small": "d5b23718158b26ecbf7fe262f8b3c4a78145122303b3c6458d47a689ec704d73",
        "medium": "ed098a6ec21b831cbde44b134f7a8713bdb6e192e639c28e2592541f7557da1c",
        "full": "6f48353f500912096a40da25bce7a7e3b317a2d92cc8352dd933df989ed47443",
        "long": "454cf1c1412e0c9ddc9a63ec4f27dbe5f305550be94ab14c07a297306a53347f",
    },
    "8.1.0": {
        "small": "c617574c512ae98b3e3cbf5ddd59a152fec703896915d39c333fea332aebedbd",
        "medium": "3da461fb628b16161ff428c8b805bf973b2aaa35edbb182de534ee0458ab4d98",
        "full": "de8e93f3fae2689a48fed14af750cc4d9f1b2bb38b0f9b05469916ce3c4e29a0",
        "long": "9d5472e61735d4d253b5201cafc86e64a41795f6bf53a47cfd02159231cd0c2c",
    },
    "8.0.0": {
        "small": "84dda623af7143c4dec2a390a8cca076d21d7f212773499f5b0602ef8f8a3992",
        "medium": "21a13a7d68819a4f461d897b75b1c9f45d7fca5e4f6822bb4fd277b51912ea45",
        "full": "abe9c67fe1f6323918df547a95fbb585576d8d01944023fe6396e1eb5e811856",
        "long": "21c2be2858c26f9966baaf034dae8554b594fd673ec09b8cc3e4a6afac0f32d8",
    },
    "7.1.0": {
        "small": "39768fd474773d8937aeddeedf00b4d3979a31fbd6839878d897a6e621fa25fe",
        "medium": "e3d9d2128eddce78ddae7e7dd288a53dba07d364737a1038d42fa87b553ea397",
        "full": "b5058a17027aacd4955f6f2937b7068f1974364a8b416e45a6aafa9571886c2d",
    },
    "7.0.0": {
        "small": "337bcea08b69251f2304f9e1d7ef76c69cb11e4e44d90d8b36d8fdcb150381f5",
        "medium": "47d716b8d80110fa85d1c14a086d3c766a313c2f7a54fa48d86f5bf4dc61ccd0",
        "full": "6847a08ac1da441820e71f2cd75eba44182545dd5df01a4f6618a7b0b09d3404",
    },
    "6.1.0": {
        "small": "cd09fc8e08b3c49c98b57ec0e81d4868783648d90812a79e86b3023a5443c204",
        "medium": "e7ded29a4d0fe4c5e8973bcf8b676fd6be951aafa04fd15dbf16d8781f544e35",
        "full": "79ff09ec98e205a565345a46f714f2227361f1af75088b1dfe75a95ea1ec8d28",
    },
    "6.0.0": {
        "small": "2c73fd2cc45590879b933655f6b9addb924271d8462fbb941b22954f323a8728",
        "medium": "4a7bf415bd88f666106dff588169c4cee279552e60e14e4142a8639a77d8ea20",
        "full": "aaadad1063541988c57e471581effbd20a75a9eda6adcb7285ef19746932aa2d",
    },
    "5.0.0": {
        "small": "17aeb2259a55c66d211bff039507df88770fac4a27d111892ddab424e38440f9",
        "medium": "f895a08587ac456f6b38183f7a39a4738e2b5fb7a1625b503c5b41281164c8f8",
        "full": "4bbd0260d3e654ebc15316293d84e60e8b17ec87ba1d988e6876855112eaca6f",
    },
    "4.0.0": {
        "small": "f254093f62e57bd97bc957e3c12753c7fca112b9e6bf64be07feff5925323186",
        "medium": "81aa2b0a9acfc1692aecc8fc5672eb4e027e1de6cb95c5cb061da4e308fc3fe2",
        "full": "0d0796abd6006cad96693872f74f9a6f690183729521a3c66312265ed2b502e0",
    },
    "3.0.0": {
        "small": "4262941bb0fd6851ad017a4841e394a290a2fa886b7995ceafcc4dc9af396b37",
        "medium": "551c2a776413da80a1ff1572538a7f39cf676da5babfb82d7f90939ee2233d6c",
        "full": "5cba79ed101c6604e51f365e735fe2887b458ea7ec8fd75a348a9df436d0e228",
    },
    "2.0.0": {
        "small": "4ac1e2e96d9da69e22f245fb8e22d1e42776c739afc73068cb07919c188ce503",
        "medium": "71f7c6dcf8d175f32ac8da54f0c68255ba8f2de175ab9b7b134c85f5fe12bc45",
        "full": "b38f4c0bce8e6331464f3ac04cfb5a9290ba76ecdf5b5b0b5740a3f7183efc95",
    },
    "1.1.0": {
        "small": "08b8dcf614d9599b22b84c3fe9d2d364d0e92ba7e23b4c4a9e90449a02a8a81e",
        "medium": "eb5ba5a4a7b6d7cf0eb23fc9674337267be9dfbcf37f2d9f7dc141ff8c348a18",
        "full": "a3fe5d27cd9ed221d2c672b37c73e08ad21fd63c4364f6621fde250a79a679cf",
    },
    "1.0.0": {
        "small": "0feb0e3a3ca8bd6e9717d5e0c458cbbc727c8ff5262c67d718676f6411f7f4cf",
        "medium": "0a6480194054ca9abb86464d051a3a16268338f33b5cda2b1260f8f050fcc524",
        "full": "3e6fca62011eb427a18004ac72da518cedfe0c5728913f9aed5484ab6eb5f09d",
    },
}


PINNED = [(version, size) for version in sorted(GOLDEN) for size in GOLDEN[version]]


@pytest.mark.parametrize(("version", "run_size"), PINNED)
def test_golden_hash(version: str, run_size: str) -> None:
    dataset = build_dataset(GOLDEN_SEED, version, run_size)
    assert canonical_sha256(dataset.to_json()) == GOLDEN[version][run_size]


def test_every_released_version_is_pinned() -> None:
    assert set(GOLDEN) == set(RELEASED_VERSIONS)
    for version in RELEASED_VERSIONS:  # every run size of its table (8.0.0 has long)
        assert set(GOLDEN[version]) == set(POLICIES[version].run_sizes), version
    assert CURRENT_VERSION in GOLDEN
    drafts = set(POLICIES) - set(RELEASED_VERSIONS)
    assert all(POLICIES[v].content.names_own_pack for v in drafts)  # new versions name packs


def _cli_sha(seed: int, run_size: str, hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "dittobench",
            "generate",
            "--seed",
            str(seed),
            "--run-size",
            run_size,
            "--sha",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    return result.stdout.strip()


@pytest.mark.parametrize("run_size", ["full", "long"])
def test_same_seed_same_bytes_across_processes(run_size: str) -> None:
    first = _cli_sha(GOLDEN_SEED, run_size, "0")
    second = _cli_sha(GOLDEN_SEED, run_size, "4242")
    assert first == second == GOLDEN[CURRENT_VERSION][run_size]


def test_different_seeds_differ() -> None:
    hashes = {
        canonical_sha256(build_dataset(seed, run_size="small").to_json()) for seed in range(20)
    }
    assert len(hashes) == 20
