# Two entry points: `make demo` and `make test`. Both set up everything
# they need (SWI-Prolog, a virtual environment, the package) and are safe
# to run again.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test research setup swipl wall graphviz bench clean

demo: setup
	$(BIN)/advice demo

# The tests run in one process per core (pytest-xdist), then those that
# start a Ray (marked `ray`) one after another in one process: two Rays
# started at once on one machine would meet.
test: setup
	$(BIN)/python -m pytest -n auto -m "not ray and not research"
	$(BIN)/python -m pytest -m ray

# Research measurements over whole endgames (minutes each), out of make test.
research: setup
	$(BIN)/python -m pytest -m research

setup: swipl wall graphviz $(STAMP)

# $(call debian_package,CHECK,PACKAGE,WHAT,ELSE): when the shell test
# CHECK fails, install Debian's PACKAGE as root; otherwise name WHAT and the
# apt-get line for it, then run ELSE (`exit 2;` where nothing runs without it).
define debian_package
@$(1) || { \
  if [ "$$(id -u)" = 0 ]; then \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2); \
  else \
    echo "$(3) is missing. Install it with:"; \
    echo "  sudo apt-get install -y $(2)"; \
    $(4) \
  fi; }
endef

swipl:
	$(call debian_package,command -v swipl >/dev/null 2>&1,swi-prolog-nox,SWI-Prolog,exit 2;)

# The operating-system wall around users' Prolog files (engine/sandbox.py)
# loads seccomp filters through libseccomp; Landlock is the kernel's.
wall:
	$(call debian_package,ldconfig -p 2>/dev/null | grep -q 'libseccomp\.so\.2',libseccomp2,libseccomp (for the wall around users' files),)

# Graphviz draws forcing trees (advice explain --svg); nothing else needs it,
# so without root it is only named.
graphviz:
	$(call debian_package,command -v dot >/dev/null 2>&1,graphviz,Graphviz (for advice explain --svg),)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,cluster]'
	touch $(STAMP)

bench: setup
	$(BIN)/python bench/search.py
	$(BIN)/python bench/verify.py
	$(BIN)/python bench/tablebases.py

clean:
	rm -rf $(VENV) build *.egg-info
