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

.PHONY: help venv venv-test reproduce test test-slow test-nightly refresh data bench lock clean

help:
	@echo "make reproduce [PROFILE=default|real|paper|examples] [NB='02 03']  run the notebooks, write reports/"
	@echo "make reproduce PARAMS=my-params/             run the notebooks on your files (NN_*.yaml), reports/my-params/"
	@echo "make book [PROFILE=...|PARAMS=my-params/]     the book of a run: HTML pages and appendix.pdf"
	@echo "make test                                    unit + hygiene tests, nbval, smoke runs (10 min on 2 cores)"
	@echo "make test-slow                               everything make test leaves out (fresh venvs, DL-19 reproductions; ~1 h)"
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
# The configuration fuzz (tests/test_fuzz_notebooks.py) and the differential tests draw from
# SUBJEVAL_FUZZ_SEED, printed in the header: fixed in make test (the gate passes or fails on the same
# examples every run), from the clock in test-slow and test-nightly (new examples every night);
# `make test SUBJEVAL_FUZZ_SEED=<seed>` replays a night's draw.
# A test that runs longer than TEST_TIMEOUT seconds fails with the stacks of its threads (pytest-timeout)
# instead of stalling the suite. Budget: 10 minutes on 2 cores; SUBJEVAL_TEST_CPU_LOG=<file> records
# each test's CPU time and tools/test_budget.py sums it.
TEST_WORKERS ?= auto
TEST_TIMEOUT ?= 600
SUBJEVAL_FUZZ_SEED ?= $(if $(filter test-slow test-nightly,$(MAKECMDGOALS)),$(shell date +%s),20261127)
export SUBJEVAL_FUZZ_SEED
PYTEST = SUBJEVAL_REPORTS_DIR=$(CURDIR)/reports/ci/test-outputs $(PY) -m pytest tests -n $(TEST_WORKERS) --dist worksteal \
		--timeout $(TEST_TIMEOUT) --timeout-method thread --durations=15
test: venv-test
	$(PYTEST)

# Nightly-style, everything make test leaves out (SUBJEVAL_SLOW_TESTS=1): fresh venvs of every other
# Python built from nothing (pandas 2.2 and 3.x, `pip install .` pulls no Jupyter), the DL-19 file-mode
# reproductions of 02 and 03, the DL-19 agreement of the API, the CLI and pytrec_eval, the examples
# profile, more fuzzed configurations, and the differential tests against NIST trec_eval with 2,000
# examples per relevance format instead of 100 (replay with SUBJEVAL_DIFF_SEED=<seed>). About an hour.
test-slow: TEST_TIMEOUT = 3600
test-slow: venv-test
	SUBJEVAL_SLOW_TESTS=1 SUBJEVAL_DIFF_EXAMPLES=$${SUBJEVAL_DIFF_EXAMPLES:-2000} $(PYTEST)

# The differential tests alone, nightly-style (2,000 examples per format).
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
