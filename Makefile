# Four commands for users (see README): make reproduce, make test, make reproduce PARAMS=..., make book
# Everything else is for developers.  Set-up is automatic: a .venv is created on first use.

PYTHON  ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
PROFILE ?= default

# Offline machines (CI here): use the verbatim mirror of the public data when it sits beside the
# checkout. Users with internet need nothing; downloads then come from the upstream addresses.
MIRROR_DIR := $(abspath $(CURDIR)/../shared/data/mirror)
ifneq ($(wildcard $(MIRROR_DIR)),)
export SUBJEVAL_DATA_MIRROR ?= $(MIRROR_DIR)
endif
export PYTHONHASHSEED := 0
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: help venv venv-test reproduce test refresh data bench lock clean

help:
	@echo "make reproduce [PROFILE=default|real|paper|examples] [NB='02 03']  run the notebooks, write reports/"
	@echo "make reproduce PARAMS=my-params/             run the notebooks on your files (NN_*.yaml), reports/my-params/"
	@echo "make book [PROFILE=...|PARAMS=my-params/]     the book of a run: HTML pages and appendix.pdf"
	@echo "make test                                    unit + hygiene tests, nbval, smoke runs"
	@echo "make data                                    download (and verify) all public datasets"
	@echo "make refresh [NB='01 02']                    regenerate committed notebook outputs"
	@echo "make bench                                   benchmarks against peer tools"

# The package itself needs numpy, pandas and scipy only (`pip install .`); the notebooks, papermill,
# nbval and dask come with the `notebooks` extra, the test runner and peer tools with `test`.
# Everything is installed at the exact versions of constraints.txt.
# EDITABLE: the folder helpers/ installs as the package subjeval, so setuptools' editable install
# maps the name with an import hook and prints a boxed "Editable installation ... folders with the
# same name as your package" notice; no folder here is named subjeval, so that notice is silenced
# (tests/test_packaging.py installs with it and checks the box is gone).
EDITABLE := PYTHONWARNINGS=ignore:::setuptools.command.editable_wheel
$(VENV)/.runtime: pyproject.toml constraints.txt
	@test -x $(PY) || { echo "make: first run: installing the pinned environment into $(VENV)/ (quietly; a few minutes, see README)"; \
		$(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --upgrade pip
	$(EDITABLE) $(PY) -m pip install --quiet -c constraints.txt -e '.[notebooks]'
	@$(PY) tools/link_checkout.py >/dev/null    # the library is `subjeval`; the notebooks import this checkout as `helpers`
	@touch $@

$(VENV)/.test: $(VENV)/.runtime
	$(EDITABLE) $(PY) -m pip install --quiet -c constraints.txt -e '.[notebooks,test]'
	@touch $@

$(VENV)/.bench: $(VENV)/.test
	$(EDITABLE) $(PY) -m pip install --quiet -c constraints.txt -e '.[notebooks,test,bench]'
	@touch $@

venv: $(VENV)/.runtime
venv-test: $(VENV)/.test

reproduce: venv
ifdef PARAMS
	$(PY) -m helpers notebooks run --params $(PARAMS) $(NB)
else
	$(PY) -m helpers notebooks run --profile $(PROFILE) $(NB)
endif

# Unit tests, notebook hygiene and one execution of every notebook per profile (checked three ways:
# no error, nbval's comparison of the checked cells, the committed reports), in one pytest session
# on every core (pytest-xdist); the slowest tests are listed at the end. Outputs go to reports/ci/.
# The configuration fuzz (tests/test_fuzz_notebooks.py) draws new parameter sets on every run from
# SUBJEVAL_FUZZ_SEED, printed in the header; `make test SUBJEVAL_FUZZ_SEED=<seed>` replays one.
TEST_WORKERS ?= auto
SUBJEVAL_FUZZ_SEED ?= $(shell date +%s)
export SUBJEVAL_FUZZ_SEED
test: venv-test
	SUBJEVAL_REPORTS_DIR=$(CURDIR)/reports/ci/test-outputs $(PY) -m pytest tests -n $(TEST_WORKERS) --dist worksteal \
		--durations=15

# Nightly-style: the differential tests against NIST trec_eval (tests/test_trec_eval_differential.py)
# with 2,000 examples per relevance format instead of make test's 100; same seed rules (replay with
# SUBJEVAL_DIFF_SEED=<seed>, printed with each failure).
test-nightly: venv-test
	SUBJEVAL_DIFF_EXAMPLES=$${SUBJEVAL_DIFF_EXAMPLES:-2000} $(PY) -m pytest tests/test_trec_eval_differential.py \
		-n $(TEST_WORKERS) -s -q

refresh: venv
	$(PY) -m helpers notebooks refresh $(NB)

data: venv
	$(PY) -m helpers data fetch --all

bench: $(VENV)/.bench
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

lock:
	rm -rf /tmp/subjeval-lock && $(PYTHON) -m venv /tmp/subjeval-lock
	/tmp/subjeval-lock/bin/pip install --quiet '.[notebooks,test,bench]'
	/tmp/subjeval-lock/bin/pip freeze --exclude subjective-ir-eval > constraints.body
	{ sed -n '1,3p' constraints.txt; cat constraints.body; } > constraints.txt.new && mv constraints.txt.new constraints.txt && rm constraints.body

clean:
	rm -rf reports/executed reports/html reports/ci

# The book of the executed notebooks of one run: reports/book/<run>/index.html, reading mode with
# code hidden, and appendix.pdf when pdflatex is installed. PROFILE=default uses the committed
# notebooks; other profiles need `make reproduce PROFILE=...` first, and `make book PARAMS=my-params`
# builds the book of `make reproduce PARAMS=my-params` (reports/book/my-params/). See book/README.md.
.PHONY: book
book: venv
ifdef PARAMS
	$(PY) tools/build_book.py --params $(PARAMS)
else
	$(PY) tools/build_book.py --profile $(PROFILE)
endif
