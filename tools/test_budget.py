"""Sum a test CPU log (tests/conftest.py: SUBJEVAL_TEST_CPU_LOG) against the make test budget.

Usage: python tools/test_budget.py LOG [--top 30] [--cores 2]

Prints the total CPU seconds, the lower bound of the wall time on ``--cores`` cores (total CPU
divided by the cores), the CPU per test file and the most expensive tests.
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path


def read(path: Path) -> list[tuple[float, float, str]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split("\t")
        if len(parts) != 3:
            raise SystemExit(f"{path}:{n}: expected 'cpu<TAB>wall<TAB>node id', got {line!r}")
        rows.append((float(parts[0]), float(parts[1]), parts[2]))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", type=Path)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--cores", type=int, default=2)
    args = ap.parse_args(argv)
    rows = read(args.log)
    total = sum(r[0] for r in rows)
    print(f"{len(rows)} tests, {total:.0f} CPU s; on {args.cores} cores at least {total / args.cores / 60:.1f} min")
    files = collections.Counter()
    for cpu, _, node in rows:
        files[node.split("::")[0]] += cpu
    print("\nCPU per file:")
    for name, cpu in files.most_common(25):
        print(f"{cpu:8.1f}  {name}")
    print(f"\nthe {args.top} most expensive tests (cpu, wall):")
    for cpu, wall, node in sorted(rows, reverse=True)[:args.top]:
        print(f"{cpu:8.1f} {wall:8.1f}  {node}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
