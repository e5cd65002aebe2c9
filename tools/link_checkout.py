"""Put this checkout on the running environment's path, so that ``import helpers`` finds it.

The installable library is ``subjeval`` (``pip install -e .`` provides that name only, so that it
cannot collide with anyone's ``helpers.py``). The notebooks, tests and dask workers of a checkout
import the same folder as ``helpers``: ``make venv`` runs this after installing the package, and so
can anyone who sets up an environment by hand (``pip install -e . && python tools/link_checkout.py``),
e.g. on the machines of a dask cluster. It writes one ``.pth`` file into the environment's
site-packages naming this checkout (run it again after moving the checkout); ``--remove`` deletes it.
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
from pathlib import Path

NAME = "subjeval-checkout.pth"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remove", action="store_true", help="delete the path file instead")
    args = parser.parse_args(argv)
    target = Path(sysconfig.get_paths()["purelib"]) / NAME
    if args.remove:
        target.unlink(missing_ok=True)
        print(f"removed {target}")
        return 0
    checkout = Path(__file__).resolve().parent.parent
    if not (checkout / "helpers" / "__init__.py").is_file():
        print(f"error: {checkout} holds no helpers/ package", file=sys.stderr)
        return 2
    tmp = target.with_suffix(".tmp")
    tmp.write_text(f"{checkout}\n", encoding="utf-8")
    tmp.replace(target)
    print(f"{target}: the checkout {checkout} is on this environment's path (import helpers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
